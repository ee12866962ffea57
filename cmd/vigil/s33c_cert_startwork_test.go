package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/safety/cert"
)

// TestS33cCertStartWork: vigil cert check of an invariant certificate
// whose start condition leaves more partial start states than the
// checker enumerates (cert.MaxStartWork, lowered here to 1000) says the
// certificate could not be checked (exit 4, --json verdict unknown,
// reason inconclusive), never invalid: it called a valid certificate
// invalid after 283 s (s33c). A start condition the checker narrows
// (3 <= x <= 4 over 2^40 values) is checked at once and valid, under the
// same bound; a certificate missing a start state is still invalid.
func TestS33cCertStartWork(t *testing.T) {
	old := cert.MaxStartWork
	cert.MaxStartWork = 1000
	defer func() { cert.MaxStartWork = old }()
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := cli.Main(args, &cli.Env{Stdout: &stdout, Stderr: &stderr})
		return code, stdout.String(), stderr.String()
	}
	write := func(name, start string) (spec, certFile string) {
		spec = filepath.Join(dir, name+".spec")
		src := "model w\nvar x : 0 .. 1099511627775 = 0\naction step when x < 10 -> x' = x + 1\nproperty q { start " + start + " unsafe x == 20 }\n"
		if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return spec, filepath.Join(dir, name+".json")
	}

	// Narrowed: valid at once.
	spec, c := write("narrow", "3 <= x && x <= 4")
	if code, out, errs := run("verify", spec, "--policy", "none", "--engine", "bfs", "--cert", c); code != cli.ExitOK {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run("cert", "check", c); code != cli.ExitOK || !strings.HasPrefix(out, "valid: ") || !strings.Contains(out, "holding every start state (2)") {
		t.Fatalf("cert check of the narrowed start: exit %d, want 0\n%s%s", code, out, errs)
	}

	// Not narrowed: abs(x - 1000) >= 999 implies only a disjunction
	// (x <= 1 or x >= 1999), so the checker walks x's 2001 values, past
	// the bound of 1000. Without the bound the certificate is valid.
	spec, c = write("wide", "abs(x - 1000) >= 999")
	if err := os.WriteFile(spec, bytes.Replace(s33cRead(t, spec), []byte("0 .. 1099511627775"), []byte("0 .. 2000"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := run("verify", spec, "--policy", "none", "--engine", "bfs", "--cert", c); code != cli.ExitOK || !strings.Contains(out, "from its 4 start states") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := run("cert", "check", c)
	if code != cli.ExitUnknown || !strings.HasPrefix(out, "unknown: the certificate could not be checked: the start condition of property q leaves more than 1000 partial states to enumerate (ranges narrowed by it to x in 0..2000)") || strings.Contains(out, "invalid") {
		t.Errorf("cert check past the bound: exit %d, want 4\nstdout: %s\nstderr: %s", code, out, errs)
	}
	code, out, _ = run("cert", "check", "--json", c)
	var r struct {
		Verdict string `json:"verdict"`
		Valid   bool   `json:"valid"`
		Reason  string `json:"reason"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != cli.ExitUnknown || r.Verdict != "unknown" || r.Valid || r.Reason != "inconclusive" || !strings.Contains(r.Error, "more than 1000 partial states") {
		t.Errorf("cert check --json past the bound: exit %d, %+v (%v)\n%s", code, r, err, out)
	}
	cert.MaxStartWork = old
	if code, out, errs := run("cert", "check", c); code != cli.ExitOK || !strings.Contains(out, "holding every start state (4)") {
		t.Errorf("cert check under the default bound: exit %d, want 0\n%s%s", code, out, errs)
	}
	cert.MaxStartWork = 1000

	// A certificate without the start state x=0 is refuted before the
	// bound is reached: invalid, exit 1.
	wrong := filepath.Join(dir, "wrong.json")
	text := s33cRead(t, c)
	if !bytes.Contains(text, []byte("{\"s\":[0]},\n")) {
		t.Fatalf("%s has no entry x=0:\n%s", c, text)
	}
	if err := os.WriteFile(wrong, bytes.Replace(text, []byte("{\"s\":[0]},\n"), nil, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := run("cert", "check", wrong); code != cli.ExitError || !strings.HasPrefix(out, "invalid: the start state x=0 is not in the invariant") {
		t.Errorf("cert check of a certificate missing a start state: exit %d, want 1\n%s%s", code, out, errs)
	}
}

func s33cRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
