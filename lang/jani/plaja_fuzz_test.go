package jani

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/internal/fuzzseed"
	"vigil/symbolic"
)

// FuzzPlaJA reads arbitrary bytes as each of PlaJA's files around a model
// (counter.jani, N=3): as a condition file (--start/--unsafe), as a PA
// property file, as a .jani2nnet interface or PA policy file
// (--policy-file), and as a predicates file (--predicates). Nothing may panic; a rejection is a positioned error
// with the jani prefix; what is accepted is well formed (conditions refer
// to the model's variables and evaluate, policy inputs and outputs are in
// range), within 20 s (a policy file may name any network file).
// Seeds: testdata/plaja; crashers stay in testdata/fuzz/FuzzPlaJA.
func FuzzPlaJA(f *testing.F) {
	var paths []string
	for _, pat := range []string{"testdata/plaja/*.jani", "testdata/plaja/*.jani2nnet", "testdata/plaja/*/*.jani", "testdata/plaja/*/*.jani2nnet"} {
		p, _ := filepath.Glob(pat)
		paths = append(paths, p...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for kind := uint8(0); kind < 4; kind++ {
			f.Add(kind, data)
		}
		for _, v := range fuzzseed.Variants(data) {
			f.Add(uint8(len(v)%4), v)
		}
	}
	f.Add(uint8(0), fuzzseed.Deep(`{"op": "¬", "exp": `, "true", "}"))
	f.Add(uint8(2), []byte(`{"file": "counter.nnet", "input": [{"automaton": null, "name": "x"}, {"index": 99, "name": "main"}], "elements": [99999999999], "output": ["inc", "inc"]}`))
	dir := f.TempDir()
	path := filepath.Join(dir, "fuzz.jani")
	// The interface's network, next to it, for the loaders that open it.
	net, err := os.ReadFile("../../specs/plaja/net/counter.nnet")
	if err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "counter.nnet"), net, 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > 20*time.Second {
				t.Fatalf("kind %d: %v on %d bytes", kind%4, d, len(data))
			}
		}()
		m, _, err := LoadNotes("testdata/counter.jani", map[string]string{"N": "3"})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s := make(symbolic.State, len(m.Vars))
		for i, v := range m.Vars {
			s[i] = v.Lo
		}
		switch kind % 4 {
		case 0:
			c, err := LoadCondition(path, m)
			if err != nil || c == nil {
				checkPlaJAError(t, err)
				return
			}
			checkCond(t, m, c)
			c.Holds(s)
		case 1:
			if err := AddProperty(m, path, path); err != nil {
				checkPlaJAError(t, err)
				return
			}
			p := m.Properties[len(m.Properties)-1]
			for _, c := range []*symbolic.Cond{p.Start, p.Unsafe, p.Goal} {
				if c != nil {
					checkCond(t, m, c)
					c.Holds(s)
				}
			}
		case 3:
			ps, err := LoadPredicates(path, m)
			if err != nil {
				checkPlaJAError(t, err)
				return
			}
			for _, c := range ps {
				checkCond(t, m, c)
				c.Holds(s)
			}
		case 2:
			d, err := LoadPolicyFile(m, path)
			if err != nil {
				checkPlaJAError(t, err)
				return
			}
			for _, in := range d.Inputs {
				for _, term := range in.Terms {
					if term.Var < 0 || int(term.Var) >= len(m.Vars) {
						t.Fatalf("input variable %d out of range", term.Var)
					}
				}
			}
			for _, o := range d.Outputs {
				if o < 0 || int(o) >= len(m.Labels) {
					t.Fatalf("output label %d out of range", o)
				}
			}
		}
	})
}

// checkPlaJAError fails unless err is an error with the importer's prefix.
func checkPlaJAError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("rejected without an error")
	}
	if msg := err.Error(); len(msg) < 6 || msg[:6] != "jani: " {
		t.Fatalf("error without prefix: %v", err)
	}
}
