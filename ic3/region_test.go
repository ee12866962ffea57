package ic3_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// regionEnum gives a policy's certifier an ExcludeWithin by enumerating
// the region's integer points (a test double for small models, standing
// in for nn's CROWN with input constraints): a box of more than limit
// states is certified over the whole box by Exclude, which is sound for
// the region (a superset). calls counts the region answers.
type regionEnum struct {
	symbolic.Certifiable
	limit int
	calls *int
}

func (p regionEnum) ExcludeWithin(lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	n := 1
	for v := range lo {
		if lo[v] > hi[v] {
			return symbolic.Excluded, nil, nil
		}
		if n *= hi[v] - lo[v] + 1; n > p.limit {
			return p.Exclude(lo, hi, a, sure)
		}
	}
	*p.calls++
	out := p.Outputs()
	sc := make([]float64, len(out))
	avail := func(l symbolic.LabelID) bool { return l == a || slices.Contains(sure, l) }
	s := slices.Clone(symbolic.State(lo))
	for {
		in := true
		for _, at := range atoms {
			in = in && at.Holds(s)
		}
		if in {
			if err := p.Scores(s, sc); err != nil {
				return symbolic.Undecided, nil, err
			}
			if symbolic.Choose(out, sc, avail) == a {
				return symbolic.Possible, slices.Clone(s), nil
			}
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return symbolic.Excluded, nil, nil
		}
		s[v]++
	}
}

var _ symbolic.RegionCertifiable = regionEnum{}

// regionFacts counts the facts whose region has a linear atom (in their
// invariant box or their sub-region).
func regionFacts(inv [][]smt.Lit, facts []ic3.Fact) int {
	n := 0
	for _, f := range facts {
		for _, l := range append(slices.Clone(inv[f.Box]), f.Within...) {
			if l.Form != nil {
				n++
				break
			}
		}
	}
	return n
}

// TestPolIC3BrakingRegions: on braking_net (invariant v <= d; the network
// chooses down wherever v >= d) PolIC3 with a region certifier proves
// safety with relational lemmas whose policy facts hold over the cells
// along the diagonal, not over their bounding boxes, and the certificate
// passes the independent checker, which re-checks those facts over box
// and atoms. Without the region certifier the run does not get there
// within the same budget (or, if it does, with box facts only).
func TestPolIC3BrakingRegions(t *testing.T) {
	m, prop, pd := loadFamily(t, filepath.Join("..", "bench", "ic3scaling", "learned", "braking_net.spec"), "60")
	p, err := symbolic.Instantiate(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ic3.Certifier(p)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, Learned: regionEnum{c, 1 << 14, &calls}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != ic3.Safe {
		t.Fatalf("braking_net N=60 with a region certifier: %v (%s)", res.Verdict, res.Reason)
	}
	n := regionFacts(res.Invariant, res.Facts)
	t.Logf("%d regions, %d facts (%d over regions with atoms), %d region calls, %d relational lemmas", len(res.Invariant), len(res.Facts), n, res.Stats.RegionCalls, res.Stats.RelLemmas)
	if res.Stats.RegionCalls == 0 || calls == 0 || n == 0 {
		t.Errorf("no fact over a region with atoms: %d region calls, %d facts over regions", res.Stats.RegionCalls, n)
	}
	ce := certificate(m, prop, pd, res.Invariant)
	ce.Facts = certFacts(m, res.Facts)
	back := roundTrip(t, 0, ce, m, prop, pd)
	if err := cert.CheckWith(context.Background(), back, m, prop, pd, p); err != nil {
		t.Fatalf("the certificate is rejected: %v", err)
	}
	// Each region fact, and the same with an atom's constant loosened by
	// 2 (a forged region): the checker's answer must be enumeration's,
	// and at least one forged region must be refused.
	refused := 0
	for _, f := range res.Facts {
		region := append(slices.Clone(res.Invariant[f.Box]), f.Within...)
		lo, hi := bounds(m, region)
		var atoms []symbolic.Atom
		for _, l := range region {
			if l.Form != nil {
				atoms = append(atoms, symbolic.Atom{Form: l.Form, Upper: l.Upper, K: l.K})
			}
		}
		if len(atoms) == 0 {
			continue
		}
		for k := -1; k < len(atoms); k++ {
			fa := slices.Clone(atoms)
			if k >= 0 {
				if fa[k].Upper {
					fa[k].K += 2
				} else {
					fa[k].K -= 2
				}
			}
			want := true
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				for _, a := range fa {
					if !a.Holds(s) {
						return
					}
				}
				sc := make([]float64, len(p.Outputs()))
				if p.Scores(s, sc) == nil && symbolic.Choose(p.Outputs(), sc, func(l symbolic.LabelID) bool { return l == f.Label || slices.Contains(f.Sure, l) }) == f.Label {
					want = false
				}
			})
			err := cert.CheckFact(context.Background(), m, p, cert.Fact{Lo: lo, Hi: hi, Atoms: fa, Label: f.Label, Sure: f.Sure})
			var ff *cert.FactFailure
			switch {
			case err == nil && !want:
				t.Errorf("fact on box %d, label %s, atoms %v: accepted, enumeration refutes it", f.Box, m.Labels[f.Label].Name, fa)
			case err != nil && want:
				t.Errorf("fact on box %d, label %s, atoms %v: refused (%v), enumeration says it holds", f.Box, m.Labels[f.Label].Name, fa, err)
			case err != nil && !errors.As(err, &ff):
				t.Errorf("fact on box %d, label %s, atoms %v: %v, want a counterexample", f.Box, m.Labels[f.Label].Name, fa, err)
			case err != nil:
				refused++
			}
			if k < 0 && !want {
				t.Fatalf("PolIC3's fact on box %d, label %s, atoms %v is false", f.Box, m.Labels[f.Label].Name, fa)
			}
		}
	}
	t.Logf("%d forged regions refused", refused)
	if refused == 0 {
		t.Errorf("no forged region fact was refused")
	}
}

// TestPolIC3NetworksRegions is TestPolIC3Networks with a region
// certifier (regionEnum) on models of wider ranges, where relational
// cells and region certification occur: every answer agrees with BFS,
// and every safe answer's certificate, facts over regions with atoms
// included, passes the checker (verify.Decide checks it).
func TestPolIC3NetworksRegions(t *testing.T) {
	calls := 0
	learnedSuite(t, 400, 1, true, gen.Options{MaxVars: 2, MaxRange: 300}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		p, d, err := nn.Random(m, outs, seed, []int{8})
		if err != nil {
			return nil, nil, err
		}
		return regionEnum{p, 1 << 12, &calls}, d, nil
	})
	t.Logf("%d certifier answers over regions with atoms", calls)
	if calls == 0 {
		t.Errorf("no certifier call over a region with atoms")
	}
}

// TestPolIC3BrakingNetwork: with nn's own region certifier (CROWN with
// input constraints) PolIC3 proves braking_net at N = 10^3 and 10^9 with
// policy facts over regions with linear atoms, and the certificate passes
// the independent checker. Before facts had regions, no N was proved.
func TestPolIC3BrakingNetwork(t *testing.T) {
	for _, n := range []string{"1000", "1000000000"} {
		res := provedWithRegions(t, "braking_net.spec", n)
		if regionFacts(res.Invariant, res.Facts) == 0 {
			t.Errorf("N=%s: no policy fact over a region with atoms", n)
		}
	}
}

// provedWithRegions runs PolIC3 with the policy's own region certifier on
// the learned family spec (bench/ic3scaling/learned) at N = n, fails t
// unless the verdict is safe and the certificate, with its policy facts,
// passes the independent checker, and returns the result for the
// caller's own checks of it. TestPolIC3BrakingNetwork and
// TestPolIC3BrakingTrees share it.
func provedWithRegions(t *testing.T, spec, n string) *ic3.Result {
	t.Helper()
	m, prop, pd := loadFamily(t, filepath.Join("..", "bench", "ic3scaling", "learned", spec), n)
	p, err := symbolic.Instantiate(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ic3.Certifier(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(symbolic.RegionCertifiable); !ok {
		t.Fatalf("%T is no symbolic.RegionCertifiable", c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, Learned: c})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != ic3.Safe {
		t.Fatalf("N=%s: %v (%s)", n, res.Verdict, res.Reason)
	}
	ce := certificate(m, prop, pd, res.Invariant)
	ce.Facts = certFacts(m, res.Facts)
	back := roundTrip(t, 0, ce, m, prop, pd)
	if err := cert.CheckWith(context.Background(), back, m, prop, pd, p); err != nil {
		t.Errorf("N=%s: the certificate is rejected: %v", n, err)
	}
	return res
}
