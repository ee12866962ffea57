// Package fuzz tests policies: it generates test cases by biased search
// and confirms bugs with oracles whose evidence replays in the explicit
// semantics.
//
// Two testing objectives share it:
//
//   - Goal reaching (papers 001 and 003; goal*.go, pool.go, bias.go,
//     oracle.go): a pool of test states built by biased random walks, bugs
//     where some policy reaches the goal more cheaply, confirmed by a
//     patch of the policy that replays.
//   - Safety (paper 000, section 5; safety*.go): Algorithm 1 generates
//     policy runs from random start states, steering the non-deterministic
//     outcomes towards the unsafe condition with the unsafety distance h_u
//     and a breadth-first lookahead in the policy graph. The states of
//     every unsafe run are the candidate bugs; the safety deciders of
//     package safety confirm them (a bug is a safe state from which the
//     policy's run is unsafe) and find the faults on the run.
//
// Everything random comes from seeded PCGs, and work is split between
// workers in a fixed way, so a seed, the budgets and the worker count give
// the same report (a runtime limit or an interrupt aside).
package fuzz
