package jani

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS28bMutateFields mutates every field of the fixtures one at a time,
// the way a hand-edited or half-generated JANI file goes wrong: a member
// removed, or its value replaced by null, a string, a negative, huge or
// fractional number, a Boolean, an empty array or an empty object. The
// importer must not panic; every error must be a positioned *Error (or a
// list of them) whose JSON path is not empty, so that the message names
// the field; an accepted model must be well formed (checkModel) and
// explorable by the explicit engine without a panic. VIGIL_JANI_MUTATE_DIR
// adds the .jani files of a directory (e.g. the QVBS corpus) for a longer
// run.
func TestS28bMutateFields(t *testing.T) {
	repl := mutations()
	mutateFixtures(t, func(p []any) []any {
		if _, ok := p[len(p)-1].(string); ok {
			return append(repl[:len(repl):len(repl)], deleted{})
		}
		return repl
	})
}

// mutateFixtures replaces each field of the fixtures (and of the .jani
// files in VIGIL_JANI_MUTATE_DIR, for a longer run) by each of the values
// replacements gives for its path, one at a time, and checks every mutant
// (checkMutant).
func mutateFixtures(t *testing.T, replacements func(p []any) []any) {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.jani")
	if dir := os.Getenv("VIGIL_JANI_MUTATE_DIR"); dir != "" {
		more, _ := filepath.Glob(filepath.Join(dir, "*.jani"))
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	tried := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defs := map[string]string{}
		if _, _, err := Decode(f, data, nil); err != nil {
			defs["N"] = "2" // an open constant
			if _, _, err := Decode(f, data, defs); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		var root any
		if err := json.Unmarshal(data, &root); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, p := range paths(root, nil) {
			for _, r := range replacements(p) {
				text, err := json.Marshal(mutate(root, p, r))
				if err != nil {
					t.Fatal(err)
				}
				tried++
				what := fmt.Sprintf("%s: %s := %v", filepath.Base(f), pathString(p), r)
				checkMutant(t, what, text, defs, len(p) == 1)
			}
		}
	}
	t.Logf("%d mutants of %d files", tried, len(files))
}

// mutations are the values a field is replaced by (fewer with -short).
func mutations() []any {
	if testing.Short() {
		return []any{nil, "zz", -1.0, map[string]any{}}
	}
	return []any{nil, "zz", -1.0, 1e30, 0.5, true, []any{}, map[string]any{}}
}

type deleted struct{}

func (deleted) String() string { return "(deleted)" }

// checkMutant decodes one mutant; top says the mutated member is one of
// the document's own, so that an error may name the whole document
// ("missing \"system\"" at 1:1, or a -D that names a constant no longer
// declared).
func checkMutant(t *testing.T, what string, text []byte, defs map[string]string, top bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", what, r)
		}
	}()
	m, _, err := Decode("mut.jani", text, defs)
	if err != nil {
		var e *Error
		var l ErrorList
		switch {
		case errors.As(err, &l):
			for _, e := range l {
				if e.Path == "" && !top && e.Msg != "too many errors" {
					t.Errorf("%s: error without a field path: %v", what, e)
				}
			}
		case errors.As(err, &e):
			if e.Path == "" && !top {
				t.Errorf("%s: error without a field path: %v", what, err)
			}
		case top && strings.Contains(err.Error(), ": -D "):
		default:
			// plain errors are for files, not fields
			t.Errorf("%s: unpositioned error: %v", what, err)
		}
		return
	}
	checkModel(t, m)
	for _, prop := range m.Properties {
		g, err := explicit.New(m, prop)
		if err != nil {
			continue
		}
		explicit.Search(context.Background(), g, explicit.Options{MaxStates: 2000})
	}
}

// paths lists the path of every member and element below v.
func paths(v any, prefix []any) [][]any {
	var out [][]any
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := append(append([]any(nil), prefix...), k)
			out = append(out, p)
			out = append(out, paths(x[k], p)...)
		}
	case []any:
		for i, e := range x {
			p := append(append([]any(nil), prefix...), i)
			out = append(out, p)
			out = append(out, paths(e, p)...)
		}
	}
	return out
}

// mutate returns a copy of v with the value at p replaced by r (removed
// when r is deleted{}).
func mutate(v any, p []any, r any) any {
	if len(p) == 0 {
		return r
	}
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = e
		}
		k := p[0].(string)
		if len(p) == 1 {
			if _, ok := r.(deleted); ok {
				delete(c, k)
				return c
			}
		}
		c[k] = mutate(x[k], p[1:], r)
		return c
	case []any:
		c := append([]any(nil), x...)
		i := p[0].(int)
		if _, ok := r.(deleted); ok && len(p) == 1 {
			return append(c[:i], c[i+1:]...)
		}
		c[i] = mutate(x[i], p[1:], r)
		return c
	}
	return v
}

func pathString(p []any) string {
	var b strings.Builder
	for _, e := range p {
		switch x := e.(type) {
		case string:
			b.WriteString("." + x)
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		}
	}
	return b.String()
}

// TestS28bMutatePlaJA mutates every field of the PlaJA files around
// counter.jani (conditions, PA property files with their objective and
// predicates files, policy interfaces) one at a time as
// TestS28bMutateFields does, and reads each mutant as a condition, as a
// PA property, as predicates and as a policy file: no panic, and an
// error names its field (a file that cannot be read is a plain error).
func TestS28bMutatePlaJA(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "plaja")
	var files []string
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return err
		}
		files = append(files, rel)
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	net, err := os.ReadFile("../../specs/plaja/net/counter.nnet")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "net", "counter.nnet"), net, 0o644); err != nil {
		t.Fatal(err)
	}
	repl := mutations()
	tried := 0
	for _, rel := range files {
		path := filepath.Join(dir, rel)
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var root any
		if json.Unmarshal(orig, &root) != nil {
			continue // a fixture that is not JSON on purpose
		}
		// The ways the unmutated file reads without an error: only
		// there must a mutant's error name a field (read the wrong way,
		// a file is wrong as a whole).
		kinds := map[string]bool{}
		m := counterModel(t)
		for _, how := range plajaReads {
			kinds[how] = readPlaJA(m, how, path) == nil
		}
		for _, p := range paths(root, nil) {
			muts := repl
			if _, ok := p[len(p)-1].(string); ok {
				muts = append(muts, deleted{})
			}
			for _, r := range muts {
				text, err := json.Marshal(mutate(root, p, r))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, text, 0o644); err != nil {
					t.Fatal(err)
				}
				tried++
				loadPlaJAMutant(t, fmt.Sprintf("%s: %s := %v", rel, pathString(p), r), path, len(p) == 1, kinds)
			}
		}
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d mutants of %d files, each read four ways", tried, len(files))
}

// plajaReads are the ways a PlaJA file is read, the one that adds to the
// model last.
var plajaReads = []string{"condition", "predicates", "policy", "property"}

// counterModel loads the model the PlaJA fixtures belong to.
func counterModel(t *testing.T) *symbolic.Model {
	m, _, err := LoadNotes("testdata/counter.jani", map[string]string{"N": "3"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// readPlaJA reads path one way beside m.
func readPlaJA(m *symbolic.Model, how, path string) error {
	var err error
	switch how {
	case "condition":
		_, err = LoadCondition(path, m)
	case "property":
		err = AddProperty(m, path, path)
	case "predicates":
		_, err = LoadPredicates(path, m)
	default:
		_, err = LoadPolicyFile(m, path)
	}
	return err
}

func loadPlaJAMutant(t *testing.T, what, path string, top bool, kinds map[string]bool) {
	t.Helper()
	check := func(how string, err error) {
		t.Helper()
		if err == nil {
			return
		}
		var e *Error
		var l ErrorList
		var pe *PlainError
		top := top || !kinds[how]
		switch {
		case !strings.HasPrefix(err.Error(), "jani: "):
			t.Errorf("%s (%s): error without prefix: %v", what, how, err)
		case errors.As(err, &l):
			for _, e := range l {
				if e.Path == "" && !top && e.Msg != "too many errors" {
					t.Errorf("%s (%s): error without a field path: %v", what, how, e)
				}
			}
		case errors.As(err, &e):
			if e.Path == "" && !top {
				t.Errorf("%s (%s): error without a field path: %v", what, how, err)
			}
		case errors.As(err, &pe):
			// a file named by the mutant cannot be read, or files do not go together
		default:
			t.Errorf("%s (%s): unpositioned error: %v", what, how, err)
		}
	}
	m := counterModel(t)
	for _, how := range plajaReads {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s (%s): panic: %v", what, how, r)
				}
			}()
			check(how, readPlaJA(m, how, path))
		}()
	}
}
