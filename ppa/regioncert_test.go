package ppa_test

import (
	"context"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/trees"
	"vigil/verify"
)

// wide.spec's start cube (a != b, a + 2c <= 90, !hit: 76,704 states) is
// above the 65,536 states a certificate lists one by one with its other
// cubes; bad is never applicable there (a == b is outside it), and up and
// down move c within the cube or out of it.
const wideCubes = `model wide
var a : 0 .. 47
var b : 0 .. 47
var c : 0 .. 47
var hit : bool = false
action up when c < 47 -> c' = c + 1
action down when c > 0 -> c' = c - 1
action bad when !hit && a == b -> hit' = true
property p {
    start  a != b && a + 2 * c <= 90 && !hit
    unsafe hit
}
`

// TestRegionCertificates: safe answers over cubes above maxCertStates
// export a certificate: a learned policy's cube state by state with its
// exact facts, merged into boxes (up to maxLargeStates; the regions with
// linear atoms beyond are bench/adversarial/ppa_region_cert.txtar's), and
// verify.Decide checks each with vigil cert check's checker. Random
// networks and ensembles, safe as bfs says (bad is never applicable).
func TestRegionCertificates(t *testing.T) {
	m := testutil.LoadSource(t, "wide.spec", wideCubes)
	prop := m.Properties[0]
	mks := []testutil.MakePolicy{
		func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{4})
		},
		func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 3, 2)
		},
	}
	seeds := uint64(2)
	if testing.Short() {
		seeds = 1
	}
	certs, facts := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		for i, mk := range mks {
			pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
			pol, pd, err := testutil.RecordPolicies(pols, mk)(m, seed)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: pol, Engine: "ppa", Certificate: true})
			cancel()
			if err != nil {
				t.Fatalf("seed %d, policy %d: %v", seed, i, err)
			}
			if v.Answer != explicit.Safe {
				t.Fatalf("seed %d, policy %d: %v (%s), want safe", seed, i, v.Answer, v.Reason)
			}
			if v.Invariant == nil {
				t.Fatalf("seed %d, policy %d: no certificate: %s", seed, i, v.CertNote)
			}
			certs++
			facts += len(v.Invariant.Header.Facts)
			t.Logf("seed %d, policy %d: %d regions, %d facts", seed, i, v.Invariant.Header.Boxes, len(v.Invariant.Header.Facts))
		}
	}
	if facts == 0 {
		t.Error("no policy fact in any certificate: the facts over regions went unexercised")
	}
	t.Logf("%d certificates checked, %d policy facts", certs, facts)
}
