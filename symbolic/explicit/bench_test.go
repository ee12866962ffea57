package explicit_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// lineModel builds, in Go, a two-way line like specs/twoway_line.spec: a
// truck with position, speed and load on a line of n cells, the actions
// right/left (whose position change may slip) and cruise (which may drop a
// package), and a rules policy that shuttles between the ends. Every
// position and load is a start state, so the policy reaches about
// 4 * n * (P+1) states.
func lineModel(n int) *symbolic.Model {
	const vmax, p = 2, 3
	v := symbolic.V
	k := symbolic.Lit
	add := func(es ...*symbolic.Expr) *symbolic.Expr { return &symbolic.Expr{Op: symbolic.OpAdd, Args: es} }
	clamp := func(e *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{{Op: symbolic.OpMin, Args: []*symbolic.Expr{e, k(n + vmax)}}, k(-vmax)}}
	}
	cmp := symbolic.Compare
	const pos, speed, load = 0, 1, 2
	m := &symbolic.Model{
		Name: "line",
		Vars: []symbolic.Var{
			{Name: "pos", Lo: -vmax, Hi: n + vmax},
			{Name: "speed", Lo: -vmax, Hi: vmax},
			{Name: "load", Lo: 0, Hi: p},
		},
		Labels: []symbolic.Label{{Name: "right"}, {Name: "left"}, {Name: "cruise"}},
	}
	as := func(pairs ...any) []symbolic.Assign {
		var out []symbolic.Assign
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, symbolic.Assign{Var: symbolic.VarID(pairs[i].(int)), Value: pairs[i+1].(*symbolic.Expr)})
		}
		return out
	}
	m.Commands = []symbolic.Command{
		{Label: 0, Guard: cmp(v(speed), symbolic.Lt, k(vmax)), Outcomes: []symbolic.Outcome{
			{Assigns: as(pos, clamp(add(v(pos), v(speed), k(1))), speed, add(v(speed), k(1)))},
			{Assigns: as(pos, clamp(add(v(pos), v(speed))), speed, add(v(speed), k(1)))},
		}},
		{Label: 1, Guard: cmp(v(speed), symbolic.Gt, k(-vmax)), Outcomes: []symbolic.Outcome{
			{Assigns: as(pos, clamp(add(v(pos), v(speed), k(-1))), speed, add(v(speed), k(-1)))},
			{Assigns: as(pos, clamp(add(v(pos), v(speed))), speed, add(v(speed), k(-1)))},
		}},
		{Label: 2, Guard: cmp(v(speed), symbolic.Ne, k(0)), Outcomes: []symbolic.Outcome{
			{Assigns: as(pos, clamp(add(v(pos), v(speed))))},
			{Assigns: as(pos, clamp(add(v(pos), v(speed))), load, &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{add(v(load), k(-1)), k(0)}})},
		}},
	}
	twice := func(e *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpMul, K: 2, Args: []*symbolic.Expr{e}}
	}
	m.Policies = []*symbolic.PolicyDecl{{Name: "shuttle", Kind: symbolic.KindRules, Rules: []symbolic.Rule{
		{Cond: symbolic.And(cmp(v(speed), symbolic.Gt, k(0)), cmp(add(v(pos), twice(v(speed))), symbolic.Ge, k(n))), Label: 1},
		{Cond: symbolic.And(cmp(v(speed), symbolic.Lt, k(0)), cmp(add(v(pos), twice(v(speed))), symbolic.Le, k(0))), Label: 0},
		{Cond: cmp(v(load), symbolic.Gt, k(0)), Label: 0},
		{Cond: symbolic.True(), Label: 1},
		{Cond: symbolic.True(), Label: 2},
	}}}
	m.Properties = []*symbolic.Property{{
		Name:   "stay",
		Start:  symbolic.And(cmp(v(speed), symbolic.Eq, k(0)), cmp(v(pos), symbolic.Ge, k(0)), cmp(v(pos), symbolic.Le, k(n))),
		Unsafe: symbolic.Or(cmp(v(pos), symbolic.Lt, k(0)), cmp(v(pos), symbolic.Gt, k(n))),
	}}
	return m
}

// BenchmarkSuccessors measures successor generation alone: unpack, all
// guards, every label's distinct successors (ns/op is ns per state).
func BenchmarkSuccessors(b *testing.B) {
	m := lineModel(1000)
	g := testutil.Generator(b, m, m.Properties[0])
	res, err := explicit.Search(context.Background(), g, explicit.Options{})
	if err != nil {
		b.Fatal(err)
	}
	st := res.Store
	s := make(symbolic.State, len(m.Vars))
	x := &explicit.Expansion{}
	succ := 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		src := st.Get(uint32(i % st.Len()))
		g.L.Unpack(src, s)
		if err := g.Expand(src, s, x); err != nil {
			b.Fatal(err)
		}
		succ += len(x.Succs)
	}
	b.ReportMetric(float64(succ)/float64(b.N), "succ/state")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/state")
}

// BenchmarkBFS measures policy-restricted BFS throughput on the line model
// (about 100k states per op); states/s is the figure to compare.
func BenchmarkBFS(b *testing.B) {
	m := lineModel(6000)
	g := testutil.Generator(b, m, m.Properties[0])
	d, err := explicit.NewDecider(m, m.Policies[0])
	if err != nil {
		b.Fatal(err)
	}
	var states int
	var bytes float64
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: d})
		if err != nil {
			b.Fatal(err)
		}
		states += res.Stats.States
		bytes = res.Stats.BytesPerState()
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(states)/(cpuTime()-cpu0).Seconds(), "states/cpu-s")
	b.ReportMetric(bytes, "bytes/state")
}

// BenchmarkIntern measures the store alone on one-word states.
func BenchmarkIntern(b *testing.B) {
	st := explicit.NewStore(1, 0)
	x := make([]uint64, 1)
	for i := 0; i < b.N; i++ {
		x[0] = uint64(i) * 0x9e3779b97f4a7c15 >> 20
		if _, _, err := st.Intern(x); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's CPU time: on a shared machine it is a steadier
// measure than the wall clock that ns/op uses.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
