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
	"vigil/lang"
	"vigil/verify"
)

// TestCheckSMTSpecs runs --bounds and --deadlocks on every model in specs/.
func TestCheckSMTSpecs(t *testing.T) {
	files, _ := filepath.Glob("../../specs/*.spec")
	if len(files) == 0 {
		t.Skip("no specs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, diags := lang.Load(f, lang.Options{})
			if m == nil {
				t.Fatalf("load: %s", diags.Render())
			}
			fb, nb, err := verify.BoundsFindings(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			fd, nd, err := verify.DeadlockFindings(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			for _, jsonOut := range []bool{false, true} {
				var out bytes.Buffer
				e := &cli.Env{Stdout: &out, Stderr: &out}
				r := &checkResult{}
				smtResult(e, f, "bounds", fb, nil, jsonOut, r)
				smtResult(e, f, "deadlocks", fd, nil, jsonOut, r)
				if jsonOut {
					b, err := json.Marshal(r.Extra)
					if err != nil {
						t.Fatal(err)
					}
					var back map[string][]map[string]any
					if err := json.Unmarshal(b, &back); err != nil {
						t.Fatalf("JSON output: %v", err)
					}
				} else {
					t.Logf("%d range errors, %d properties with deadlocks\n%s", nb, nd, out.String())
				}
			}
		})
	}
}

const brokenSpec = `model broken
var x : 0 .. 3 = 0
var b : bool = false
action up -> x' = x + 1
action flip when x == 2 -> b' = !b | x' = x / 2 - 2
property p {
    unsafe b && x == 3
}
`

func TestCheckSMTBroken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "broken.spec")
	if err := os.WriteFile(path, []byte(brokenSpec), 0o666); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if m == nil {
		t.Fatalf("load: %s", diags.Render())
	}
	var out bytes.Buffer
	e := &cli.Env{Stdout: &out, Stderr: &out}
	fs, n, err := verify.BoundsFindings(context.Background(), m)
	smtResult(e, path, "bounds", fs, err, false, &checkResult{})
	if err != nil || n != 2 {
		t.Fatalf("checkBounds = %d, %v, want 2 violations\n%s", n, err, out.String())
	}
	for _, want := range []string{"action up, outcome 1 sets x' = 4, outside 0..3, in state x=3 b=false (property p)", "action flip, outcome 2 sets x' = -1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	t.Log(out.String())
}
