package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/internal/fuzzseed"
	"vigil/symbolic"
)

// FuzzDecode checks that the importer never panics and that every model it
// returns is well formed: guards and assignments evaluate on a state inside
// the ranges, and every IR reference is in bounds. Seeds: the fixtures and
// the error cases; crashers found by `go test -fuzz` stay in
// testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.jani")
	for _, n := range names {
		data := readTestdata(f, filepath.Base(n))
		f.Add(data)
		for _, v := range fuzzseed.Variants(data) {
			f.Add(v)
		}
	}
	f.Add(fuzzseed.Deep("[", "1", "]"))
	f.Add(fuzzseed.Deep(`{"op": "-", "exp": `, "1", "}"))
	if ar, err := txtar.ParseFile("testdata/errors.txtar"); err == nil {
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".jani") {
				f.Add(file.Data)
			}
		}
	}
	// The corpus models, when present, seed structure the mutator would
	// hardly find (they are read, not copied into the repository).
	if qvbs, err := filepath.Glob(filepath.Join(corpusDir, "qvbs", "*.jani")); err == nil {
		for _, q := range qvbs {
			if data, err := os.ReadFile(q); err == nil && len(data) < 50_000 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _, err := Decode("fuzz.jani", data, map[string]string{"N": "2"})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "jani: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		checkModel(t, m)
	})
}

// checkModel evaluates every guard and assignment on the state of lower
// bounds and checks the IR's references.
func checkModel(t *testing.T, m *symbolic.Model) {
	s := make(symbolic.State, len(m.Vars))
	for i, v := range m.Vars {
		if v.Lo > v.Hi {
			t.Fatalf("var %s: empty range", v.Name)
		}
		s[i] = v.Lo
	}
	for _, c := range m.Commands {
		if c.Label < 0 || int(c.Label) >= len(m.Labels) {
			t.Fatalf("command label %d out of range", c.Label)
		}
		checkCond(t, m, c.Guard)
		c.Guard.Holds(s)
		for _, o := range c.Outcomes {
			for i, a := range o.Assigns {
				if a.Var < 0 || int(a.Var) >= len(m.Vars) || (i > 0 && o.Assigns[i-1].Var >= a.Var) {
					t.Fatalf("bad assignment order or variable %d", a.Var)
				}
				checkExpr(t, m, a.Value)
				a.Value.Eval(s)
			}
		}
	}
}

func checkExpr(t *testing.T, m *symbolic.Model, e *symbolic.Expr) {
	switch e.Op {
	case symbolic.OpVar:
		if e.Var < 0 || int(e.Var) >= len(m.Vars) {
			t.Fatalf("variable %d out of range", e.Var)
		}
	case symbolic.OpDiv:
		if e.K <= 0 {
			t.Fatalf("division by %d", e.K)
		}
	case symbolic.OpIte, symbolic.OpBool:
		checkCond(t, m, e.Cond)
	}
	for _, a := range e.Args {
		checkExpr(t, m, a)
	}
}

func checkCond(t *testing.T, m *symbolic.Model, c *symbolic.Cond) {
	switch c.Op {
	case symbolic.CVar:
		if c.Var < 0 || int(c.Var) >= len(m.Vars) {
			t.Fatalf("variable %d out of range", c.Var)
		}
	case symbolic.CCmp:
		checkExpr(t, m, c.L)
		checkExpr(t, m, c.R)
	}
	for _, a := range c.Args {
		checkCond(t, m, a)
	}
}
