package prob

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// A .spec property asks Pmax and Pmin of reaching its unsafe states, and
// of reaching its goal (until the unsafe states, when there are any).
func TestQueries(t *testing.T) {
	unsafe, never, goal := &symbolic.Cond{Op: symbolic.CTrue}, &symbolic.Cond{Op: symbolic.CFalse}, &symbolic.Cond{Op: symbolic.CTrue}
	for _, c := range []struct {
		p    *symbolic.Property
		want []Query
	}{
		{&symbolic.Property{Name: "u", Unsafe: unsafe}, []Query{{Name: "u", Target: explicit.Unsafe, Max: true}, {Name: "u", Target: explicit.Unsafe}}},
		{&symbolic.Property{Name: "g", Unsafe: unsafe, Goal: goal}, []Query{{Name: "g", Target: explicit.Unsafe, Max: true}, {Name: "g", Target: explicit.Unsafe},
			{Name: "g", Target: explicit.Goal, Max: true, Until: true}, {Name: "g", Target: explicit.Goal, Until: true}}},
		{&symbolic.Property{Name: "r", Unsafe: never, Goal: goal}, []Query{{Name: "r", Target: explicit.Unsafe, Max: true}, {Name: "r", Target: explicit.Unsafe},
			{Name: "r", Target: explicit.Goal, Max: true}, {Name: "r", Target: explicit.Goal}}},
	} {
		got, err := Queries(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v, want %v", c.p.Name, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: query %d: %+v, want %+v", c.p.Name, i, got[i], c.want[i])
			}
		}
	}
}
