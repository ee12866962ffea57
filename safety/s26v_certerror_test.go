package safety_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
)

// TestS26vCheckCertError: a certificate that cannot be written (its path
// a directory) keeps the decided verdicts: Check returns the report with
// a *CertError naming the path, and no state claims the certificate.
func TestS26vCheckCertError(t *testing.T) {
	m := testutil.LoadSource(t, "line.spec", `model line
var x : 0 .. 9 = 0
action up when x < 9 -> x' = x + 1
property p { start x == 0 unsafe x > 10 }
`)
	g, dec, err := testutil.Explicit(m, m.Property(""), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := safety.New("tarjan", safety.NewSpace(g, dec), safety.Inf, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rep, err := safety.Check(context.Background(), d, safety.Inf, safety.CheckOptions{Cert: dir, Source: safety.Source{Spec: "line.spec", Property: "p"}})
	var ce *safety.CertError
	if !errors.As(err, &ce) || ce.Path != dir || rep == nil {
		t.Fatalf("Check: %v, report %v; want a *CertError and the report", err, rep)
	}
	if rep.Verdict != "safe" || rep.Safe != 1 || rep.CertNotWritten != "" || rep.States[0].Cert != "" {
		t.Fatalf("report %+v", rep)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("the directory is gone: %v", err)
	}
}
