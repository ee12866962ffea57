package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS30jSplitConstSumNoted (review, session 30): an edge with the
// probabilities 0.5, x/4 and 0.3 is split where x/4 is 0 (x = 0); that
// piece keeps the constants 1/2 and 3/10, which sum to 4/5, and vigil prob
// normalised them (Pmax of reaching x = 1 was 5/8, Storm's reading 1/2)
// without the note the import gives constant probabilities that do not
// sum to 1. Now it notes the piece; a valid distribution (1/2, x/2,
// (1-x)/2) gets no note.
func TestS30jSplitConstSumNoted(t *testing.T) {
	edge := func(probs string) string {
		return `{"jani-version":1,"name":"pr","type":"mdp",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":1},"initial-value":0}],
 "actions":[{"name":"a"}],
 "automata":[{"name":"A","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"a","destinations":[` + probs + `]}]}],
 "system":{"elements":[{"automaton":"A"}]}}`
	}
	dest := func(p string) string {
		return `{"location":"l","probability":{"exp":` + p + `}}`
	}
	quarter := `{"op":"/","left":"x","right":4}`
	half := `{"op":"/","left":"x","right":2}`
	rest := `{"op":"/","left":{"op":"-","left":1,"right":"x"},"right":2}`
	dir := t.TempDir()
	for _, c := range []struct {
		name, probs, want string
	}{
		{"uneven", dest("0.5") + "," + dest(quarter) + "," + dest("0.3"), "the others sum to 4/5, not 1"},
		{"even", dest("0.5") + "," + dest(half) + "," + dest(rest), ""},
		{"whole", dest("0.5") + "," + dest("0.3"), ""}, // noted as a whole transition (compose.go)
	} {
		path := filepath.Join(dir, c.name+".jani")
		if err := os.WriteFile(path, []byte(edge(c.probs)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, notes, err := LoadNotes(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, n := range notes {
			if strings.Contains(n.Msg, "others sum") {
				got = append(got, n.Msg)
			}
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: notes %q, want none", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: notes %q, want one saying %q", c.name, got, c.want)
		}
	}
}
