package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"vigil/internal/cli"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestS29vPolicyAllInternalError: vigil verify --policy all where one
// policy's counterexample fails its check (corruptAnswer drops the last
// step of every counterexample: only the unsafe policy has one) exits 70,
// the worst, and still prints the other policies' verdicts and the
// summary, in text and in --json (the failing policy's entry carries the
// internal error and exit code 70).
func TestS29vPolicyAllInternalError(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "m.spec")
	src := `model m
var x : 0 .. 20 = 0
var y : 0 .. 100 = 0
action up when x < 20 -> x' = x + 1
action stay -> x' = x
action tick when y < 100 -> y' = y + 1
policy rules safe1 {
    when true -> stay
}
policy rules unsafe1 {
    when true -> up
}
policy rules dawdle {
    when true -> tick
}
property p { unsafe x == 5 }
`
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	corruptAnswer = &verify.Tamper{Trace: func(tr []explicit.Step) []explicit.Step { return tr[:len(tr)-1] }}
	defer func() { corruptAnswer = nil }()
	for _, engine := range []string{"bfs", "auto"} {
		var out, errb bytes.Buffer
		code := cli.Main([]string{"verify", spec, "--policy", "all", "--engine", engine, "--max-states", "8"}, &cli.Env{Stdout: &out, Stderr: &errb})
		if code != cli.ExitBug {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", engine, code, cli.ExitBug, out.String(), errb.String())
		}
		for _, re := range []string{`(?m)^  safe1 +safe `, `(?m)^  dawdle +(unknown|safe) `, `(?m)^  unsafe1 +error`, `(?m)^summary of 3 policies: `} {
			if !regexp.MustCompile(re).MatchString(out.String()) {
				t.Errorf("%s: stdout does not match %s:\n%s", engine, re, out.String())
			}
		}
		if !bytes.Contains(errb.Bytes(), []byte("internal error: the counterexample does not replay")) && !bytes.Contains(errb.Bytes(), []byte("does not replay")) {
			t.Errorf("%s: stderr does not name the failed check: %s", engine, errb.String())
		}
		out.Reset()
		errb.Reset()
		code = cli.Main([]string{"verify", spec, "--policy", "all", "--engine", engine, "--max-states", "8", "--json"}, &cli.Env{Stdout: &out, Stderr: &errb})
		var obj struct {
			ExitCode int `json:"exit_code"`
			Policies []struct {
				Policy   string `json:"policy"`
				ExitCode int    `json:"exit_code"`
				Verdict  string `json:"verdict"`
			} `json:"policies"`
		}
		if err := json.Unmarshal(out.Bytes(), &obj); err != nil {
			t.Fatalf("%s --json: %v\n%s", engine, err, out.String())
		}
		if code != cli.ExitBug || obj.ExitCode != cli.ExitBug || len(obj.Policies) != 3 {
			t.Errorf("%s --json: exit %d, object %+v; want 70 with 3 policies", engine, code, obj)
		}
		for _, p := range obj.Policies {
			if p.Policy == "unsafe1" && p.ExitCode != cli.ExitBug || p.Policy == "safe1" && p.Verdict != "safe" {
				t.Errorf("%s --json: %+v", engine, p)
			}
		}
	}
}
