package gen_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

func print(t *testing.T, m *symbolic.Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := symbolic.Print(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		a, b := print(t, gen.Model(seed, gen.Options{})), print(t, gen.Model(seed, gen.Options{}))
		if a != b {
			t.Fatalf("seed %d: two different models", seed)
		}
	}
	if print(t, gen.Model(1, gen.Options{})) == print(t, gen.Model(2, gen.Options{})) {
		t.Fatal("seeds 1 and 2 give the same model")
	}
}

// TestValid: generated models pass the explicit engine's IR validation,
// stay in range unless asked not to, and use every expression form.
func TestValid(t *testing.T) {
	ops := map[symbolic.Op]bool{}
	var walk func(e *symbolic.Expr)
	walk = func(e *symbolic.Expr) {
		ops[e.Op] = true
		for _, a := range e.Args {
			walk(a)
		}
	}
	for seed := uint64(0); seed < 300; seed++ {
		m := gen.Model(seed, gen.Options{})
		if err := explicit.Validate(m); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, c := range m.Commands {
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					walk(a.Value)
					lo, hi := m.Bounds(a.Value)
					v := m.Vars[a.Var]
					if lo < v.Lo || hi > v.Hi {
						t.Fatalf("seed %d: %s' = %s may leave %d..%d", seed, v.Name, m.ExprString(a.Value), v.Lo, v.Hi)
					}
				}
			}
		}
	}
	for op := symbolic.OpConst; op <= symbolic.OpBool; op++ {
		if !ops[op] {
			t.Errorf("no generated model uses %s", op)
		}
	}
}

// TestThroughFrontEnd prints generated models as .spec text, loads them
// with the front end and checks that the explicit engine sees the same
// transition system: a differential test of printer, parser, checker and
// lowering against the IR the generator built.
func TestThroughFrontEnd(t *testing.T) {
	throughFrontEnd(t, func(seed uint64) gen.Options {
		return gen.Options{RangeErrors: seed%3 == 0, MaxVars: 3 + int(seed%3)}
	})
}

// throughFrontEnd prints the models of seeds 1..150 generated with
// opts(seed), loads the text, and checks that both IRs have the same
// transition system.
func throughFrontEnd(t *testing.T, opts func(seed uint64) gen.Options) {
	dir := t.TempDir()
	for seed := uint64(1); seed <= 150; seed++ {
		m := gen.Model(seed, opts(seed))
		path := filepath.Join(dir, m.Name+".spec")
		if err := os.WriteFile(path, []byte(print(t, m)), 0o644); err != nil {
			t.Fatal(err)
		}
		m2, diags := lang.Load(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("seed %d: the front end rejects the printed model:\n%s\n%s", seed, diags.Render(), print(t, m))
		}
		a, errA := search(m)
		b, errB := search(m2)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("seed %d: IR error %v, front-end error %v", seed, errA, errB)
		}
		if errA == nil && (a.States != b.States || a.Transitions != b.Transitions || a.Unsafe != b.Unsafe || a.Goal != b.Goal || a.Stuck != b.Stuck || a.Deadlocks != b.Deadlocks) {
			t.Fatalf("seed %d: IR %+v, through the front end %+v\n%s", seed, a, b, print(t, m))
		}
	}
}

func search(m *symbolic.Model) (explicit.Stats, error) {
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		return explicit.Stats{}, err
	}
	d, err := explicit.NewDecider(m, m.Policies[0])
	if err != nil {
		return explicit.Stats{}, err
	}
	r, err := explicit.Search(context.Background(), g, explicit.Options{Policy: d})
	if err != nil {
		return explicit.Stats{}, err
	}
	return r.Stats, nil
}
