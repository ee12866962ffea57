package jani

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"vigil/symbolic"
)

// Composition by location (compose_merge.go) has, in every reachable
// state, the transitions of the full product of edges, on random
// synchronising networks (s26sNetwork without its extra features).
func TestMergeByLocation(t *testing.T) {
	old := mergeAbove
	defer func() { mergeAbove = old }()
	r := rand.New(rand.NewSource(26))
	merged, decoded := 0, 0
	for it := 0; it < 300; it++ {
		data := s26sNetwork(r, s26sOpts{})
		prod, lazy := decodeBothWays(t, it, data, it < 3)
		if prod == nil {
			continue
		}
		decoded++
		if len(lazy.Commands) < len(prod.Commands) {
			merged++
		}
		init, err := prod.InitialState()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{fmt.Sprint(init): true}
		queue := []symbolic.State{init}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			want, succ := s26sTransitions(prod, s)
			got, _ := s26sTransitions(lazy, s)
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Fatalf("network %d, state %s:\nproduct:\n%s\nby location:\n%s\n%s", it, prod.FormatState(s), strings.Join(want, "\n"), strings.Join(got, "\n"), data)
			}
			for _, t := range succ {
				if k := fmt.Sprint(t); !seen[k] {
					seen[k] = true
					queue = append(queue, t)
				}
			}
		}
	}
	if merged < 100 || decoded < 250 {
		t.Fatalf("%d of 300 networks decoded, %d merged some edges: the test does not exercise the merge", decoded, merged)
	}
}

// decodeBothWays decodes the network data as the full product of edges
// and composed by location (mergeAbove, which the caller restores); both
// must fail or neither. On a failure it returns nils, logging it when
// log is set.
func decodeBothWays(t *testing.T, it int, data []byte, log bool) (prod, lazy *symbolic.Model) {
	t.Helper()
	mergeAbove = 1 << 30
	prod, _, err := Decode("net.jani", data, nil)
	mergeAbove = 0
	lazy, _, err2 := Decode("net.jani", data, nil)
	if (err == nil) != (err2 == nil) {
		t.Fatalf("network %d: the product gives %v, by location %v\n%s", it, err, err2, data)
	}
	if err != nil {
		if log {
			t.Logf("network %d: %v", it, err)
		}
		return nil, nil
	}
	return prod, lazy
}
