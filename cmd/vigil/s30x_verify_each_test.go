package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/verify"
)

// s30xEachSpec has a policy that is unsafe, one whose load the test
// stops (as --timeout stops a large file's load) and one whose ensemble
// does not fit its declaration (an input error of that policy alone).
const s30xEachSpec = `model m
var x : 0 .. 3 = 0
action a when x < 3 -> x' = x + 1
action b when x > 0 -> x' = x - 1
policy rules hasty {
    otherwise -> a
}
policy rules slow {
    when x < 2 -> a
    otherwise -> b
}
policy trees bad "bad.json" {
    inputs x, x, x, x
    outputs a, b
}
property p {
    unsafe x > 2
}
`

// A policy of vigil verify --policy LIST whose load --timeout stops is
// unknown in the summary (exit 4 for it alone, as a one-policy verify
// exits), not an input error: before, its row said error (exit_code 1),
// the command's worst code was then 1, and the stopped load turned the
// process's 1 into 4: an unsafe policy beside it exited 4 (unknown), so
// did another policy's input error, and --json's exit_code (1) was not
// the process's (4).
func TestS30xVerifyEachStoppedLoad(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	ens, err := os.ReadFile(filepath.Join("..", "..", "specs", "policies", "oneway_trees.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), ens, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, []byte(s30xEachSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	// vigil verify's --policy LIST path, with the load of policy slow
	// stopped by its --timeout (mf.preStop: the report of a stopped load)
	name := "s30x-verify-each"
	cli.Commands[name] = &cli.Command{Name: name, Run: func(e *cli.Env, args []string) int {
		fs, _ := e.Flags("verify")
		mf := addModelFlags(fs, "property", "policy")
		bf := addBDDFlags(fs)
		timeout := cli.TimeoutFlag(fs)
		jsonOut := fs.Bool("json", false, "json")
		rest, ok := cli.ParseFlags(fs, args)
		if !ok {
			return cli.ExitUsage
		}
		names, err := policyList(mf, rest[0])
		if err != nil || names == nil {
			t.Errorf("policyList: %v, %v", names, err)
			return cli.ExitBug
		}
		one := func(out verifyOut) int {
			if *mf.pol == "slow" {
				mf.preStop = context.DeadlineExceeded
			}
			return verifyPolicy(e, context.Background(), out, verifySetup{file: rest[0], mf: mf,
				q: verify.Question{Engine: "bfs", Limits: verify.Limits{Timeout: *timeout}}, bf: bf})
		}
		return verifyEach(e, context.Background(), mf, names, verifyOut{json: *jsonOut}, one)
	}}
	defer delete(cli.Commands, name)
	for _, c := range []struct {
		policies string
		want     int
		rows     map[string]string
	}{
		{"hasty,slow", cli.ExitUnsafe, map[string]string{"hasty": "unsafe", "slow": "unknown"}},
		{"slow,bad", cli.ExitError, map[string]string{"slow": "unknown", "bad": "error"}},
		{"sl*", cli.ExitUnknown, map[string]string{"slow": "unknown"}},
	} {
		for _, asJSON := range []bool{false, true} {
			args := []string{name, spec, "--property", "p", "--policy", c.policies, "--timeout", "1m"}
			if asJSON {
				args = append(args, "--json")
			}
			var stdout, stderr bytes.Buffer
			code := cli.Main(args, &cli.Env{Stdout: &stdout, Stderr: &stderr})
			if code != c.want {
				t.Errorf("--policy %s (json %v): exit %d, want %d\nstdout:\n%s\nstderr:\n%s", c.policies, asJSON, code, c.want, &stdout, &stderr)
			}
			if !strings.Contains(stderr.String(), "vigil verify: --timeout 1m0s ran out while loading") {
				t.Errorf("--policy %s: stderr %q; want the stopped load's message", c.policies, &stderr)
			}
			if !asJSON {
				for p, v := range c.rows {
					if !strings.Contains(stdout.String(), "  "+p+" ") || !strings.Contains(stdout.String(), v) {
						t.Errorf("--policy %s: summary lacks %s %s:\n%s", c.policies, p, v, &stdout)
					}
				}
				continue
			}
			var sum struct {
				ExitCode int `json:"exit_code"`
				Policies []struct {
					Policy   string `json:"policy"`
					ExitCode int    `json:"exit_code"`
					Verdict  string `json:"verdict"`
				} `json:"policies"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
				t.Fatalf("--policy %s --json: %v\n%s", c.policies, err, &stdout)
			}
			if sum.ExitCode != code {
				t.Errorf("--policy %s --json: exit_code %d, the process's %d", c.policies, sum.ExitCode, code)
			}
			for _, r := range sum.Policies {
				if r.Verdict != c.rows[r.Policy] {
					t.Errorf("--policy %s --json: %s is %s (exit_code %d), want %s", c.policies, r.Policy, r.Verdict, r.ExitCode, c.rows[r.Policy])
				}
			}
		}
	}
}
