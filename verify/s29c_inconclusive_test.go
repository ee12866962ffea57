package verify

import (
	"context"
	"strings"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// TestS29cInconclusiveCheck: an invariant whose check Z3 answers unknown
// on (a resource limit of 1000 per query, invcert.WithRlimit, which is
// smt.WithRlimit since session 33, so the engine runs under it too; ppa
// gets through its own queries at 1000, ic3 does not at any limit its
// check fails under, so only ppa is asked) makes the answer Unknown with the reason naming the
// condition and the limit: never safe, never an internal error. Without
// the limit it is safe. The ranges are too wide (131 x 131 states) for
// the checker's exact evaluation of small models, so Z3 decides.
func TestS29cInconclusiveCheck(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte("model m\nvar x : 0 .. 130 = 0\nvar y : 0 .. 130 = 0\naction a when x < 130 -> x' = x + 1\naction b when y < x -> y' = y + 1\nproperty p { unsafe y > x }\n"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	for _, engine := range []string{"ppa"} {
		q := &Question{Model: m, Property: m.Properties[0], Engine: engine, Certificate: true}
		v, err := Decide(invcert.WithRlimit(context.Background(), 1000), q)
		if err != nil {
			t.Fatalf("%s under rlimit 1000: %v, want an unknown answer", engine, err)
		}
		if v.Answer != explicit.Unknown || v.Invariant != nil || !strings.HasPrefix(v.Reason, "the certificate's check was inconclusive: Z3 answered unknown on the ") || !strings.HasSuffix(v.Reason, ": the resource limit was reached (--rlimit 1000 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)") {
			t.Errorf("%s under rlimit 1000: answer %v, reason %q; want unknown, inconclusive", engine, v.Answer, v.Reason)
		}
		v, err = Decide(context.Background(), q)
		if err != nil || v.Answer != explicit.Safe {
			t.Errorf("%s without the limit: %v, %v; want safe", engine, v, err)
		}
	}
}
