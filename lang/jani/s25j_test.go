package jani_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// syncStateDepJANI: two automata synchronise on a, each edge with two
// destinations whose probabilities read x, so that every outcome of a is
// a product of two state-dependent factors; x counts up only while y is
// 0, so Pmax of y = 2 is a fraction below 1 (vigil prob on the original:
// the test compares, not assumes).
func syncStateDepJANI() []byte {
	return []byte(`{"jani-version": 1, "name": "sync", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 0}],
 "actions": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
 "properties": [{"name": "g", "expression": {"op": "filter", "fun": "max", "states": {"op": "initial"},
   "values": {"op": "Pmax", "exp": {"op": "F", "exp": {"op": "=", "left": "y", "right": 2}}}}}],
 "automata": [
  {"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [
     {"location": "l", "action": "b", "guard": {"exp": {"op": "∧", "left": {"op": "<", "left": "x", "right": 2}, "right": {"op": "=", "left": "y", "right": 0}}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]},
     {"location": "l", "action": "c", "guard": {"exp": {"op": "=", "left": "x", "right": 3}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 0}]}]},
     {"location": "l", "action": "a", "guard": {"exp": {"op": "≥", "left": "x", "right": 1}}, "destinations": [
        {"location": "l", "probability": {"exp": {"op": "/", "left": "x", "right": 3}}, "assignments": [{"ref": "y", "value": {"op": "min", "left": {"op": "+", "left": "y", "right": 1}, "right": 2}}]},
        {"location": "l", "probability": {"exp": {"op": "/", "left": {"op": "-", "left": 3, "right": "x"}, "right": 3}}, "assignments": [{"ref": "x", "value": 0}]}]}]},
  {"name": "n", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [
     {"location": "l", "action": "a", "destinations": [
        {"location": "l", "probability": {"exp": {"op": "/", "left": {"op": "-", "left": 3, "right": "x"}, "right": 2}}},
        {"location": "l", "probability": {"exp": {"op": "/", "left": {"op": "-", "left": "x", "right": 1}, "right": 2}}}]}]}],
 "system": {"elements": [{"automaton": "m"}, {"automaton": "n"}],
            "syncs": [{"synchronise": ["a", "a"], "result": "a"}, {"synchronise": ["b", null], "result": "b"}, {"synchronise": ["c", null], "result": "c"}]}}`)
}

// exactProb is vigil prob --method exact's answer to property p of m.
func exactProb(t *testing.T, m *symbolic.Model, p string) string {
	t.Helper()
	prop := m.Property(p)
	if prop == nil {
		t.Fatalf("no property %s", p)
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	q, err := prob.PropertyQuery(prop)
	if err != nil {
		t.Fatal(err)
	}
	a, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.Exact})
	if err != nil {
		t.Fatal(err)
	}
	return a.Exact.RatString()
}

// bruteSat decides by enumeration whether some state of a small model
// satisfies c (what Z3 decides in vigil export).
func bruteSat(m *symbolic.Model, c *symbolic.Cond) (symbolic.State, bool, error) {
	n := 1
	for _, v := range m.Vars {
		if n *= v.Hi - v.Lo + 1; n > 1_000_000 {
			return nil, false, fmt.Errorf("too many states to enumerate")
		}
	}
	s := make(symbolic.State, len(m.Vars))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(m.Vars) {
			return c.Holds(s)
		}
		for v := m.Vars[i].Lo; v <= m.Vars[i].Hi; v++ {
			s[i] = v
			if rec(i + 1) {
				return true
			}
		}
		return false
	}
	if rec(0) {
		return s, false, nil
	}
	return nil, true, nil
}

func exportBytes(t *testing.T, m *symbolic.Model, p *symbolic.Property) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jani.ExportWith(&b, m, p, nil, jani.ExportOptions{Satisfiable: bruteSat}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestS25jStateDepCompact: the export of a JANI edge whose destinations'
// probabilities read the state is that one edge again, not the 255 (sd)
// or 16 (sync) pieces the import split it into; the first export is the
// fixed point (before, the synchronised model's took a second round:
// its products read back as one factor, split otherwise), and every
// round has the original's states, transitions and exact probability.
func TestS25jStateDepCompact(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		edges int
	}{{"sd", stateDepJANI(), 1}, {"sync", syncStateDepJANI(), 3}} {
		t.Run(c.name, func(t *testing.T) {
			m, _, err := jani.Decode(c.name+".jani", c.data, nil)
			if err != nil {
				t.Fatal(err)
			}
			p := m.Properties[0].Name
			wantCounts, wantP := counts(t, m, p), exactProb(t, m, p)
			var prev []byte
			for round := 1; round <= 3; round++ {
				e := exportBytes(t, m, m.Property(p))
				if n := strings.Count(string(e), `"action":`); n != c.edges {
					t.Errorf("round %d: %d edges written, want %d (%d bytes)", round, n, c.edges, len(e))
				}
				if prev != nil && !bytes.Equal(e, prev) {
					t.Errorf("round %d: the JANI (%d bytes) differs from round %d's (%d bytes)", round, len(e), round-1, len(prev))
				}
				prev = e
				if m, _, err = jani.Decode("r.jani", e, nil); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				if got := counts(t, m, p); got != wantCounts {
					t.Errorf("round %d: explores to %+v, the original to %+v", round, got, wantCounts)
				}
				if got := exactProb(t, m, p); got != wantP {
					t.Errorf("round %d: %s = %s, the original %s", round, p, got, wantP)
				}
			}
		})
	}
}

// fixpointModel is one model of TestS25jExportFixpoint: how to load it.
type fixpointModel struct {
	name string
	load func() (*symbolic.Model, error)
	jani bool // a JANI file: its first export is the fixed point
}

// TestS25jExportFixpoint: over every model of the corpus (QVBS, PlaJA) and
// of the repository (lang/jani/testdata, specs), and each of its
// properties, export then import reaches its fixed point in one round:
// for a JANI model export(import(export(import(x)))) is export(import(x))
// byte for byte; for a .spec model the second export is the fixed point
// (its property comes back as a JANI query). Every round explores to the
// original's counts from the property's start states.
func TestS25jExportFixpoint(t *testing.T) {
	var models []fixpointModel
	addJANI := func(path string, defs map[string]string) {
		models = append(models, fixpointModel{path, func() (*symbolic.Model, error) { return jani.Load(path, defs) }, true})
	}
	for _, f := range globs(t, "testdata/*.jani", "testdata/plaja/*.jani") {
		defs := map[string]string(nil)
		if b := filepath.Base(f); b == "counter.jani" || b == "counter_pa.jani" {
			defs = map[string]string{"N": "3"}
		}
		addJANI(f, defs)
	}
	for _, f := range globs(t, "../../specs/*.spec") {
		models = append(models, fixpointModel{f, func() (*symbolic.Model, error) {
			m, diags := lang.Load(f, lang.Options{})
			if diags.HasErrors() {
				return nil, fmt.Errorf("%s", diags.Render())
			}
			return m, nil
		}, false})
	}
	qvbs := filepath.Join(corpusRoot, "qvbs")
	plaja := filepath.Join(corpusRoot, "plaja")
	if _, err := os.Stat(qvbs); err != nil {
		t.Logf("corpus %s absent (%v): the QVBS models are not checked", qvbs, err)
	} else {
		params := stormParams(t, filepath.Join(qvbs, "storm_states.json"))
		for _, f := range globs(t, filepath.Join(qvbs, "*.jani")) {
			addJANI(f, params[filepath.Base(f)])
		}
	}
	if _, err := os.Stat(plaja); err != nil {
		t.Logf("corpus %s absent (%v): the PlaJA models are not checked", plaja, err)
	} else {
		filepath.WalkDir(plaja, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jani") {
				defs := map[string]string(nil)
				if strings.Contains(path, "blocksworld") {
					defs = map[string]string{"item_cost_bound": "4", "failing_probability": "0.1"}
				}
				addJANI(path, defs)
			}
			return nil
		})
	}
	for _, fm := range models {
		t.Run(strings.TrimPrefix(fm.name, corpusRoot+"/"), func(t *testing.T) {
			m, err := fm.load()
			if err != nil {
				// a property, start or predicates file, or a model the
				// import refuses: nothing to export
				t.Logf("not imported: %v", err)
				return
			}
			if testing.Short() && len(m.Commands) > 2000 {
				t.Logf("%d commands: not in -short mode", len(m.Commands))
				return
			}
			props := []*symbolic.Property{nil}
			for _, p := range m.Properties {
				if p.Query == nil || p.Query.FilterStates == nil {
					props = append(props, p)
				}
			}
			for _, p := range props {
				name := "(none)"
				if p != nil {
					name = p.Name
				}
				fixpoint(t, m, p, name, fm.jani)
			}
		})
	}
}

// fixpoint checks one model and property (nil: none) of
// TestS25jExportFixpoint.
func fixpoint(t *testing.T, m *symbolic.Model, p *symbolic.Property, name string, isJANI bool) {
	t.Helper()
	var e1 bytes.Buffer
	if err := jani.Export(&e1, m, p, nil); err != nil {
		// what the export refuses (a learned policy, a product it cannot
		// show to be a probability without Z3, ...) has no fixed point
		// to reach
		t.Logf("%s: not exported: %v", name, err)
		return
	}
	m1, _, err := jani.Decode("e1.jani", e1.Bytes(), nil)
	if err != nil {
		t.Fatalf("%s: the export does not import: %v", name, err)
	}
	e2 := exportBytes(t, m1, byName(m1, p))
	m2, _, err := jani.Decode("e2.jani", e2, nil)
	if err != nil {
		t.Fatalf("%s: the second export does not import: %v", name, err)
	}
	e3 := exportBytes(t, m2, byName(m2, p))
	if !bytes.Equal(e3, e2) {
		t.Errorf("%s: export 3 (%d bytes) differs from export 2 (%d bytes): no fixed point", name, len(e3), len(e2))
	}
	if isJANI && !bytes.Equal(e2, e1.Bytes()) {
		t.Errorf("%s: export(import(export(x))) (%d bytes) differs from export(x) (%d bytes): a second round to the fixed point", name, len(e2), e1.Len())
	}
	a, errA := explore(m, p)
	b, errB := explore(m1, sameProperty(m1, p))
	if (errA == nil) != (errB == nil) || a != b {
		t.Errorf("%s: the model explores to %+v (%v), its export to %+v (%v)", name, a, errA, b, errB)
	}
}

// byName is m's property named as p (nil for nil): what a user exports
// again with --property.
func byName(m *symbolic.Model, p *symbolic.Property) *symbolic.Property {
	if p == nil {
		return nil
	}
	if jani.ExportRenames(p) {
		return m.Property(p.Name + "_reach")
	}
	return m.Property(p.Name)
}

// sameProperty is p's counterpart in the import of p's export: the same
// name, or NAME_avoid for a .spec property without a goal (P of F
// unsafe reads back as NAME, goal unsafe, and NAME_avoid, unsafe
// unsafe).
func sameProperty(m *symbolic.Model, p *symbolic.Property) *symbolic.Property {
	if p == nil {
		return nil
	}
	if p.Query == nil && p.Goal == nil {
		if q := m.Property(p.Name + "_avoid"); q != nil {
			return q
		}
	}
	return byName(m, p)
}

// explore is explicit.Search's counts from p's start states (the
// initial values without one), at most 200,000 states.
func explore(m *symbolic.Model, p *symbolic.Property) (explicit.Stats, error) {
	g, err := explicit.New(m, p)
	if err != nil {
		return explicit.Stats{}, err
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{MaxStates: 200_000})
	if err != nil {
		return explicit.Stats{}, err
	}
	s := res.Stats
	return explicit.Stats{States: s.States, Transitions: s.Transitions, Depth: s.Depth, Starts: s.Starts, Deadlocks: s.Deadlocks}, nil
}

func globs(t *testing.T, patterns ...string) []string {
	var out []string
	for _, p := range patterns {
		fs, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fs...)
	}
	sort.Strings(out)
	return out
}

// stormParams is, per QVBS file, the first parameter setting of
// storm_states.json.
func stormParams(t *testing.T, path string) map[string]map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var runs map[string][]struct {
		Params map[string]json.Number `json:"params"`
	}
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for f, rs := range runs {
		if len(rs) == 0 {
			continue
		}
		d := map[string]string{}
		for k, v := range rs[0].Params {
			d[k] = v.String()
		}
		out[f] = d
	}
	return out
}

// corpusRoot is the external corpus (../shared/corpus/jani); the tests
// that read it say so and go on without it where it is absent.
const corpusRoot = "../../../shared/corpus/jani"

// TestS25jPlaceholderProperty: the property "initial" that the import
// gives a JANI model without properties (its restrict-initial's carrier)
// is written as restrict-initial and no JANI property. Before, it was
// Pmax [F false], which came back as two properties (initial and
// initial_avoid), so that the export, unlike the original, needed
// --property; now the export reads back as the original: one property
// initial, the same start states and counts.
func TestS25jPlaceholderProperty(t *testing.T) {
	src := []byte(`{"jani-version": 1, "name": "ri", "type": "mdp", "actions": [{"name": "up"}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 5}}],
 "restrict-initial": {"exp": {"op": "≤", "left": "x", "right": 1}},
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [
   {"location": "l", "action": "up", "guard": {"exp": {"op": "<", "left": "x", "right": 3}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}, "properties": []}`)
	m, _, err := jani.Decode("ri.jani", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Property("initial")
	if p == nil || !jani.AsksNothing(p) {
		t.Fatalf("no placeholder property initial: %v", m.Properties)
	}
	e := exportBytes(t, m, p)
	if !strings.Contains(string(e), `"properties": []`) || !strings.Contains(string(e), `"restrict-initial"`) {
		t.Fatalf("the export has a property, or no restrict-initial:\n%s", e)
	}
	back, _, err := jani.Decode("e.jani", e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Properties) != 1 || back.Properties[0].Name != "initial" {
		t.Errorf("read back with properties %v, want initial alone", back.Properties)
	}
	if a, b := counts(t, m, "initial"), counts(t, back, "initial"); a != b || a.Starts != 2 {
		t.Errorf("the original explores to %+v, its export to %+v (want 2 start states)", a, b)
	}
}
