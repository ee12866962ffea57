package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/lang"
	"vigil/symbolic"
)

// TestExportJANIRoundTrip: vigil export --jani, then vigil explore on the
// .jani file, reaches as many states (start states, transitions,
// deadlocks, depth) as vigil explore on the .spec, for every model in
// specs/ and bench/polic3: every property, with every rules and table
// policy inlined and with every label (--all-labels). Learned policies
// are refused with a message naming the policy. Counts are BDD counts
// (exact at any size) for models beyond 10^10 states in the product of
// their ranges and BFS counts for the
// others, the same engine on both sides.
func TestExportJANIRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every model twice")
	}
	var files []string
	for _, g := range []string{"../../specs/*.spec", "../../bench/polic3/*.spec"} {
		fs, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	dir := t.TempDir()
	runs := 0
	for _, file := range files {
		m, diags := lang.Load(file, lang.Options{})
		if err := diags.Err(); err != nil || m == nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(m.Properties) == 0 {
			continue
		}
		size, _ := m.StateSpaceSize()
		engine := "bfs"
		if size > 1e10 {
			engine = "bdd"
		}
		for _, p := range m.Properties {
			janiProp := p.Name
			if p.Goal == nil {
				janiProp += "_avoid"
			}
			pols := []*symbolic.PolicyDecl{nil}
			for _, d := range m.Policies {
				if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
					pols = append(pols, d)
				}
			}
			for _, d := range pols {
				name := filepath.Base(filepath.Dir(file)) + "/" + filepath.Base(file) + "/" + p.Name
				exp := []string{"export", "--jani", file, "--property", p.Name}
				explore := []string{"explore", file, "--property", p.Name, "--engine", engine, "--json"}
				if d == nil {
					name += "/all-labels"
					exp = append(exp, "--all-labels")
				} else {
					name += "/" + d.Name
					exp = append(exp, "--policy", d.Name)
					explore = append(explore, "--policy", d.Name)
				}
				out := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".jani")
				t.Run(name, func(t *testing.T) {
					if code, _, stderr := vigilRun(append(exp, "-o", out)...); code != 0 {
						t.Fatalf("vigil %s: exit %d\n%s", strings.Join(exp, " "), code, stderr)
					}
					want := exploreCounts(t, explore)
					got := exploreCounts(t, []string{"explore", out, "--property", janiProp, "--engine", engine, "--json"})
					if got != want {
						t.Errorf("explore on the JANI export: %s\nexplore on the spec:        %s", got, want)
					}
				})
				runs++
			}
		}
		// A learned policy is refused, naming it.
		for _, d := range m.Policies {
			if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
				continue
			}
			code, _, stderr := vigilRun("export", "--jani", file, "--property", m.Properties[0].Name, "--policy", d.Name)
			if code != cli.ExitError || !strings.Contains(stderr, "policy "+d.Name+" is a") || !strings.Contains(stderr, "--all-labels") {
				t.Errorf("%s: export --jani --policy %s: exit %d, %q; want a refusal naming the policy and --all-labels", file, d.Name, code, stderr)
			}
			break
		}
	}
	if runs < 20 {
		t.Errorf("only %d round trips", runs)
	}
}

func vigilRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Main(args, &cli.Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// exploreCounts runs vigil explore --json and returns its counts as text.
func exploreCounts(t *testing.T, args []string) string {
	t.Helper()
	code, out, stderr := vigilRun(args...)
	if code != 0 {
		t.Fatalf("vigil %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("vigil %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var b strings.Builder
	for _, k := range []string{"states", "start_states", "transitions", "depth", "unsafe", "goal"} {
		if v, ok := r[k]; ok {
			b.WriteString(k + "=" + strings.TrimSpace(jsonText(v)) + " ")
		}
	}
	// A state where the policy chooses nothing (stuck) is a deadlock of
	// the export, whose guards hold the policy.
	dead, _ := r["deadlocks"].(float64)
	stuck, _ := r["stuck"].(float64)
	fmt.Fprintf(&b, "deadlocks+stuck=%.0f", dead+stuck)
	return b.String()
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
