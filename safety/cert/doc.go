// Package cert checks the certificates that vigil's safety deciders attach to
// their answers, independently of the deciders: it shares no code with
// package safety or with the explicit-state engine (symbolic/explicit), and
// computes applicability and successors itself from the symbolic IR. A
// certificate that passes Check proves its claim without trusting the
// decider that wrote it (paper 000, Definitions 1-5; gophersat checks its
// UNSAT answers the same way).
//
// # Semantics
//
// A state is unsafe when the property's unsafe condition holds, else a goal
// when its goal condition (if any) holds; both are terminal. A non-terminal
// state in which no label is applicable is a deadlock: terminal and safe.
// Taking label a in s may lead to every outcome of every command of a whose
// guard holds in s (assignments are simultaneous; unassigned variables keep
// their values). An outcome that leaves a variable's range is a modelling
// error, and a certificate that meets one is invalid.
//
// The tested policy π chooses π(s) among the applicable labels, or is stuck.
// For a radius r the deviation cost is C(s,a) = 0 when r is infinite and
// otherwise C(s,a) = 1 if π(s) ≠ a (a stuck π counts as a deviation for
// every label), else 0.
//
// # File format
//
// A certificate is one JSON object:
//
//	{
//	  "format": "vigil-safety-certificate",
//	  "version": 1,
//	  "kind": "safe",                  // or "unsafe"
//	  "spec": "../specs/flappy.spec",  // model file (.spec or .jani), relative to the certificate's directory
//	  "cert_dir": "/home/u/certs",     // the directory the certificate was written in; may be absent
//	  "defines": {"W": "24"},          // -D overrides; may be absent
//	  "plaja": {"start": "", "unsafe": "", "policy_file": ""},  // PlaJA flags; may be absent
//	  "model": "flappy",               // model name
//	  "property": "no_crash",          // property name
//	  "policy": "steer",               // tested policy ("" only with radius "inf")
//	  "argmax": "all",                 // --argmax the policy was read with; may be absent
//	  "policy_sha256": "9f2c...",      // SHA-256 of the policy's files (symbolic.PolicyFilesHash); may be absent
//	  "model_sha256": "41d0...",       // the question's hash (ic3/cert.ModelHash, Certificate.HashPolicy); absent in older certificates
//	  "radius": "inf",                 // or a non-negative JSON integer, e.g. 2
//	  "vars": ["x", "y"],              // the model's variable names in VarID order
//	  "state": [0, 5],                 // the state the certificate is about
//	  "entries": [ ... ]
//	}
//
// Values are integers in vars order (Booleans 0/1). Unknown fields are
// rejected, so that a misspelt field is not silently ignored. With radius
// "inf" budgets are ignored (write 0).
//
// In a "safe" certificate each entry is {"s": [...], "b": B, "label": "a"}:
// the pair (s, B) is safe by taking a in s. It is valid when the root state
// is a goal or a deadlock, or is not unsafe and has an entry with B <= r;
// and for every entry: s is not unsafe; unless s is a goal or a deadlock, a
// is applicable in s, B' = B - C(s,a) >= 0, and every successor of a in s is
// not unsafe and is a goal, a deadlock, or has an entry with budget <= B'.
// Cycles are allowed: a safe certificate is a closed set of pairs.
//
// In an "unsafe" certificate each entry is {"s": [...], "b": B, "rank": k}:
// (s, B) is not B-safe (for infinite r: not safe), by rank k. It is valid
// when the root state has an entry with B >= min(r, n) (any entry for
// infinite r), n the model's number of states (BudgetCap: a state that is
// r-safe for a finite r is n-safe),
// and for every entry: rank 0 requires s to be unsafe; an unsafe s may have
// any rank; otherwise s is neither a goal nor a deadlock and for every
// applicable label a with B' = B - C(s,a) >= 0 some successor of a in s is
// unsafe or has an entry with budget >= B' and rank < k. A label with
// B' < 0 is unavailable, so a pair whose every label is unavailable is not
// safe within its budget.
//
// In an "invariant" certificate (vigil verify --engine bfs --cert: the
// states bfs reached) "state" is absent, the radius is "inf", "policy" is
// the policy followed ("" for every label), and each entry is a state
// alone, {"s": [...]}: the set R of the entries. It is valid when every
// start state of the property is in R (the checker enumerates the start
// states itself: depth-first over the variables' ranges narrowed by the
// bounds the start condition implies, computed in its own exact
// arithmetic, each conjunct of the start condition tested once its
// variables are assigned; past MaxStartWork partial states it gives up,
// an error for which IsTooMuchStartWork holds: no verdict), no state
// of R is unsafe, and every successor of a state of R that is not a goal,
// a deadlock or a state where the policy chooses nothing, under the
// policy's choice (every applicable label without a policy), is in R and
// within range. Then R holds every reachable state, so none is unsafe.
//
// The paths (spec and the PlaJA files) are relative to the certificate's
// directory, so a certificate checks from any current directory and when
// moved together with its model; cert_dir, the directory it was written
// in, is the fallback when it was moved alone. (Certificates without
// cert_dir record paths as given on the command line.) A file may be
// gzip-compressed: Read recognises gzip's magic bytes.
//
// The certificate proves its claim for the model as loaded from spec with
// exactly its defines: vigil cert check refuses -D values that differ from
// them and prints the ones it used. When policy_sha256 is present, Check
// refuses a tested policy whose files hash otherwise (a retrained network
// or ensemble, an edited table). Names are printed with Go's %+q, which
// escapes every character outside ASCII, so a look-alike name cannot read
// like the real one.
//
// Read rejects malformed files (unknown format or version, negative budgets
// or radius, budgets above a finite radius, missing labels or ranks, a
// field or a member of defines or plaja named twice, a value longer than
// 64 MiB, header fields longer than 64 MiB together, and entries and
// states that would take more than MaxHeld bytes to hold); Check
// rejects certificates that do not fit the model (variable names and order,
// state lengths and ranges, unknown labels, model, property and policy
// names) and then checks the conditions above. Duplicate entries are allowed.
// Every rejection of an entry names it as entries[i] with its state printed
// as `x=1 y=2`.
package cert
