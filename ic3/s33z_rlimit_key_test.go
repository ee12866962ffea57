package ic3_test

import (
	"context"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/smt"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestS33zVerifyRlimitCheckReason: under vigil verify --rlimit
// (smt.WithRlimit) the engine's own check of the invariant it found is
// bounded by the same limit, the one key of smt and ic3/cert, and a
// condition that runs out of it says so in the checker's words, the
// same as under vigil cert check --rlimit: "the resource limit was
// reached (--rlimit N per Z3 query; ...)". Before, the checker read a
// key of its own, which verify did not set; the limit reached it through
// smt only, and the reason was smt's bare "resource limit (rlimit N)".
// Here ppa's queries fit within 1,000 and the checker's init condition
// does not (Z3's one-shot solver, which preprocesses, costs more);
// without a limit the answer is safe. ic3 at 1,000 stops in its own
// first query (smt's reason); at 3,000 its invariant checks.
func TestS33zVerifyRlimitCheckReason(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte("model m\nvar x : 0 .. 130 = 0\nvar y : 0 .. 130 = 0\naction a when x < 130 -> x' = x + 1\naction b when y < x -> y' = y + 1\nproperty p { unsafe y > x }\n"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	decide := func(engine string, n uint32) *verify.Verdict {
		t.Helper()
		q := &verify.Question{Model: m, Property: m.Properties[0], Engine: engine, Certificate: true}
		ctx := context.Background()
		if n > 0 {
			ctx = smt.WithRlimit(ctx, n)
		}
		v, err := verify.Decide(ctx, q)
		if err != nil {
			t.Fatalf("%s, rlimit %d: %v", engine, n, err)
		}
		return v
	}
	v := decide("ppa", 1000)
	if v.Answer != explicit.Unknown || v.Invariant != nil || !strings.HasPrefix(v.Reason, "the certificate's check was inconclusive: Z3 answered unknown on the ") ||
		!strings.HasSuffix(v.Reason, ": the resource limit was reached (--rlimit 1000 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)") {
		t.Errorf("ppa under rlimit 1000: %v, reason %q; want unknown, the check inconclusive by the limit", v.Answer, v.Reason)
	}
	if v := decide("ic3", 1000); v.Answer != explicit.Unknown || v.Reason != "resource limit (rlimit 1000)" {
		t.Errorf("ic3 under rlimit 1000: %v, reason %q; want unknown by the engine's own limit", v.Answer, v.Reason)
	}
	for _, c := range []struct {
		engine string
		n      uint32
	}{{"ppa", 0}, {"ic3", 0}, {"ic3", 3000}} {
		if v := decide(c.engine, c.n); v.Answer != explicit.Safe {
			t.Errorf("%s, rlimit %d: %v (%s), want safe", c.engine, c.n, v.Answer, v.Reason)
		}
	}
}
