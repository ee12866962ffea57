package ic3_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/symbolic"
)

// TestPolIC3BrakingTrees: braking_trees' ensemble splits on inputs over
// two variables, so PolIC3 learns relational cells for it
// (relationalPays); with trees' region certifier (inputs narrowed by the
// region's atoms) it proves the family at N = 10^3 and 10^9 with policy
// facts over regions with linear atoms, and the certificate passes the
// independent checker (which turns each split into a linear atom). With
// boxes only, no N was proved in 20 s.
func TestPolIC3BrakingTrees(t *testing.T) {
	for _, n := range []string{"1000", "1000000000"} {
		m, prop, pd := loadFamily(t, filepath.Join("..", "bench", "ic3scaling", "learned", "braking_trees.spec"), n)
		p, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ic3.Certifier(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.(symbolic.RegionCertifiable); !ok {
			t.Fatalf("trees.Policy is no symbolic.RegionCertifiable")
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
		if res.Stats.RelLemmas == 0 || regionFacts(res.Invariant, res.Facts) == 0 {
			t.Errorf("N=%s: %d relational lemmas, %d policy facts over regions with atoms", n, res.Stats.RelLemmas, regionFacts(res.Invariant, res.Facts))
		}
		ce := certificate(m, prop, pd, res.Invariant)
		ce.Facts = certFacts(m, res.Facts)
		back := roundTrip(t, 0, ce, m, prop, pd)
		if err := cert.CheckWith(context.Background(), back, m, prop, pd, p); err != nil {
			t.Errorf("N=%s: the certificate is rejected: %v", n, err)
		}
	}
}
