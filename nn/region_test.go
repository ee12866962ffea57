package nn_test

import (
	"fmt"
	"testing"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
)

// loadBraking loads bench/ic3scaling/learned/braking_net.spec with N = n
// and returns its model and network policy.
func loadBraking(tb testing.TB, n int) (*symbolic.Model, *nn.Policy) {
	tb.Helper()
	m, diags := lang.Load("../bench/ic3scaling/learned/braking_net.spec", lang.Options{Defines: map[string]string{"N": fmt.Sprint(n)}})
	if diags.HasErrors() {
		tb.Fatalf("%s", diags.Render())
	}
	p, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		tb.Fatal(err)
	}
	return m, p.(*nn.Policy)
}

func labelNamed(tb testing.TB, m *symbolic.Model, name string) symbolic.LabelID {
	tb.Helper()
	for i, l := range m.Labels {
		if l.Name == name {
			return symbolic.LabelID(i)
		}
	}
	tb.Fatalf("no label %s", name)
	return symbolic.NoLabel
}

func varNamed(tb testing.TB, m *symbolic.Model, name string) symbolic.VarID {
	tb.Helper()
	for i, v := range m.Vars {
		if v.Name == name {
			return symbolic.VarID(i)
		}
	}
	tb.Fatalf("no variable %s", name)
	return -1
}

// TestBrakingNetDiagonal is issue 27's case: up and go are never chosen
// where v >= d (down is applicable where v >= 1 and wins there), which
// CROWN cannot prove on the bounding box at any N but proves over the
// region v - d >= 0 at N = 10^3, 10^6 and 10^9, as on cells along the
// diagonal v - d in [k1, k2].
func TestBrakingNetDiagonal(t *testing.T) {
	for _, n := range []int{1000, 1000000, 1000000000} {
		m, p := loadBraking(t, n)
		d, v := varNamed(t, m, "d"), varNamed(t, m, "v")
		down := labelNamed(t, m, "down")
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for i, va := range m.Vars {
			lo[i], hi[i] = va.Lo, va.Hi
		}
		lo[v] = 1 // down is applicable
		form := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: v}, {Coef: -1, Var: d}})
		for _, name := range []string{"up", "go"} {
			a := labelNamed(t, m, name)
			ex, s, err := p.Exclude(lo, hi, a, []symbolic.LabelID{down})
			if err != nil {
				t.Fatal(err)
			}
			if ex == symbolic.Excluded {
				t.Errorf("N=%d: %s is excluded on the whole bounding box, but it wins where v < d", n, name)
			}
			if ex == symbolic.Possible && s[v] >= s[d] {
				t.Errorf("N=%d: %s possible at %v, in the region v >= d", n, name, s)
			}
			cells := [][2]int{{0, n}, {0, 0}, {0, 3}, {5, 17}, {n / 2, n}}
			for _, c := range cells {
				atoms := []symbolic.Atom{{Form: form, K: c[0]}, {Form: form, Upper: true, K: c[1]}}
				ex, s, err := p.ExcludeWithin(lo, hi, atoms, a, []symbolic.LabelID{down})
				if err != nil {
					t.Fatal(err)
				}
				if ex != symbolic.Excluded {
					t.Errorf("N=%d: %s over v - d in [%d, %d]: %v %v, want excluded", n, name, c[0], c[1], ex, s)
				}
			}
		}
		// down itself is possible over the region, at a state of it.
		atoms := []symbolic.Atom{{Form: form, K: 0}}
		ex, s, err := p.ExcludeWithin(lo, hi, atoms, down, []symbolic.LabelID{labelNamed(t, m, "up"), labelNamed(t, m, "go")})
		if err != nil {
			t.Fatal(err)
		}
		if ex != symbolic.Possible || s[v] < s[d] || s[v] < 1 {
			t.Errorf("N=%d: down over v >= d: %v %v, want possible in the region", n, ex, s)
		}
	}
}
