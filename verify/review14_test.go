package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/ppa"
	"vigil/symbolic/explicit"
)

// Review (session 14): ppa's safe answer is checked as a box certificate
// before it is printed (SOUNDNESS.md). When the timeout ended that check
// (or the conversion to boxes), ppa still said safe, exit 0, and with
// --cert FILE wrote no certificate: an unchecked answer given as a
// verdict. Like ic3's unchecked invariant, it is now unknown.
// (The model has 40,000 states, more than the checker decides by
// evaluation, so that its checks go to Z3, which the deadline stops.)
func TestReview14PPAUncheckedIsUnknown(t *testing.T) {
	src := "model m\nvar x : 0 .. 199 = 0\nvar y : 0 .. 199 = 0\n" +
		"action a when x < 199 -> x' = x + 1\naction b when y > 0 -> y' = y - 1\n" +
		"property p { start y == 0 unsafe y > 0 }\n"
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	for _, cert := range []bool{false, true} {
		q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "ppa", Certificate: cert})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ppa.Check(context.Background(), q.Model, q.Property, q.Policy, ppa.Options{})
		if err != nil || res.Verdict != explicit.Safe {
			t.Fatalf("ppa.Check = %+v, %v; want safe", res, err)
		}
		// The whole certification, uninterrupted: safe, checked.
		v := &Verdict{Answer: res.Verdict, Engine: "ppa", PPA: &PPAResult{Result: res}}
		if err := q.certifyPPA(context.Background(), v); err != nil || v.Answer != explicit.Safe || v.Invariant == nil {
			t.Fatalf("cert %v: certifyPPA = %v, answer %v, invariant %v; want a checked safe answer", cert, err, v.Answer, v.Invariant != nil)
		}
		// The deadline passed before the certificate was made and checked.
		ctx, cancel := context.WithTimeout(context.Background(), 0)
		<-ctx.Done()
		v = &Verdict{Answer: res.Verdict, Engine: "ppa", PPA: &PPAResult{Result: res}}
		err = q.certifyPPA(ctx, v)
		cancel()
		if err != nil || v.Answer != explicit.Unknown || v.Invariant != nil || v.Reason == "" {
			t.Errorf("cert %v: certifyPPA after the deadline = %v, answer %v, reason %q; want unknown with a reason", cert, err, v.Answer, v.Reason)
		}
	}
}

// Review (session 14): a table that lists one state twice takes its last
// row in every engine; ic3's encoder took either row, answered unsafe
// through the first and failed its own replay (an internal error) where
// bfs said safe.
func TestReview14TableLastRow(t *testing.T) {
	dir := t.TempDir()
	spec := "model t\nvar x : -2 .. 2 = 0\n" +
		"action inc when x < 2 -> x' = x + 1\naction dec when x > -2 -> x' = x - 1\n" +
		"policy table tb \"t.csv\" { outputs inc, dec }\nproperty p { unsafe x == -1 }\n"
	for _, c := range []struct {
		csv  string
		want explicit.Verdict
	}{
		{"x,label\n0,dec\n0,inc\n", explicit.Safe},
		{"x,label\n0,inc\n0,dec\n", explicit.UnsafeVerdict},
	} {
		if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(c.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "t.spec"), []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.Load(filepath.Join(dir, "t.spec"), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		for _, engine := range []string{"bfs", "ic3", "ic3-nog", "bdd", "ppa"} {
			v, err := Decide(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0], Engine: engine})
			if err != nil || v.Answer != c.want {
				t.Errorf("%q, %s: %v, %v; want %v", c.csv, engine, v, err, c.want)
			}
		}
	}
}
