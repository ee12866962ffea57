// Package ic3 decides whether a model, with its choice of labels free or
// fixed by a symbolic (.spec rules or table) policy, can reach an unsafe
// state, by IC3 over SMT (paper 004, Algorithm 1 with Assertions 1-5). It
// never enumerates the state space: it proves safety of models whose
// reachable states no explicit search can store, with an inductive
// invariant as the certificate, or finds a counterexample that replays in
// the explicit semantics.
//
// # Direction
//
// The frames follow paper 004, not the textbook: F_0 is the bad region and
// F_n over-approximates the states that reach it within n steps, so
// F_0 ⊆ F_1 ⊆ ... ⊆ F_N. A frame F_n (n ≥ 1) is a set of clauses ¬r where
// r is a box (a cube of bound literals lo ≤ x ≤ hi, and for symbolic
// policies linear atoms sum c_i x_i ≤ k: see Relational lemmas) disjoint
// from the bad region. Obligations are concrete states found forward from a start
// state: the successor of (s, n) is a state of F_{n-1} reached in one step
// from s, which is what lets PolIC3 evaluate a learned policy on concrete
// states. When F_k = F_{k+1}, the union of the boxes of F_{k+1} is closed
// under successors, contains every start state and no bad state: it is
// the inductive invariant that a safe verdict exports.
//
// The bad region is the property's unsafe states plus the states where an
// outcome the policy allows leaves a variable's range (the explicit engine
// reports those as errors; counting them as bad means a "safe" proof rules
// them out). For a learned policy, which SMT does not encode, the solver
// counts a label's range errors wherever no certified policy fact excludes
// the label, and PolIC3 certifies such facts where it meets a state whose
// erring labels the policy does not choose (rangeerr.go).
//
// # Data structures
//
// Clauses are stored once, at the highest level where they are known to
// hold (IC3ref's delta encoding): F_k is the set of clauses of level ≥ k.
// One Z3 solver holds the transition relation (under an activation
// literal, so that start-state and bad-region queries can switch it off),
// the bad region and the start condition (each under its own literal), and
// every clause of level k under the level's literal lvl_k, over the next
// state. A query "no transition from box r into F_{n-1}" assumes r's bound
// literals on the current state, the transition literal and lvl_k for
// k ≥ n-1, plus a temporary clause ¬r' on the next state (relative
// induction: ¬r goes into F_{n-1} too), guarded by a fresh literal that is
// retired afterwards; the solver is rebuilt when retired literals pile up.
// The unsat core names the bound literals of r that matter.
//
// # Generalization
//
// generalize follows Bradley and IC3ref with bounded integers in mind: the
// unsat core first, then greedy literal dropping (in the variable order of
// Options.Order), then bound widening by binary search (Spacer's expand
// bounds), every step confirmed by a query; a reduced box that meets the
// bad region gets literals of the original box back. Options.Generalize
// false is paper 004's variant without generalization (-nog): the clause
// blocks exactly the obligation's state.
//
// # Relational lemmas
//
// A blocked region may also bound linear forms over several variables
// (relational.go): the
// model's linear comparisons (guards, rules policy, start and unsafe
// conditions) give axes and thresholds, and the region first tried for a
// blocked state is its cell in that grid, widened to further thresholds
// where the query's successor leaves it. So y <= x is one clause
// x - y >= 0 instead of a box per value. Bound widening tries the
// thresholds beyond a bound before its binary search, so that
// level <= N - 10 is found at once rather than approached a frame at a
// time. When the cell does not qualify,
// generalization falls back to boxes as above (Options.NoRelational
// keeps to boxes). For a learned policy the cell's query is APFT, which
// certifies the policy over the cell itself (its bounds and linear atoms)
// where the certifier implements symbolic.RegionCertifiable, else over
// its bounding box, a superset (region.go); the policy facts record their
// regions, atoms included, and the certificate checker re-checks each
// over its box and atoms. A blocked cell is generalized through APFT's
// core and bound widening, each step certified again. A tree ensemble
// gets cells only when a split reads an input over several variables;
// otherwise its choice is constant on boxes between its thresholds and
// it keeps boxes (relationalPays).
// Options.CTG adds counterexamples to generalization (Hassan, Bradley and
// Somenzi 2013) to literal dropping.
//
// # Disequality invariants
//
// For a network policy, PolIC3 first looks for pairs of variables that
// differ in every start state and after every step (differ.go: Houdini,
// candidates dropped by evaluation first, then by SMT). Their
// disequalities D are asserted over the current state in every
// transition query and in the bad region's, so every frame and the
// invariant lie within D, and a label the certifier cannot exclude on a
// region is excluded by evaluating the network on the region's states
// within D, when there are at most 50,000 (a fact that then holds within
// D only, marked so in the certificate). The invariant of a safe answer
// is D ∧ (the union of the boxes). Relational cells are off within D.
//
// Obligations sit in a priority queue by level (then by depth); a blocked
// obligation is re-queued one level up, so that counterexamples longer than
// the current frame count are found without restarting, and a new clause
// is pushed forward as far as it holds.
package ic3
