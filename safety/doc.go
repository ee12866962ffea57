// Package safety decides whether a state is safe — some policy avoids the
// property's unsafe states forever, a goal or a deadlock ending a run
// safely — or r-safe — some policy that deviates from the tested policy at
// most r times along every run does (paper 000, Definitions 1-5; paper
// 002, section 3). It also finds the faults on an unsafe run (paper 000,
// Definition 3) and writes certificates for every answer, which package
// safety/cert checks without sharing code with this package.
//
// # Deciders
//
//   - Tarjan: TarjanSafe (paper 000, Algorithm 2) over (state, budget)
//     pairs, iterative, with the yes/no budget caches. A pair that returns
//     "maybe safe" stays on Tarjan's stack until its SCC root is confirmed
//     (Algorithm 2's "not in current call's SCC"), so no state is searched
//     twice within a call; TarjanPath ("tarjan-path") is the variant of paper
//     002's Algorithm 1, where such a pair leaves the stack and is searched
//     again when met again: the exponential worst case of paper 002,
//     Theorem 2, kept to measure it.
//   - IPI: improved policy iteration (paper 002, Algorithm 4) with its outer
//     loop and the action orders app, learn and rand; NPI: naive policy
//     iteration (Algorithm 3).
//   - PropU: Prop-U (Algorithm 2) in linear time over the region reachable
//     from the query, with per-action flags and per-pair counters over the
//     backward transitions.
//   - VI, LRTDP, LAO: value iteration, labelled RTDP and LAO* on the
//     Bellman operator B_{pi,r} of paper 000, section 6, with J initialised
//     at 0 (Theorem 2), values capped at U_r.
//
// Every decider handles every radius. Paper 002 defines iPI, nPI and Prop-U
// for plain safety only; here they run, for finite r, on the game whose
// positions are (state, remaining budget) pairs, where a label other than
// the tested policy's costs one unit and is unavailable at budget 0. A
// pair (s, b) of that game is safe iff J*_{pi,r}(s) <= b, so all deciders
// answer the same question.
//
// The search deciders (TarjanSafe, iPI, nPI, Prop-U) keep their per-pair
// records only for the pairs they reach (pairTable: a short chain of
// budgets per state, then a window of budgets), so memory follows the
// pairs touched, not states times r+1; every decider refuses with an
// error once it holds more than MaxPairs pairs (records plus unsafe
// proofs: the value-based deciders prove one per increase of a value; iPI
// and nPI count the pairs their iterations visit again too).
//
// # Semantics
//
// Unsafe states (the property's unsafe condition) and goal states are
// terminal; a state satisfying both is unsafe. A non-terminal state without
// applicable labels is a deadlock: a run ends there without failure, so it
// is safe for every radius. Where the tested policy is stuck (no output
// label applicable) but some label is, every label counts as a deviation.
//
// # Caches and facts
//
// All deciders share a Space (the explicit state registry with each
// expanded state's label groups and successors) and keep their own facts
// across calls: the smallest budget with which a state is known safe, with
// the label to take, and proofs that it is not safe with a given budget.
// Facts are only recorded when sound, and each unsafe proof's witnesses
// were proven earlier, so the order of proofs is a ranking; Certify turns
// the facts into certificates. Fault analysis (Faults) walks a run
// backwards with one decider, so that each state reuses what the states
// after it established.
//
// # Departures from the pseudo-code
//
// iPI's literal line 12 (saw-unsafe on meeting a known-unsafe state) makes
// the outer loop run forever on a safe state whose first action is unsafe;
// an iteration is repeated only when it marked a new pair unsafe (see
// IPI). TarjanSafe restores the lowlink and forgets the pairs pushed while
// trying an action that fails, so tentative results never outlive the
// assumption they were made under; before searching a state it settles it
// at once when one affordable action leads only to states already known
// safe or, at no cost, back to itself (an always-applicable self-loop),
// where the pseudo-code would first search the actions listed before it.
// VI builds its region over (state, budget) pairs as Prop-U does, so a
// finite radius limits the states it expands (and the range errors it
// meets) to those reachable with the deviations the radius allows.
//
// # Range errors
//
// A state with an out-of-range outcome (or a probability outside [0, 1])
// is a modelling error (lang/spec.md, "Range errors"). The answer to "is s
// r-safe" is a range error exactly when some non-terminal state reachable
// from s with at most r deviations (the question's scope) has one: every
// Decide first searches the scope (base.checkScope: fewest deviations
// first, then breadth first, each state once a question), remembering per state the
// largest budget whose scope is clean, so all deciders report the same
// error for the same sequence of questions whatever order they then search
// in. LRTDP and LAO* follow values rather than budgets and may reach states
// beyond the scope; a range error there poisons the state
// (vbase.expandScoped) instead of ending the search. safety/cert checks the
// scope of every root of a certificate the same way. A model that interval
// reasoning proves free of range errors (NoRangeErrors) has no scope
// to search, for the deciders or the checker.
package safety
