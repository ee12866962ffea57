package jani

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// s31jNested is a model whose guards each call h(h(...h(x)...)) depth
// deep, h(y) = y + max(y, 1): each call of h is under maxExpansion, but
// each level uses the one below three times, so a guard read as a tree has
// about 2^(depth+2) nodes over a DAG of a few per level. label, when set,
// adds a label "low" (x < 2) that every guard reads through a Boolean
// function that reads its parameter twice, nested as deep.
func s31jNested(depth, guards int, label bool) string {
	call := func(fn, arg string) string {
		return fmt.Sprintf(`{"op":"call","function":%q,"args":[%s]}`, fn, arg)
	}
	var edges []string
	for g := 0; g < guards; g++ {
		e := `"x"`
		for i := 0; i < depth; i++ {
			e = call("h", e)
		}
		guard := fmt.Sprintf(`{"op":"<","left":%s,"right":%d}`, e, g+5)
		if label {
			b := `"low"`
			for i := 0; i < depth; i++ {
				b = call("k", b)
			}
			guard = fmt.Sprintf(`{"op":"∧","left":%s,"right":{"op":"<","left":"x","right":%d}}`, b, g+2)
		}
		edges = append(edges, fmt.Sprintf(`{"location":"l","action":"go","guard":{"exp":%s},
  "destinations":[{"location":"l","assignments":[{"ref":"x","value":{"op":"min","left":{"op":"+","left":"x","right":1},"right":3}}]}]}`, guard))
	}
	return `{"jani-version":1,"name":"nested","type":"lts",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":3},"initial-value":0},
   {"name":"low","type":"bool","transient":true,"initial-value":false}],
 "functions":[{"name":"h","type":"int","parameters":[{"name":"y","type":"int"}],"body":{"op":"+","left":"y","right":{"op":"max","left":"y","right":1}}},
   {"name":"k","type":"bool","parameters":[{"name":"b","type":"bool"}],"body":{"op":"∧","left":{"op":"∨","left":"b","right":{"op":"<","left":"x","right":1}},"right":{"op":"∨","left":"b","right":{"op":">","left":"x","right":2}}}}],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l","transient-values":[{"ref":"low","value":{"op":"<","left":"x","right":2}}]}],"initial-locations":["l"],
   "edges":[` + strings.Join(edges, ",\n") + `]}],
 "system":{"elements":[{"automaton":"a"}]}}`
}

// TestS31jTreeSize (session 30's leftover): a JANI model loaded on its own
// skipped the tree-size limit of E0705 (only a .spec importing it was
// checked), and maxExpansion bounds one call, not a model: 12 guards of 15
// nested calls loaded, and exploring their 4 states took 2.4 s and 160 MB
// (100 guards, 20 s). Such a model is now refused at the edge, naming the
// limit; the same nesting one level less shallow, under the limit in all,
// still loads; and so does every model a .spec imports (lang checks those).
func TestS31jTreeSize(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name          string
		depth, guards int
		label, bad    bool
	}{
		{"calls", 15, 12, false, true},
		{"one-guard", 19, 1, false, true}, // refused by maxExpansion already
		{"labels", 14, 12, true, true},
		{"shallower", 14, 12, false, false},
		{"labels-shallower", 12, 12, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".jani")
			src := s31jNested(tc.depth, tc.guards, tc.label)
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := Load(path, nil)
			if !tc.bad {
				if err != nil {
					t.Fatalf("want the model, got %v", err)
				}
				if len(m.Commands) != tc.guards {
					t.Fatalf("%d commands, want %d", len(m.Commands), tc.guards)
				}
				return
			}
			if err == nil {
				t.Fatal("model loaded, want it refused as too large")
			}
			msg := err.Error()
			if tc.name == "one-guard" {
				if !strings.Contains(msg, "expands to more than") {
					t.Fatalf("want the bound of one call, got %v", err)
				}
				return
			}
			for _, want := range []string{
				path + "#automata[0].edges[", "the guard of action go is too large",
				"every function call expanded", "E0705", "more than 2^20",
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			var one *Error
			if e, ok := err.(*Error); ok {
				one = e
			}
			if one == nil || one.Line == 0 || !strings.HasPrefix(one.Path, "automata[0].edges[") {
				t.Errorf("want one positioned error at an edge, got %#v", err)
			}
			// imported by a .spec file, the model is lang's to check
			if _, _, err := DecodeDynamics(path, []byte(src), nil); err != nil {
				t.Errorf("DecodeDynamics: %v", err)
			}
		})
	}
}
