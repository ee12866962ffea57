// Package prob computes reachability probabilities (and expected
// rewards of JANI models) on vigil models, as the
// probabilistic model checkers PRISM and Storm do: the reachable states of
// a model become a Markov decision process (one choice per applicable
// command) or, under a policy, the process restricted to the commands of the
// policy's label (a Markov chain whenever the chosen label has one command
// applicable), and Pmax / Pmin of reaching the goal or the unsafe states are
// computed from every state. A JANI dtmc has no choices: the commands
// enabled in a state are fused into one, each taken with equal probability,
// as Storm builds it (fuse.go). A JANI property's filter function reduces
// the start states' values to its answer as Storm does (filter.go).
//
// Design notes:
//   - Probabilities are the command's outcome weights normalised (lang/spec.md:
//     missing weights share what the written ones leave; JANI probabilities,
//     also state-dependent ones, are weights). Outcomes of one command that
//     lead to the same state are merged, so a choice is a distribution over
//     distinct successors. Build keeps them as float64 and, for the exact
//     method, as big.Rat.
//   - The model is stored in compressed sparse rows as Storm stores
//     nondeterministic models: state s has the choices RowStart[s] ..
//     RowStart[s+1]-1; choice c has the entries EntryStart[c] ..
//     EntryStart[c+1]-1. Terminal states (goal, unsafe), deadlocks and
//     states where the policy is stuck have no choices.
//   - Graph precomputation (graph.go) finds the states of probability 0 and
//     1 for max (Prob0A, Prob1E) and min (Prob0E, Prob1A) by fixpoints over
//     the transition graph, as in Baier and Katoen, Principles of Model
//     Checking, section 10.6, and PRISM's and Storm's implementations.
//   - Interval iteration (Haddad and Monmege 2018; Baier et al., CAV 2017)
//     iterates a lower bound from 0 and an upper bound from 1 on the
//     remaining states and stops when they are within epsilon. For max,
//     maximal end components of those states are collapsed first (graph.go),
//     without which the upper bound need not converge; for min, Prob0E has
//     removed every end component already. Strongly connected components
//     are solved one at a time, sinks first (Storm's topological solver);
//     one of a single state (or collapsed end component) is solved
//     directly, each choice's value being what it gains on leaving divided
//     by its probability of leaving, so that a self-loop of probability
//     close to 1 needs no iterations (about 1/(1-p) of them otherwise),
//     and every update rounds a lower bound down and an upper bound up by
//     the worst-case rounding error of its sum, so the bounds hold in
//     floating point too. A component of several classes whose sweeps
//     stall in floating point, or whose gap shrinks so slowly that it
//     would need more than 20 times the sweeps it has had (cycles that
//     stay inside with probability close to 1), is solved directly,
//     within the component, from its exits' final bounds: first in
//     float64 intervals rounded outwards (sccf64.go: elimination without
//     subtraction, policy iteration whose last scheduler is certified by
//     bounding every other choice's advantage, through differences of
//     values where the intervals are too wide: certdiff.go), then, when that declines
//     or its bounds are not within epsilon, by policy iteration in
//     rationals on the float64 probabilities (scc.go), up to 1000
//     classes; either result is widened by the factor by which the
//     float64 probabilities' rounding can move it (entrywise
//     perturbation, via the matrix-tree theorem). Rational elimination can
//     cost far more than the sweeps (fill-in over a component with
//     chords), so unless the sweeps stall it gets a quarter of their
//     predicted work, counted in work units, not time, so that the answer
//     does not depend on the load (work.go), and iteration goes on when
//     that runs out.
//   - The exact method (exact.go) is policy iteration in rational
//     arithmetic, seeded by interval iteration's scheduler: the induced chain
//     is solved by sparse Gaussian elimination over math/big.Rat, and the
//     scheduler is accepted only when its values satisfy the Bellman
//     equations exactly, which makes them Pmax (the least fixpoint is below
//     every fixpoint, a scheduler's value is below Pmax) or Pmin (the
//     fixpoint is unique once Prob0E is fixed to 0).
//   - Expected rewards (JANI Emin, Emax until a goal) are solved apart
//     (reward.go): infinite where the goal is missed with positive
//     probability, else value iteration with verified upper bounds, or
//     exact policy iteration.
//   - Bounded questions (JANI step and reward bounds, the reward of the
//     first k steps; vigil prob --steps) are solved apart (bounded.go):
//     k rounds of backward iteration, in rationals or in float64 rounded
//     outwards, or the model unfolded with the accumulated reward.
//
// Files: build.go (the sparse model), graph.go (precomputation, end
// components), ii.go (interval iteration and schedulers), sccf64.go and
// scc.go (a component solved directly), exact.go (the
// rational solver), reward.go (expected rewards), bounded.go (bounded
// questions), check.go (the questions vigil prob asks), filter.go
// (JANI filter functions), fuse.go (dtmc).
package prob
