// Package cert reads and checks inductive-invariant certificates: the
// SMT-LIB2 files that `vigil verify --engine ic3 --cert FILE` writes (see
// smt/smtlib for the layout). It parses the invariant back from the
// file's `vigil.inv` definition and the question from its header, reloads
// nothing itself (the caller loads the model the header names), and
// checks the certificate's conditions:
//
//	init:        Init ∧ ¬Inv            is unsat
//	consecution: Inv ∧ T ∧ ¬Inv'        is unsat
//	safety:      Inv ∧ Bad              is unsat
//
// where T is the transition relation under the certificate's policy (none:
// every label) and Bad is the unsafe region plus the states where an
// allowed outcome leaves a variable's range. A learned policy (network or
// tree ensemble) is not encoded: T takes every label, consecution is
// checked per label outside the regions where a policy fact excludes it,
// and so are range errors (a range error is the policy's: an outcome of
// the label it chooses leaves a range, so label a's range errors count
// only outside the regions of the facts that exclude a; safety is then
// the unsafe states alone):
//
//	consecution a: Inv_a ∧ T_a ∧ ¬Inv'    is unsat, for each label a
//	rangeerr a:    Inv_a ∧ RangeErr_a     is unsat, for each label a
//	safety:        Inv ∧ Unsafe           is unsat
//
// where Inv_a is Inv without the regions of the facts that exclude a.
// Each fact's "sure" labels must be applicable throughout its region
// (an SMT check), and each exclusion is re-checked against the policy by
// the fact checker (facts.go), so a fact serves both checks of its label.
//
// # What a valid certificate proves
//
// That no run of the policy from a start state of the property reaches an
// unsafe state or a range error, for the model exactly as loaded: the
// model file, with the -D values the header records (a different -D is
// refused by vigil cert check), the PlaJA files, and the policy's files.
// The header's model-sha256 (ModelHash: the model as vigil prints it, with
// policy files by base name, the property, the policy and its files'
// content) ties the certificate to that
// question; policy-sha256 (symbolic.PolicyFilesHash) names the policy's
// files alone, so that a retrained network is reported as such.
//
// # Semantics checked
//
// The invariant is a union of regions, each a conjunction of bounds
// (>= |x| K) and linear atoms (<= (+ (* C |x|) |y| ...) K) with integer
// coefficients, read back exactly (cert.go). A learned policy's fact
// holds over a region too: its invariant box within its sub-region (the
// header's within=, bounds such as d>=1 and linear atoms such as
// 1*d+-1*v<=0, read back exactly), and it is re-checked over that box and
// its atoms (facts.go, region.go): only states that satisfy the atoms
// count, sub-boxes whose real relaxation misses the atoms are dropped
// (an exact rational simplex, simplex.go), the network's first-layer
// sums are bounded over that relaxation (exact dual bounds whose
// multipliers a float64 simplex finds: any multipliers give a sound
// bound) before the interval search goes on, and a tree ensemble's leaf regions disjoint from the atoms are
// skipped. An atom the header cannot state is an internal error of the
// writer (vigil verify), never dropped.
//
// A certificate may also state a disequality invariant (PolIC3's, for
// models whose steps permute values among variables): "differ: X Y"
// header lines, and vigil.inv written as (and (vigil.differ PARAMS)
// UNION), vigil.differ being the conjunction of (not (= |X| |Y|)) over
// the pairs, which must match the header's exactly (Parse refuses
// another definition). The checks read the invariant with the
// disequalities. A fact with a trailing "differ" token holds only in the
// states of its region that satisfy them; it is re-checked by
// enumerating exactly those states and evaluating the policy (differ.go).
// Because vigil.inv lies within the disequalities, any fact of such a
// certificate is re-checked that way when its region holds few enough
// of their states.
//
// States are one integer per variable, each within its range. Integers
// are exact mathematical integers (SMT-LIB Int): division by a positive
// constant floors (div), min, max, abs and if are ite terms. Unsafe and
// goal states are terminal: no successors. A rules policy chooses the
// first rule whose condition holds and whose label is applicable; a table
// policy the label of the state's (last) row, when applicable; where no
// label is chosen the state has no successor. An outcome of the chosen
// label that leaves a variable's range in a reachable, non-terminal state
// is an error, and the checks count it as bad (for a learned policy, any
// label's that no fact excludes there).
//
// # Independence: what is shared with the engine and what is not
//
// ic3 (and the PolIC3 search) decides with smt.Encoder: Go calls that
// build Z3 terms through the cgo binding. Check never uses the Encoder.
// It has smtlib write the question as SMT-LIB2 text from the symbolic IR
// (smtlib's own printer; the same printer writes the file z3 reads, but
// the checker rebuilds the text from the model rather than trusting the
// file's definitions), and hands the text to Z3's SMT-LIB2 parser
// (smt.Context.ParseSMTLIB, Z3_parse_smtlib2_string) in a Z3 context of
// its own, whose solver checks the assertions the parser returns; the
// Encoder's terms are never in that context. So a bug in the
// Encoder's transition relation, range errors, policy encoding or
// literals cannot certify itself: the checker's encoding would have to
// contain the same bug, written independently.
//
// Shared, and so trusted by both:
//
//   - the symbolic IR: the lowering of the .spec (or JANI) file by package
//     lang, the constants' values after -D, symbolic.Model.Bounds,
//     which smtlib uses to leave out range checks of assignments whose
//     value interval already lies in range, and symbolic.Form.RangeIn, a
//     linear form's range over a box;
//   - Z3 itself (its SMT core; the text front end is Z3's parser, not
//     the binding's term constructors);
//   - the loading of networks and ensembles and their float64 evaluation
//     (packages nn and trees load the policy files, registered with
//     symbolic.RegisterKind, for both the certifier and the fact checker;
//     the checker reads the loaded parameters through
//     symbolic.Certifiable.Params and never imports nn or trees).
//
// A model of at most 16,384 states is decided without Z3 when it can be
// (exhaust.go): the checks' disjunction written over the current state
// alone (smtlib.Script.Posts, each successor replaced by its outcome's
// values) is evaluated exactly in every state within the ranges, by an
// evaluator of the checker's text that shares no code with the engines
// or with symbolic's evaluators; it leaves every question it cannot
// decide exactly (an overflow, an operator it does not know) to Z3, and
// a state it finds satisfying a check must be confirmed by Z3.
//
// Not shared: the encoding of conditions, expressions, transitions, range
// errors, terminal states and policy choice (smt/encode.go for ic3,
// smt/smtlib for the checker); the invariant's representation (the
// checker parses it back from the file's text); the policy facts (the
// checker re-proves each exclusion with its own method, facts.go).
//
// A query Z3 leaves undecided while the check's context is still running
// (a resource limit, an incomplete theory) makes the check an
// *Inconclusive: the certificate could not be checked, neither valid nor
// invalid. So does a policy fact whose re-check passes one of the
// checker's own bounds (MaxDifferStates, the states it enumerates, the
// leaf regions of an ensemble, MaxWeights) before a state refutes it:
// no state did, so it is no *Failure (tooLarge). A caller may bound each of the check's Z3 queries by Z3's
// deterministic resource limit (WithRlimit, which is smt.WithRlimit: vigil
// cert check --rlimit, and vigil verify --rlimit for the engines' own
// check of their invariants), read from that check's own context: it can only turn an answer into an
// *Inconclusive, never into a valid one, and it does not bound the exact
// evaluation above. There is no process-wide switch of the checker's
// solvers or of its evaluation outside this package's own tests.
//
// The explicit engines' certificates (package safety/cert) are checked by
// explicit enumeration instead, which shares no code with either encoder.
package cert
