package trees_test

import (
	"math/rand"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
	"vigil/trees"
)

func loadSpec(t *testing.T, path string, src string) *symbolic.Model {
	t.Helper()
	var m *symbolic.Model
	var diags lang.Diagnostics
	if src == "" {
		m, diags = lang.Load(path, lang.Options{})
	} else {
		m, diags = lang.LoadSource(path, []byte(src), lang.Options{})
	}
	if diags.HasErrors() {
		t.Fatalf("%s", diags.Render())
	}
	return m
}

func policyNamed(t *testing.T, m *symbolic.Model, name string) *trees.Policy {
	t.Helper()
	for _, d := range m.Policies {
		if d.Name == name {
			p, err := symbolic.Instantiate(m, d)
			if err != nil {
				t.Fatal(err)
			}
			return p.(*trees.Policy)
		}
	}
	t.Fatalf("no policy %s", name)
	return nil
}

func wins(sc []float64, a int, sure []int) bool {
	for _, s := range sure {
		if s != a && (sc[s] > sc[a] || (sc[s] == sc[a] && s < a)) {
			return false
		}
	}
	return true
}

// TestPolicyExcludesAgainstEnumeration checks the state-level decision
// query of both policies of testdata/oneway_trees.spec against enumerating
// the states of random boxes.
func TestPolicyExcludesAgainstEnumeration(t *testing.T) {
	m := loadSpec(t, "testdata/oneway_trees.spec", "")
	rng := rand.New(rand.NewSource(3))
	for _, name := range []string{"driver_trees", "mixed_trees"} {
		p := policyNamed(t, m, name)
		exact, why := p.Exact()
		if exact != (name == "driver_trees") {
			t.Fatalf("%s: Exact() = %v (%s)", name, exact, why)
		}
		sc := make([]float64, len(p.Outputs()))
		counts := map[trees.Verdict]int{}
		for iter := 0; iter < 150; iter++ {
			lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
			for v, va := range m.Vars {
				a, b := va.Lo+rng.Intn(va.Size()), va.Lo+rng.Intn(va.Size())
				if iter%10 == 0 {
					a, b = va.Lo, va.Hi // full range
				}
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			a := rng.Intn(6)
			var sure []int
			for c := 0; c < 6; c++ {
				if rng.Intn(2) == 0 {
					sure = append(sure, c)
				}
			}
			can := false
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				if err := p.Scores(s, sc); err != nil {
					t.Fatal(err)
				}
				can = can || wins(sc, a, sure)
			})
			d, err := p.Excludes(lo, hi, a, sure, trees.Options{})
			if err != nil {
				t.Fatal(err)
			}
			counts[d.Verdict]++
			switch d.Verdict {
			case trees.Proved:
				if can {
					t.Fatalf("%s: box %v..%v a=%d sure=%v: excluded but a wins in some state", name, lo, hi, a, sure)
				}
			case trees.Refuted:
				for v := range d.Witness {
					if d.Witness[v] < lo[v] || d.Witness[v] > hi[v] {
						t.Fatalf("%s: witness %v outside box", name, d.Witness)
					}
				}
				p.Scores(d.Witness, sc)
				if !wins(sc, a, sure) {
					t.Fatalf("%s: witness %v does not let a=%d win (scores %v)", name, d.Witness, a, sc)
				}
				for v := range d.Witness {
					if d.WitnessLo[v] < lo[v] || d.WitnessHi[v] > hi[v] || d.WitnessLo[v] > d.Witness[v] || d.Witness[v] > d.WitnessHi[v] {
						t.Fatalf("%s: witness box %v..%v does not hold %v within %v..%v", name, d.WitnessLo, d.WitnessHi, d.Witness, lo, hi)
					}
				}
				testutil.BoxStates(d.WitnessLo, d.WitnessHi, func(s symbolic.State) {
					p.Scores(s, sc)
					if !wins(sc, a, sure) {
						t.Fatalf("%s: a=%d does not win at %v in the witness box %v..%v", name, a, s, d.WitnessLo, d.WitnessHi)
					}
				})
			default:
				t.Fatalf("%s: unknown without a budget", name)
			}
			if (d.Verdict == trees.Refuted) != can {
				t.Fatalf("%s: verdict %v, enumeration says can=%v", name, d.Verdict, can)
			}
			// Tiny budgets: unknown or right, never wrong.
			d, err = p.Excludes(lo, hi, a, sure, trees.Options{MaxNodes: 1 + iter%3})
			if err != nil || (d.Verdict == trees.Proved && can) || (d.Verdict == trees.Refuted && !can) {
				t.Fatalf("%s: budgeted verdict %v (err %v), enumeration says can=%v", name, d.Verdict, err, can)
			}
		}
		t.Logf("%s: %v", name, counts)
	}
}

func TestPolicyDeclarationErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`inputs pos, speed, load, parked
    outputs accelerate, decelerate, pickup, drop, park`, "6 class scores but outputs lists 5 labels"},
		{`inputs pos, speed, load
    outputs accelerate, decelerate, pickup, drop, park, cruise`, "4 features but inputs lists 3"},
	} {
		src := `import "../../specs/oneway.spec"
policy trees bad "../../specs/policies/oneway_trees.json" {
    ` + c.body + `
}
`
		m := loadSpec(t, "testdata/bad.spec", src)
		for _, d := range m.Policies {
			if d.Name != "bad" {
				continue
			}
			_, err := symbolic.Instantiate(m, d)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.spec:2") {
				t.Errorf("err %v, want one at bad.spec:2 mentioning %q", err, c.want)
			}
		}
	}
}
