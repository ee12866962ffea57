package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/internal/cli"
	"vigil/lang"
)

// TestS29cCertInconclusive: when Z3 answers unknown on a certificate's
// condition without any context ending (forced here by vigil cert check
// --rlimit 1, a resource limit of 1 on each of the checker's Z3 queries,
// on a model too large for the checker's exact evaluation), vigil cert
// check says the certificate could not be checked (exit 4, --json
// verdict unknown, reason inconclusive, the message naming the limit),
// never valid and never invalid. Without the limit the same certificate
// is valid, and a wrong one is still invalid. (vigil verify's answer when
// its own certificate's check is inconclusive, unknown and never safe, is
// verify's TestS29cInconclusiveCheck: vigil verify has no such limit.)
func TestS29cCertInconclusive(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	src := "model m\nvar x : 0 .. 20000 = 0\naction a when x < 20000 -> x' = x + 1\nproperty never { unsafe x == 20000 && x == 0 }\nproperty two { unsafe x == 2 }\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := cli.Main(args, &cli.Env{Stdout: &stdout, Stderr: &stderr})
		return code, stdout.String(), stderr.String()
	}
	certFile := filepath.Join(dir, "inv.smt2")
	if code, out, errs := run("verify", spec, "--engine", "ic3", "--property", "never", "--cert", certFile); code != cli.ExitOK {
		t.Fatalf("verify without the limit: exit %d\n%s%s", code, out, errs)
	}
	// A wrong certificate: the one for "never" with its property renamed
	// to "two" and the hash of that question (x <= 20000 holds x = 2).
	text, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	wrong := filepath.Join(dir, "wrong.smt2")
	c, err := invcert.Read(certFile)
	if err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(spec, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	h2, err := invcert.ModelHash(m, "two", "")
	if err != nil {
		t.Fatal(err)
	}
	w := strings.ReplaceAll(string(text), c.Hash, h2)
	w = strings.Replace(w, "; property: never\n", "; property: two\n", 1)
	if err := os.WriteFile(wrong, []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, f := range []string{certFile, wrong} {
		code, out, errs := run("cert", "check", "--rlimit", "1", f)
		if code != cli.ExitUnknown || !strings.HasPrefix(out, "unknown: the certificate could not be checked: Z3 answered unknown on the init condition: the resource limit was reached (--rlimit 1 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)\n") || strings.Contains(out, "invalid") {
			t.Errorf("cert check %s under rlimit 1: exit %d, want 4\nstdout: %s\nstderr: %s", f, code, out, errs)
		}
	}
	code, out, errs := run("cert", "check", "--json", "--rlimit", "1", certFile)
	var r struct {
		Verdict string `json:"verdict"`
		Valid   bool   `json:"valid"`
		Reason  string `json:"reason"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != cli.ExitUnknown || r.Verdict != "unknown" || r.Valid || r.Reason != "inconclusive" || !strings.Contains(r.Error, "Z3 answered unknown") {
		t.Errorf("cert check --json under rlimit 1: exit %d, %+v (%v)\n%s%s", code, r, err, out, errs)
	}
	if code, out, errs := run("cert", "check", certFile); code != cli.ExitOK || !strings.HasPrefix(out, "valid: ") {
		t.Errorf("cert check without the limit: exit %d, want 0 valid\n%s%s", code, out, errs)
	}
	if code, out, errs := run("cert", "check", wrong); code != cli.ExitError || !strings.HasPrefix(out, "invalid: ") {
		t.Errorf("cert check of the wrong certificate: exit %d, want 1 invalid\n%s%s", code, out, errs)
	}
	if code, out, errs := run("verify", spec, "--engine", "ic3", "--property", "never"); code != cli.ExitOK || !strings.HasPrefix(out, "safe") {
		t.Errorf("verify without the limit: exit %d\n%s%s", code, out, errs)
	}
}
