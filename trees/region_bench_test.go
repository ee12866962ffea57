package trees

import (
	"math/rand/v2"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
)

// Figures: go test ./trees -run '^$' -bench ExcludeWithin -benchtime 400x

// BenchmarkExcludeWithin compares ExcludesWithin over box ∧ atom with
// Excludes on the bounding box, on the same 200 queries per policy of
// testdata/oneway_trees.spec at L = 2000: pos and speed span their
// ranges, load and parked are fixed, and the atom pos - c*speed <= k or
// >= k passes through a random state. driver_trees is searched over the
// state variables, mixed_trees (an input of two variables) by the
// input-space fallback. Metrics: queries/s, fractions excluded and
// unknown.
func BenchmarkExcludeWithin(b *testing.B) {
	m, diags := lang.Load("testdata/oneway_trees.spec", lang.Options{Defines: map[string]string{"L": "2000"}})
	if diags.HasErrors() {
		b.Fatalf("%s", diags.Render())
	}
	pols := map[string]*Policy{}
	for _, d := range m.Policies {
		if d.Kind != symbolic.KindTrees {
			continue
		}
		p, err := symbolic.Instantiate(m, d)
		if err != nil {
			b.Fatal(err)
		}
		pols[d.Name] = p.(*Policy)
	}
	type query struct {
		lo, hi []int
		atoms  []symbolic.Atom
		a      int
		sure   []int
	}
	r := rand.New(rand.NewPCG(27, 8))
	var qs []query
	for len(qs) < 200 {
		q := query{lo: make([]int, len(m.Vars)), hi: make([]int, len(m.Vars))}
		for v, va := range m.Vars {
			q.lo[v] = va.Lo + r.IntN(va.Hi-va.Lo+1)
			q.hi[v] = q.lo[v]
		}
		q.lo[0], q.hi[0] = m.Vars[0].Lo, m.Vars[0].Hi // pos
		q.lo[1], q.hi[1] = m.Vars[1].Lo, m.Vars[1].Hi // speed
		f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -(1 + r.IntN(500)), Var: 1}})
		s := append(symbolic.State(nil), q.lo...)
		s[0], s[1] = r.IntN(q.hi[0]+1), r.IntN(q.hi[1]+1)
		q.atoms = []symbolic.Atom{{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s)}}
		q.a = r.IntN(6)
		q.sure = []int{(q.a + 1 + r.IntN(5)) % 6}
		qs = append(qs, q)
	}
	opt := Options{MaxNodes: 1 << 14}
	for _, name := range []string{"driver_trees", "mixed_trees"} {
		p := pols[name]
		for _, within := range []bool{false, true} {
			sub := name + "/box"
			if within {
				sub = name + "/region"
			}
			b.Run(sub, func(b *testing.B) {
				verdicts := map[Verdict]int{}
				start, i := time.Now(), 0
				for b.Loop() {
					q := qs[i%len(qs)]
					i++
					var res StateResult
					var err error
					if within {
						res, err = p.ExcludesWithin(q.lo, q.hi, q.atoms, q.a, q.sure, opt)
					} else {
						res, err = p.Excludes(q.lo, q.hi, q.a, q.sure, opt)
					}
					if err != nil {
						b.Fatal(err)
					}
					verdicts[res.Verdict]++
				}
				b.ReportMetric(float64(i)/time.Since(start).Seconds(), "queries/s")
				b.ReportMetric(float64(verdicts[Proved])/float64(i), "excluded-frac")
				b.ReportMetric(float64(verdicts[Unknown])/float64(i), "unknown-frac")
			})
		}
	}
}
