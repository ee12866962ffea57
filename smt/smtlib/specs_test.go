package smtlib

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// TestSpecsExportsParse is issue 27's check for the models of specs/
// (TestBenchExportsParse in cmd/vigil covers the instances of bench/*.toml):
// the CHC export of every property of every model, over every label and
// under each of its rules and table policies, is read by the z3 binary
// without an error. Only the parse is checked (the scripts are batched
// without their check-sat), so the test takes a second, not Spacer's time.
func TestSpecsExportsParse(t *testing.T) {
	needZ3(t)
	files, err := filepath.Glob("../../specs/*.spec")
	if err != nil || len(files) == 0 {
		t.Fatalf("no model in specs/ (%v)", err)
	}
	var ps []problem
	for _, file := range files {
		m, diags := lang.Load(file, lang.Options{})
		if m == nil || diags.HasErrors() {
			t.Fatalf("%s:\n%s", file, diags.Render())
		}
		pols := []*symbolic.PolicyDecl{nil}
		for _, d := range m.Policies {
			if d.Kind.Symbolic() {
				pols = append(pols, d)
			}
		}
		for _, p := range m.Properties {
			for _, d := range pols {
				name := fmt.Sprintf("%s/%s/%s", filepath.Base(file), p.Name, specsPolicy(d))
				var b strings.Builder
				if err := WriteCHC(&b, Question{Model: m, Property: p, Policy: d}); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				text, ok := strings.CutSuffix(b.String(), "(check-sat)\n")
				if !ok {
					t.Fatalf("%s: the export does not end with (check-sat)", name)
				}
				ps = append(ps, problem{name, text})
			}
		}
	}
	if len(ps) < 2*len(files) {
		t.Errorf("only %d questions from %d models", len(ps), len(files))
	}
	got := runBatch(t, ps, 2)
	for _, p := range ps {
		lines, ok := got[p.name]
		if !ok || len(lines) > 0 {
			t.Errorf("%s: z3 on the CHC export printed %q (ran: %v)", p.name, lines, ok)
		}
	}
	t.Logf("%d CHC exports of %d models parse in z3", len(ps), len(files))
}

func specsPolicy(d *symbolic.PolicyDecl) string {
	if d == nil {
		return "all-labels"
	}
	return d.Name
}
