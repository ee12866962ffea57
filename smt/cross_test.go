package smt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// This file cross-checks the transition encoding against a straightforward
// explicit successor function on random small models: from every state,
// the successors the solver admits (enumerated with blocking clauses) must
// be exactly the explicit ones, for all labels together and per label.

// randModel is a tiny generator of models that use the whole expression
// language and may leave ranges (so the range rule is exercised too).
func randModel(r *rand.Rand) *symbolic.Model {
	m := &symbolic.Model{Name: "rand"}
	nv := 1 + r.IntN(3)
	for i := 0; i < nv; i++ {
		v := symbolic.Var{Name: fmt.Sprintf("v%d", i)}
		if r.IntN(3) == 0 {
			v.Name, v.Bool, v.Hi = fmt.Sprintf("b%d", i), true, 1
		} else {
			v.Lo = r.IntN(5) - 2
			v.Hi = v.Lo + 1 + r.IntN(4)
		}
		m.Vars = append(m.Vars, v)
	}
	nl := 1 + r.IntN(3)
	for i := 0; i < nl; i++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("a%d", i)})
	}
	var expr func(d int) *symbolic.Expr
	var cond func(d int) *symbolic.Cond
	v := func() symbolic.VarID { return symbolic.VarID(r.IntN(nv)) }
	expr = func(d int) *symbolic.Expr {
		if d == 0 || r.IntN(3) == 0 {
			if r.IntN(2) == 0 {
				return symbolic.Lit(r.IntN(7) - 3)
			}
			return symbolic.V(v())
		}
		a := expr(d - 1)
		switch r.IntN(10) {
		case 0:
			return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{a, expr(d - 1), expr(d - 1)}}
		case 1:
			return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, expr(d - 1)}}
		case 2:
			return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{a}}
		case 3:
			return &symbolic.Expr{Op: symbolic.OpMul, K: r.IntN(5) - 2, Args: []*symbolic.Expr{a}}
		case 4:
			return &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + r.IntN(3), Args: []*symbolic.Expr{a}}
		case 5:
			return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{a, expr(d - 1)}}
		case 6:
			return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{a, expr(d - 1)}}
		case 7:
			return &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{a}}
		case 8:
			return &symbolic.Expr{Op: symbolic.OpIte, Cond: cond(d - 1), Args: []*symbolic.Expr{a, expr(d - 1)}}
		}
		return &symbolic.Expr{Op: symbolic.OpBool, Cond: cond(d - 1)}
	}
	cond = func(d int) *symbolic.Cond {
		if d == 0 || r.IntN(3) == 0 {
			switch r.IntN(6) {
			case 0:
				return symbolic.True()
			case 1:
				return &symbolic.Cond{Op: symbolic.CVar, Var: v()}
			}
			return symbolic.Compare(expr(1), symbolic.CmpOp(r.IntN(6)), expr(1))
		}
		switch r.IntN(4) {
		case 0:
			return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{cond(d - 1)}}
		case 1:
			return &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1)}}
		case 2:
			return &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1)}}
		}
		return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1)}}
	}
	nc := 1 + r.IntN(5)
	for i := 0; i < nc; i++ {
		c := symbolic.Command{Label: symbolic.LabelID(r.IntN(nl)), Guard: cond(2)}
		no := 1 + r.IntN(3)
		for j := 0; j < no; j++ {
			var o symbolic.Outcome
			for w := range nv {
				if r.IntN(2) == 0 {
					continue
				}
				val := expr(2)
				if m.Vars[w].Bool {
					val = &symbolic.Expr{Op: symbolic.OpBool, Cond: cond(1)}
				}
				o.Assigns = append(o.Assigns, symbolic.Assign{Var: symbolic.VarID(w), Value: val})
			}
			c.Outcomes = append(c.Outcomes, o)
		}
		m.Commands = append(m.Commands, c)
	}
	p := &symbolic.Property{Name: "p", Unsafe: cond(1)}
	if r.IntN(2) == 0 {
		p.Goal = cond(1)
	}
	m.Properties = []*symbolic.Property{p}
	return m
}

// explicitSucc returns the in-range successors of s under labels (nil:
// all), sorted and without duplicates.
func explicitSucc(m *symbolic.Model, p *symbolic.Property, s symbolic.State, label symbolic.LabelID) []string {
	if p != nil && (p.Unsafe.Holds(s) || p.Goal != nil && p.Goal.Holds(s)) {
		return nil
	}
	var out []string
	for _, c := range m.Commands {
		if label != symbolic.NoLabel && c.Label != label || !c.Guard.Holds(s) {
			continue
		}
		for _, o := range c.Outcomes {
			t := slices.Clone(s)
			for _, a := range o.Assigns {
				t[a.Var] = a.Value.Eval(s)
			}
			if m.InRange(t) < 0 {
				out = append(out, fmt.Sprint(t))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// allStates calls f for every in-range state of m.
func allStates(m *symbolic.Model, f func(symbolic.State)) { gen.EachState(m, f) }

// smtSucc enumerates the next states the solver admits with s as the
// current state, under the assumptions.
func smtSucc(t *testing.T, e *Encoder, sv *Solver, s symbolic.State, assume ...Term) []string {
	t.Helper()
	x := e.X
	mark := x.Mark()
	defer x.Release(mark)
	must(t, sv.Push())
	defer func() { must(t, sv.Pop(1)) }()
	must(t, sv.Assert(e.State(s, e.Cur)))
	var out []string
	for {
		r, err := sv.Check(assume...)
		must(t, err)
		if r == Unsat {
			break
		}
		if r != Sat {
			t.Fatalf("unknown: %s", sv.ReasonUnknown())
		}
		n, err := e.Decode(sv, e.Next)
		must(t, err)
		out = append(out, fmt.Sprint(n))
		if len(out) > 1000 {
			t.Fatal("blocking clauses do not terminate")
		}
		must(t, sv.Assert(x.Not(e.State(n, e.Next))))
	}
	slices.Sort(out)
	return out
}

func TestTransitionMatchesExplicit(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	models := 300
	if testing.Short() {
		models = 40
	}
	states, succs := 0, 0
	defer func() { t.Logf("%d models, %d states, %d successors agree", models, states, succs) }()
	for i := 0; i < models; i++ {
		m := randModel(r)
		x := newCtx(t)
		e, err := NewEncoder(x, m)
		must(t, err)
		p := m.Properties[0]
		if i%4 == 0 {
			p = nil // no terminal states
		}
		tr, err := e.Transition(TransOptions{Property: p})
		must(t, err)
		sv := newSolver(t, x)
		must(t, sv.Assert(tr.Formula))
		allStates(m, func(s symbolic.State) {
			states++
			want, got := explicitSucc(m, p, s, symbolic.NoLabel), smtSucc(t, e, sv, s)
			if !slices.Equal(got, want) {
				t.Fatalf("model %d, state %v: smt successors %v, explicit %v", i, s, got, want)
			}
			succs += len(want)
			for l := range m.Labels {
				want := explicitSucc(m, p, s, symbolic.LabelID(l))
				if got := smtSucc(t, e, sv, s, tr.Label[l]); !slices.Equal(got, want) {
					t.Fatalf("model %d, state %v, label %d: smt successors %v, explicit %v", i, s, l, got, want)
				}
			}
		})
		x.Close()
	}
}

// TestRestrictedTransition checks TransOptions.Labels: the relation
// restricted to one label is the unrestricted one under that label's
// assumption.
func TestRestrictedTransition(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 10; i++ {
		m := randModel(r)
		x := newCtx(t)
		e, err := NewEncoder(x, m)
		must(t, err)
		p := m.Properties[0]
		for l := range m.Labels {
			tr, err := e.Transition(TransOptions{Property: p, Labels: []symbolic.LabelID{symbolic.LabelID(l)}})
			must(t, err)
			sv := newSolver(t, x)
			must(t, sv.Assert(tr.Formula))
			allStates(m, func(s symbolic.State) {
				want := explicitSucc(m, p, s, symbolic.LabelID(l))
				if got := smtSucc(t, e, sv, s); !slices.Equal(got, want) {
					t.Fatalf("model %d, state %v, only label %d: smt %v, explicit %v", i, s, l, got, want)
				}
			})
			sv.Close()
		}
		x.Close()
	}
}

// TestChecksMatchExplicit compares CheckBounds and FindDeadlocks with
// enumeration of all states on random models.
func TestChecksMatchExplicit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	models := 100
	if testing.Short() {
		models = 20
	}
	nviol, ndead := 0, 0
	for i := 0; i < models; i++ {
		m := randModel(r)
		if i%3 == 0 {
			m.Properties = nil
		}
		p := m.Property("")
		terminal := func(s symbolic.State) bool {
			return p != nil && (p.Unsafe.Holds(s) || p.Goal != nil && p.Goal.Holds(s))
		}
		wantViol := map[Query]bool{}
		wantDead := false
		allStates(m, func(s symbolic.State) {
			if terminal(s) {
				return
			}
			dead := true
			for ci, c := range m.Commands {
				if !c.Guard.Holds(s) {
					continue
				}
				dead = false
				for oi, o := range c.Outcomes {
					for _, a := range o.Assigns {
						if v := a.Value.Eval(s); v < m.Vars[a.Var].Lo || v > m.Vars[a.Var].Hi {
							wantViol[Query{Property: p, Command: ci, Outcome: oi, Var: a.Var}] = true
						}
					}
				}
			}
			wantDead = wantDead || dead
		})
		br, err := CheckBounds(m, CheckOptions{})
		must(t, err)
		if len(br.Undecided) > 0 {
			t.Fatalf("model %d: undecided %v", i, br.Undecided)
		}
		got := map[Query]bool{}
		for _, v := range br.Violations {
			got[v.Query] = true
			if terminal(v.State) || m.InRange(v.State) >= 0 {
				t.Errorf("model %d: witness %v is terminal or out of range", i, v.State)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(wantViol) {
			t.Fatalf("model %d: violations %v, want %v", i, got, wantViol)
		}
		nviol += len(got)
		dr, err := FindDeadlocks(m, CheckOptions{})
		must(t, err)
		if gotDead := len(dr.Deadlocks) > 0; gotDead != wantDead {
			t.Fatalf("model %d: deadlock %v, want %v", i, gotDead, wantDead)
		}
		if wantDead {
			ndead++
		}
	}
	t.Logf("%d models: %d range violations, %d with deadlocks, all agree", models, nviol, ndead)
}

// TestChecksUnknown: queries stopped by a limit or a cancelled context are
// reported as undecided, never as answers.
func TestChecksUnknown(t *testing.T) {
	m := randModel(rand.New(rand.NewPCG(11, 11)))
	for m.Commands[0].Outcomes[0].Assigns == nil {
		m = randModel(rand.New(rand.NewPCG(uint64(len(m.Vars)+7), 1)))
	}
	// Make every assignment need a query: x' = x + 100 cannot be proved
	// in range by interval arithmetic.
	for ci := range m.Commands {
		for oi := range m.Commands[ci].Outcomes {
			for ai := range m.Commands[ci].Outcomes[oi].Assigns {
				a := &m.Commands[ci].Outcomes[oi].Assigns[ai]
				a.Value = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{a.Value, symbolic.Lit(100)}}
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	br, err := CheckBounds(m, CheckOptions{Context: ctx})
	must(t, err)
	if len(br.Violations) != 0 || len(br.Undecided) == 0 {
		t.Errorf("cancelled bounds check: %d violations, %d undecided", len(br.Violations), len(br.Undecided))
	}
	dr, err := FindDeadlocks(m, CheckOptions{Context: ctx})
	must(t, err)
	if len(dr.Deadlocks) != 0 || len(dr.Undecided) == 0 {
		t.Errorf("cancelled deadlock check: %d deadlocks, %d undecided", len(dr.Deadlocks), len(dr.Undecided))
	}
	for _, u := range br.Undecided {
		if u.Reason == "" {
			t.Error("undecided without a reason")
		}
	}
}
