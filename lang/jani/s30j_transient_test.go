package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS30jTransientArrayRead (review, session 30): a transient array (read
// as a reward, as every transient variable but a Boolean) read in a guard
// was refused with `"t" is not an array`, of a variable declared as one;
// it is now the unsupported feature a transient integer read there is.
func TestS30jTransientArrayRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jani")
	src := `{"jani-version":1,"name":"t","type":"lts",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":3},"initial-value":0},
   {"name":"t","type":{"kind":"array","base":"bool"},"transient":true,"initial-value":{"op":"av","elements":[false,false]}}],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"go","guard":{"exp":{"op":"aa","exp":"t","index":0}},
     "destinations":[{"location":"l","assignments":[{"ref":"x","value":1}]}]}]}],
 "system":{"elements":[{"automaton":"a"}]}}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, nil)
	if err == nil || !strings.Contains(err.Error(), `unsupported feature: reading transient variable "t" outside rewards and labels`) ||
		!strings.Contains(err.Error(), "edges[0].guard.exp.exp") {
		t.Fatalf("error %v, want the unsupported transient read at the guard", err)
	}
}
