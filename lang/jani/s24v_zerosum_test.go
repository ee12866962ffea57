package jani_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"vigil/lang/jani"
)

// unsplitJANI: from y=0, action a goes to y=1..8 with probability
// (1 - x/2)/8 each and to y=9 with probability x/2: nine destinations
// whose probabilities read the state, beyond the split limit, so the edge
// is kept whole, with a zeroSum command beside it for where all nine
// might be 0 (the import cannot show that they never are).
func unsplitJANI() []byte {
	px := `{"op":"/","left":"x","right":2}`
	rest := `{"op":"/","left":{"op":"-","left":1,"right":` + px + `},"right":8}`
	var ds []string
	for i := 1; i <= 8; i++ {
		ds = append(ds, `{"location":"l","probability":{"exp":`+rest+`},"assignments":[{"ref":"y","value":`+strconv.Itoa(i)+`}]}`)
	}
	ds = append(ds, `{"location":"l","probability":{"exp":`+px+`},"assignments":[{"ref":"y","value":9}]}`)
	return []byte(`{"jani-version":1,"name":"f","type":"mdp","actions":[{"name":"a"}],
"variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":2}},
{"name":"y","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":9},"initial-value":0}],
"restrict-initial":{"exp":{"op":"≤","left":"x","right":1}},
"properties":[{"name":"p","expression":{"op":"filter","fun":"min","states":{"op":"initial"},"values":{"op":"Pmin","exp":{"op":"F","exp":{"op":"≥","left":"y","right":1}}}}}],
"automata":[{"name":"m","locations":[{"name":"l"}],"initial-locations":["l"],"edges":[
{"location":"l","action":"a","guard":{"exp":{"op":"=","left":"y","right":0}},"destinations":[` + strings.Join(ds, ",") + `]}]}],
"system":{"elements":[{"automaton":"m"}]}}`)
}

// TestS24vUnsplitZeroSumFixpoint: export ∘ import of an edge kept whole
// (more than 8 state-dependent destinations) reaches a fixed point. Its
// zeroSum command is written as an edge of its own (one destination of
// probability 0); read back, the whole edge made its zeroSum command again
// beside that edge, so every round had one edge more (2, 3, 4, ...).
func TestS24vUnsplitZeroSumFixpoint(t *testing.T) {
	m, _, err := jani.Decode("u.jani", unsplitJANI(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Commands) != 2 {
		t.Fatalf("%d commands, want 2 (the edge kept whole and its zeroSum)", len(m.Commands))
	}
	want := counts(t, m, "p")
	var prev string
	for round := 1; round <= 3; round++ {
		var b bytes.Buffer
		if err := jani.Export(&b, m, m.Property("p"), nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		back, _, err := jani.Decode("m.jani", b.Bytes(), nil)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(back.Commands) != len(m.Commands) {
			t.Errorf("round %d: %d commands exported, %d read back", round, len(m.Commands), len(back.Commands))
		}
		if round > 1 && b.String() != prev {
			t.Errorf("round %d: the JANI (%d bytes) differs from round %d's (%d bytes)", round, b.Len(), round-1, len(prev))
		}
		prev = b.String()
		m = back
		if got := counts(t, m, "p"); got != want {
			t.Errorf("round %d: explores to %+v, the original to %+v", round, got, want)
		}
	}
}
