package ic3_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/lang"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// weakCertifier answers Undecided on every region of more than limit
// states (and on a pseudo-random share of the smaller ones), else what
// the policy's own certifier answers: a sound but weak certifier, which
// makes PolIC3 split (split.go) on nearly every certification.
type weakCertifier struct {
	symbolic.Certifiable
	limit int
	share uint32 // of 16: regions above one state undecided by hash
}

func (w *weakCertifier) undecided(lo, hi []int, a symbolic.LabelID, atoms int) bool {
	n := 1
	for i := range lo {
		d := hi[i] - lo[i] + 1
		if d <= 0 {
			return false
		}
		if n > w.limit || d > w.limit {
			return true
		}
		n *= d
	}
	if n > w.limit {
		return true
	}
	if n > 1 && w.share > 0 {
		h := fnv.New32a()
		fmt.Fprint(h, lo, hi, a, atoms)
		return h.Sum32()%16 < w.share
	}
	return false
}

func (w *weakCertifier) Exclude(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	if w.undecided(lo, hi, a, 0) {
		return symbolic.Undecided, nil, nil
	}
	return w.Certifiable.Exclude(lo, hi, a, sure)
}

type weakRegionCertifier struct{ *weakCertifier }

func (w weakRegionCertifier) ExcludeWithin(lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	if w.undecided(lo, hi, a, len(atoms)) {
		return symbolic.Undecided, nil, nil
	}
	return w.Certifiable.(symbolic.RegionCertifiable).ExcludeWithin(lo, hi, atoms, a, sure)
}

func weaken(p symbolic.Policy, limit int, share uint32) symbolic.Policy {
	c, ok := p.(symbolic.Certifiable)
	if !ok {
		return p
	}
	w := &weakCertifier{Certifiable: c, limit: limit, share: share}
	if _, ok := c.(symbolic.RegionCertifiable); ok {
		return weakRegionCertifier{w}
	}
	return w
}

// weakSuite: PolIC3 with a weak certifier against BFS; every safe
// answer's certificate (its facts over split parts) is re-checked by
// verify.Decide, and the invariant by enumeration.
func weakSuite(t *testing.T, models int, first uint64, g gen.Options, limit int, share uint32, ic3opts verify.IC3Options, mk testutil.MakePolicy) int {
	pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
	facts, within, splits := 0, 0, 0
	v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		p := pols[pd]
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3", IC3: ic3opts})
		if err != nil {
			return conformance.Answer{}, err
		}
		if res.IC3 != nil {
			splits += res.IC3.Stats.SplitCalls
		}
		switch res.Answer {
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
		case explicit.Safe:
			if err := checkInvariantPolicy(m, prop, p, res.IC3.Invariant, res.IC3.Differ...); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
			}
			for _, f := range res.IC3.Facts {
				facts++
				if f.Within != nil {
					within++
				}
			}
			return conformance.Answer{Verdict: explicit.Safe}, nil
		}
		return conformance.Answer{Verdict: explicit.Unknown}, nil
	}
	conformance.Verify(t, v, conformance.Options{Models: models, FirstSeed: first, Gen: g, MinDecided: 1,
		Policy: testutil.RecordPolicies(pols, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			p, d, err := mk(m, outs, seed)
			if err != nil {
				return nil, nil, err
			}
			return weaken(p, limit, share), d, nil
		})})
	t.Logf("%d policy facts re-checked, %d on parts; %d split calls", facts, within, splits)
	return splits
}

func TestS27bWeakCertifierSplits(t *testing.T) {
	mk := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		switch seed % 3 {
		case 0:
			return trees.Random(m, outs, seed, 4, 3)
		case 1:
			return nearTieNetwork(m, outs, seed)
		}
		return nn.Random(m, outs, seed, []int{8})
	}
	total := 0
	for _, c := range []struct {
		limit   int
		share   uint32
		nocache bool
	}{{16, 0, false}, {64, 8, true}, {200, 4, false}} {
		t.Run(fmt.Sprintf("limit%d_share%d_nocache%v", c.limit, c.share, c.nocache), func(t *testing.T) {
			total += weakSuite(t, 150, 27000+uint64(c.limit), gen.Options{MaxVars: 3, MaxRange: 300, RangeErrors: true, MaxLabels: 4}, c.limit, c.share, verify.IC3Options{NoCertCache: c.nocache}, mk)
		})
	}
	if total == 0 {
		t.Error("no split: the suite tests nothing of split.go")
	}
}

// TestS27bSplitUnreadWideVar: s27a's network reads x in 0..20000 beside
// a counter z it does not read. With z in 0..5000 the split parts (x
// halved, z whole) held 41 million states each, which the checker could
// not enumerate (verify: "internal error: the ic3 invariant does not
// check"); with z in 0..1000000 the split halved z, leaving both halves
// undecided, and PolIC3 stayed unknown. Splits now cut the variables the
// policy reads first, and the checker fixes the variables nothing reads.
func TestS27bSplitUnreadWideVar(t *testing.T) {
	for _, zhi := range []int{5000, 1000000} {
		dir := t.TempDir()
		spec := fmt.Sprintf(`model lkw
var z : 0 .. %d = 0
var x : 0 .. 20000 = 20000
var crashed : bool = false
action good when !crashed -> x' = max(x - 1, 0), z' = min(z + 1, %d)
action bad when !crashed -> crashed' = true
policy nn net "net.json" {
    inputs  x
    outputs good, bad
}
property p { unsafe crashed }
`, zhi, zhi)
		for name, src := range map[string]string{"lk.spec": spec, "net.json": s27aNet} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m, diags := lang.Load(filepath.Join(dir, "lk.spec"), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop, pd := m.Property(""), m.Policy("net")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Safe {
			t.Fatalf("z in 0..%d: %v (%s), want safe", zhi, res.Verdict, res.Reason)
		}
		c := certificate(m, prop, pd, res.Invariant)
		c.Facts = certFacts(m, res.Facts)
		back := roundTrip(t, 0, c, m, prop, pd)
		if err := cert.Check(context.Background(), back, m, prop, pd); err != nil {
			t.Errorf("z in 0..%d: the certificate of %d boxes and %d facts is rejected: %v", zhi, len(res.Invariant), len(res.Facts), err)
		}
	}
}
