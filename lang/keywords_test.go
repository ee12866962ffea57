package lang

import (
	"fmt"
	"testing"

	"vigil/lang/jani"
)

// TestJANIRenamesEveryKeyword: the JANI import renames a variable named
// like any keyword of the language (its own list must follow this one),
// so that the model it prints parses.
func TestJANIRenamesEveryKeyword(t *testing.T) {
	for _, k := range Keywords() {
		src := fmt.Sprintf(`{"jani-version": 1, "type": "lts", "actions": [{"name": "a"}],
		  "variables": [{"name": %q, "type": "bool", "initial-value": false}],
		  "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
		    "edges": [{"location": "l", "action": "a", "destinations": [{"location": "l"}]}]}],
		  "system": {"elements": [{"automaton": "m"}]}}`, k)
		m, _, err := jani.Decode("k.jani", []byte(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if got := m.Vars[0].Name; got == k {
			t.Errorf("the JANI import keeps the keyword %s as a variable's name", k)
		}
	}
}
