// Package bdd is vigil's symbolic engine: it encodes a model's states,
// guards, outcomes and policies as binary decision diagrams (with
// github.com/dalzilio/rudd) and computes with whole sets of states at once.
//
//   - Verify and Explore: forward reachability in breadth-first layers,
//     with or without a policy, with exact state counts far beyond what an
//     explicit search can store, and shortest counterexamples that replay in
//     the explicit semantics (vigil verify/explore --engine bdd).
//   - PropU: the unsafe region of a property by regression (paper 002,
//     Appendix A, Algorithm 5), for plain safety (r = ∞) and under the
//     tested policy (r = 0), so that every state's safety is known at once
//     (vigil safe --algo propu-bdd).
//
// The semantics are the explicit engine's (package symbolic/explicit) and,
// for safety, package safety's: unsafe and goal states are terminal,
// deadlocks are safe, an outcome that leaves a variable's range is an error
// where the explicit engine would meet it. The conformance tests compare
// every answer with the explicit engines on generated models.
//
// Design notes:
//   - Encoding (encode.go): variable v in lo..hi is the unsigned number
//     v-lo in bits.Len(hi-lo) BDD variables (at most 62), current and next
//     copies (and an auxiliary one for composing relations); the order interleaves them (Order). Expressions are exact
//     two's-complement bit-vector circuits whose widths follow interval
//     bounds (bitvec.go).
//   - Transitions: one relation per command outcome, only over the
//     variables it assigns (next_v = value(current) per assigned v);
//     unassigned variables keep their current bits, so no frame conditions
//     are built. Images and pre-images are relational products that
//     quantify each variable's bits as soon as no later conjunct reads them.
//   - Long chains (closure.go): after 64 layered rounds, the reachability
//     computations (Prop-U at r = 0, Verify, Explore, the range-error
//     search) square the transition relation (R_{k+1} = R_k ∪ R_k∘R_k,
//     over a third, auxiliary copy of the bits) with a share of their time
//     and only while it stays narrow, and then finish in log(length)
//     images, with the same answers (binary lifting finds the depth and
//     the first layer of an error).
//   - Memory (mgr.go): every rudd operation is checked against a node
//     budget and the context; a stop unwinds to the entry point, which
//     answers Unknown and keeps what was computed.
package bdd
