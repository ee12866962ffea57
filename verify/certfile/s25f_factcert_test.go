package certfile

// TestS25fLearnedCertBruteForce compares ic3/cert's verdict on invariant
// certificates of learned policies (networks and ensembles), with policy
// facts, with a reference written here: the facts hold when no state of
// their region chooses the label (float64 evaluation, symbolic.Choose),
// their sure labels are applicable in every state of the region, and the
// invariant's conditions hold when every label that is applicable and
// that no fact excludes at a state is followed (consecution and range
// errors), as lang/spec.md and SOUNDNESS.md define them. Facts are made
// true by enumeration, then some are widened, narrowed, dropped, given
// another label or a sure label that is not applicable.

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

type refFact struct {
	box    int
	label  symbolic.LabelID
	sure   []symbolic.LabelID
	lo, hi []int // the region: the box's bounds cut by within
}

func applicableIn(m *symbolic.Model, s symbolic.State) []bool {
	app := make([]bool, len(m.Labels))
	for i := range m.Commands {
		if m.Commands[i].Guard.Holds(s) {
			app[m.Commands[i].Label] = true
		}
	}
	return app
}

func inLits(s symbolic.State, b []smt.Lit) bool {
	for _, l := range b {
		if l.Form != nil {
			if a := (symbolic.Atom{Form: l.Form, Upper: l.Upper, K: l.K}); !a.Holds(s) {
				return false
			}
			continue
		}
		if l.Upper && s[l.Var] > l.K || !l.Upper && s[l.Var] < l.K {
			return false
		}
	}
	return true
}

func inBounds(s symbolic.State, lo, hi []int) bool {
	for v := range s {
		if s[v] < lo[v] || s[v] > hi[v] {
			return false
		}
	}
	return true
}

// bruteLearned is the reference verdict ("" valid).
func bruteLearned(m *symbolic.Model, prop *symbolic.Property, p symbolic.Policy, inv [][]smt.Lit, facts []refFact, differ [][2]int) string {
	inD := func(s symbolic.State) bool {
		for _, d := range differ {
			if s[d[0]] == s[d[1]] {
				return false
			}
		}
		return true
	}
	var states []symbolic.State
	for _, s := range gen.States(m) {
		// every fact, exclusion and condition is used within the
		// disequalities only
		if inD(s) {
			states = append(states, s)
		}
	}
	out := p.Outputs()
	sc := make([]float64, len(out))
	for i, f := range facts {
		for _, s := range states {
			if !inLits(s, inv[f.box]) || !inBounds(s, f.lo, f.hi) {
				continue
			}
			app := applicableIn(m, s)
			for _, l := range f.sure {
				if !app[l] {
					return fmt.Sprintf("fact %d: sure label %d not applicable in %v", i, l, s)
				}
			}
			if err := p.Scores(s, sc); err != nil {
				return "scores: " + err.Error()
			}
			ok := func(l symbolic.LabelID) bool { return l == f.label || containsLabel(f.sure, l) }
			if symbolic.ChooseFor(p, sc, ok) == f.label {
				return fmt.Sprintf("fact %d: label chosen in %v", i, s)
			}
		}
	}
	in := func(s symbolic.State) bool {
		if m.InRange(s) >= 0 || !inD(s) {
			return false
		}
		for _, b := range inv {
			if inLits(s, b) {
				return true
			}
		}
		return false
	}
	if prop.Start == nil {
		s := make(symbolic.State, len(m.Vars))
		for i, v := range m.Vars {
			s[i] = v.Init
		}
		if !in(s) {
			return "init"
		}
	} else {
		for _, s := range gen.States(m) {
			if prop.Start.Holds(s) && !in(s) {
				return "init"
			}
		}
	}
	for _, s := range states {
		if !in(s) {
			continue
		}
		if prop.Unsafe.Holds(s) {
			return "safety"
		}
		if prop.Goal != nil && prop.Goal.Holds(s) {
			continue
		}
		app := applicableIn(m, s)
		for a, ok := range app {
			if !ok {
				continue
			}
			excluded := false
			for _, f := range facts {
				if f.label == symbolic.LabelID(a) && inLits(s, inv[f.box]) && inBounds(s, f.lo, f.hi) {
					excluded = true
				}
			}
			if excluded {
				continue
			}
			for i := range m.Commands {
				c := &m.Commands[i]
				if int(c.Label) != a || !c.Guard.Holds(s) {
					continue
				}
				for oi := range c.Outcomes {
					next := append(symbolic.State(nil), s...)
					for _, as := range c.Outcomes[oi].Assigns {
						v := as.Value.EvalBig(s)
						va := m.Vars[as.Var]
						if v.Cmp(big.NewInt(int64(va.Lo))) < 0 || v.Cmp(big.NewInt(int64(va.Hi))) > 0 {
							return fmt.Sprintf("range error at %v label %d", s, a)
						}
						next[as.Var] = int(v.Int64())
					}
					if !in(next) {
						return fmt.Sprintf("consecution %v -> %v label %d", s, next, a)
					}
				}
			}
		}
	}
	return ""
}

func TestS25fLearnedCertBruteForce(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 30
	}
	agree, valid := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%3 == 0})
		prop := m.Properties[0]
		r := rand.New(rand.NewPCG(seed, 77))
		var outputs []symbolic.LabelID
		for _, i := range r.Perm(len(m.Labels)) {
			outputs = append(outputs, symbolic.LabelID(i))
		}
		var p symbolic.Policy
		var decl *symbolic.PolicyDecl
		var err error
		if seed%2 == 0 {
			var np *nn.Policy
			np, decl, err = nn.Random(m, outputs, seed, []int{4})
			p = np
		} else {
			var tp *trees.Policy
			tp, decl, err = trees.Random(m, outputs, seed, 3, 2)
			p = tp
		}
		if err != nil {
			t.Fatal(err)
		}
		decl.ArgMaxAll = seed%5 == 0
		// half the models: a disequality between two variables
		var differ [][2]int
		var differNames [][2]string
		if len(m.Vars) >= 2 && seed%4 < 2 {
			differ = [][2]int{{0, 1}}
			differNames = [][2]string{{m.Vars[0].Name, m.Vars[1].Name}}
		}
		m.Policies = append(m.Policies, decl)
		// candidate invariants: random unions of boxes, and the whole space
		for k := 0; k < 6; k++ {
			var inv [][]smt.Lit
			if k == 0 {
				inv = [][]smt.Lit{{}}
			} else {
				for j := 0; j < 1+r.IntN(3); j++ {
					var b []smt.Lit
					for v, va := range m.Vars {
						if r.IntN(2) == 0 {
							continue
						}
						a, c := va.Lo+r.IntN(va.Size()), va.Lo+r.IntN(va.Size())
						b = append(b, smt.Lit{Var: symbolic.VarID(v), K: min(a, c)}, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: max(a, c)})
					}
					for _, a := range randomAtoms(r, m) {
						b = append(b, smt.FormLit(a.Form, a.Upper, a.K))
					}
					inv = append(inv, b)
				}
			}
			// true facts: per box, per label never chosen in the box (with
			// the labels applicable throughout as sure), sometimes within a
			// sub-box
			var facts []refFact
			for bi, b := range inv {
				lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
				for v, va := range m.Vars {
					lo[v], hi[v] = va.Lo, va.Hi
				}
				if r.IntN(3) == 0 {
					v := r.IntN(len(m.Vars))
					va := m.Vars[v]
					a, c := va.Lo+r.IntN(va.Size()), va.Lo+r.IntN(va.Size())
					lo[v], hi[v] = min(a, c), max(a, c)
				}
				var region []symbolic.State
				for _, s := range gen.States(m) {
					if inLits(s, b) && inBounds(s, lo, hi) {
						region = append(region, s)
					}
				}
				all := make([]bool, len(m.Labels))
				for i := range all {
					all[i] = true
				}
				for _, s := range region {
					app := applicableIn(m, s)
					for i := range all {
						all[i] = all[i] && app[i]
					}
				}
				var sure []symbolic.LabelID
				for i, ok := range all {
					if ok {
						sure = append(sure, symbolic.LabelID(i))
					}
				}
				for l := range m.Labels {
					f := refFact{box: bi, label: symbolic.LabelID(l), lo: lo, hi: hi}
					for _, x := range sure {
						if x != f.label {
							f.sure = append(f.sure, x)
						}
					}
					if bruteFactOnly(m, p, inv, f, differ) {
						facts = append(facts, f)
					}
				}
			}
			// a mutation
			switch r.IntN(5) {
			case 0: // drop a fact
				if len(facts) > 0 {
					i := r.IntN(len(facts))
					facts = append(facts[:i:i], facts[i+1:]...)
				}
			case 1: // widen a fact's region to the whole space
				if len(facts) > 0 {
					i := r.IntN(len(facts))
					f := facts[i]
					f.lo, f.hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
					for v, va := range m.Vars {
						f.lo[v], f.hi[v] = va.Lo, va.Hi
					}
					facts[i] = f
				}
			case 2: // another label
				if len(facts) > 0 {
					i := r.IntN(len(facts))
					facts[i].label = symbolic.LabelID(r.IntN(len(m.Labels)))
				}
			case 3: // a sure label more
				if len(facts) > 0 {
					i := r.IntN(len(facts))
					l := symbolic.LabelID(r.IntN(len(m.Labels)))
					if l != facts[i].label && !containsLabel(facts[i].sure, l) {
						facts[i].sure = append(append([]symbolic.LabelID(nil), facts[i].sure...), l)
					}
				}
			}
			want := bruteLearned(m, prop, p, inv, facts, differ)
			h, err := invcert.ModelHash(m, prop.Name, decl.Name)
			if err != nil {
				t.Fatal(err)
			}
			c := &invcert.Cert{Header: invcert.Header{Model: "gen.spec", Property: prop.Name, Policy: decl.Name, Hash: h, Boxes: len(inv), Differ: differNames}, Inv: inv}
			for _, v := range m.Vars {
				c.Vars = append(c.Vars, v.Name)
			}
			for _, f := range facts {
				pf := invcert.PolicyFact{Box: f.box, Label: m.Labels[f.label].Name}
				for _, l := range f.sure {
					pf.Sure = append(pf.Sure, m.Labels[l].Name)
				}
				for v, va := range m.Vars {
					if f.lo[v] > va.Lo {
						pf.Within = append(pf.Within, fmt.Sprintf("%s>=%d", va.Name, f.lo[v]))
					}
					if f.hi[v] < va.Hi {
						pf.Within = append(pf.Within, fmt.Sprintf("%s<=%d", va.Name, f.hi[v]))
					}
				}
				pf.Differ = len(differ) > 0 && r.IntN(2) == 0
				c.Facts = append(c.Facts, pf)
			}
			got := invcert.CheckWith(context.Background(), c, m, prop, decl, p)
			if (want == "") != (got == nil) {
				t.Errorf("seed %d candidate %d: reference says %q, cert.Check says %v\nfacts %+v\ninv %v\nmodel:\n%s", seed, k, want, got, c.Facts, inv, printModel(m))
				continue
			}
			agree++
			if want == "" {
				valid++
			}
		}
	}
	t.Logf("%d verdicts agree, %d valid", agree, valid)
}

// bruteFactOnly reports whether fact f holds (its label never chosen in
// its region, its sure labels applicable there).
func bruteFactOnly(m *symbolic.Model, p symbolic.Policy, inv [][]smt.Lit, f refFact, differ [][2]int) bool {
	sc := make([]float64, len(p.Outputs()))
	for _, s := range gen.States(m) {
		if !inLits(s, inv[f.box]) || !inBounds(s, f.lo, f.hi) || !differs(s, differ) {
			continue
		}
		app := applicableIn(m, s)
		for _, l := range f.sure {
			if !app[l] {
				return false
			}
		}
		p.Scores(s, sc)
		ok := func(l symbolic.LabelID) bool { return l == f.label || containsLabel(f.sure, l) }
		if symbolic.ChooseFor(p, sc, ok) == f.label {
			return false
		}
	}
	return true
}

func differs(s symbolic.State, differ [][2]int) bool {
	for _, d := range differ {
		if s[d[0]] == s[d[1]] {
			return false
		}
	}
	return true
}
