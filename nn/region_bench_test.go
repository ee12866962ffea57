package nn

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
)

// Figures: go test ./nn -run '^$' -bench ExcludeWithin -benchtime 400x

// regionQuery is one query of BenchmarkExcludeWithin: a box, atoms that
// cut it, a label and its competitor.
type regionQuery struct {
	lo, hi []int
	atoms  []symbolic.Atom
	a      int
	sure   []int
}

// BenchmarkExcludeWithin compares ExcludesWithin over box ∧ atoms with
// Excludes on the bounding box alone, on the same queries: on the
// example network policies, boxes where two variables span their range
// (the others fixed) cut by an atom x_i - x_j <= k or >= k through a
// random state; on braking_net at N = 10^9, cells that straddle the
// diagonal, cut by v - d >= 0, where up is excluded (with down sure).
// Metrics: queries/s, and the fractions of queries excluded and left
// unknown (MaxNodes 2000).
func BenchmarkExcludeWithin(b *testing.B) {
	type family struct {
		name string
		p    *Policy
		qs   []regionQuery
	}
	var fams []family
	for _, e := range examplePolicies {
		p := e.bind(b)
		r := rand.New(rand.NewPCG(27, 5))
		nout := p.Net.Outputs()
		var qs []regionQuery
		for len(qs) < 200 {
			q := regionQuery{lo: make([]int, len(e.vars)), hi: make([]int, len(e.vars))}
			for v := range q.lo {
				q.lo[v] = e.vars[v][0] + r.IntN(e.vars[v][1]-e.vars[v][0]+1)
				q.hi[v] = q.lo[v]
			}
			vs := r.Perm(len(e.vars))[:2]
			for _, v := range vs {
				q.lo[v], q.hi[v] = e.vars[v][0], e.vars[v][1]
			}
			f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: symbolic.VarID(vs[0])}, {Coef: -1, Var: symbolic.VarID(vs[1])}})
			s := make(symbolic.State, len(e.vars))
			for v := range s {
				s[v] = q.lo[v] + r.IntN(q.hi[v]-q.lo[v]+1)
			}
			q.atoms = []symbolic.Atom{{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s)}}
			q.a = r.IntN(nout)
			q.sure = []int{(q.a + 1 + r.IntN(nout-1)) % nout}
			qs = append(qs, q)
		}
		fams = append(fams, family{e.name, p, qs})
	}
	{
		const n = 1000000000
		m, diags := lang.Load("../bench/ic3scaling/learned/braking_net.spec", lang.Options{Defines: map[string]string{"N": fmt.Sprint(n)}})
		if diags.HasErrors() {
			b.Fatalf("%s", diags.Render())
		}
		pol, err := symbolic.Instantiate(m, m.Policies[0])
		if err != nil {
			b.Fatal(err)
		}
		p := pol.(*Policy)
		// Variables d, v; outputs go, stop, up, down.
		f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 1}, {Coef: -1, Var: 0}})
		r := rand.New(rand.NewPCG(27, 6))
		var qs []regionQuery
		for len(qs) < 200 {
			w := 1 << r.IntN(30)
			c := 1 + r.IntN(n-w)
			qs = append(qs, regionQuery{lo: []int{c, c}, hi: []int{c + w, c + w},
				atoms: []symbolic.Atom{{Form: f, K: 0}}, a: 2, sure: []int{3}})
		}
		fams = append(fams, family{"braking_net_1e9", p, qs})
	}
	opt := Options{MaxNodes: 2000}
	for _, fam := range fams {
		for _, within := range []bool{false, true} {
			name := fam.name + "/box"
			if within {
				name = fam.name + "/region"
			}
			b.Run(name, func(b *testing.B) {
				verdicts := map[Verdict]int{}
				start, i := time.Now(), 0
				for b.Loop() {
					q := fam.qs[i%len(fam.qs)]
					i++
					var res StateResult
					var err error
					if within {
						res, err = fam.p.ExcludesWithin(q.lo, q.hi, q.atoms, q.a, q.sure, opt)
					} else {
						res, err = fam.p.Excludes(q.lo, q.hi, q.a, q.sure, opt)
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
