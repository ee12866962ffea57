package certfile

// TestS25fInvariantCheckBruteForce compares ic3/cert's verdict on
// invariant certificates (SMT-LIB text, the exhaustive evaluator and Z3)
// with a reference written here from the semantics alone: every state
// within the ranges is enumerated, and init, safety, range errors and
// consecution are tested one state at a time with the IR's evaluators
// (Cond.Holds, Expr.EvalBig, symbolic.Decide), never through smtlib.
// The invariants are the reachable states (as point boxes), that set
// with one state removed, its bounding box, and random unions of
// boxes, on generated models with and without range errors, under the
// model's rules policy and under every label.

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// bruteInv is the reference: "" when the invariant inv (a union of
// boxes, intersected with the ranges) is a proof for (m, prop, pol), else
// the first condition that fails.
func bruteInv(m *symbolic.Model, prop *symbolic.Property, pol symbolic.Policy, inv [][]smt.Lit) string {
	in := func(s symbolic.State) bool {
		for i, v := range m.Vars {
			if s[i] < v.Lo || s[i] > v.Hi {
				return false
			}
		}
	box:
		for _, b := range inv {
			if !inLits(s, b) {
				continue box
			}
			return true
		}
		return false
	}
	states := gen.States(m)
	// init
	if prop.Start == nil {
		s := make(symbolic.State, len(m.Vars))
		for i, v := range m.Vars {
			s[i] = v.Init
		}
		if !in(s) {
			return "init " + m.FormatState(s)
		}
	} else {
		for _, s := range states {
			if prop.Start.Holds(s) && !in(s) {
				return "init " + m.FormatState(s)
			}
		}
	}
	for _, s := range states {
		if !in(s) {
			continue
		}
		if prop.Unsafe.Holds(s) {
			return "safety " + m.FormatState(s)
		}
		if prop.Goal != nil && prop.Goal.Holds(s) {
			continue
		}
		succs, polErr, rangeErr := bruteSuccs(m, pol, s)
		if polErr != nil {
			return "policy error " + polErr.Error()
		}
		for _, next := range succs {
			if !in(next) {
				return "consecution " + m.FormatState(s) + " -> " + m.FormatState(next)
			}
		}
		if rangeErr {
			return "range error at " + m.FormatState(s)
		}
	}
	return ""
}

// reachable returns the states reachable from the start states (under
// pol, or every label), in range, stopping at unsafe and goal states
// and at range errors (ok false then).
func reachable(m *symbolic.Model, prop *symbolic.Property, pol symbolic.Policy) ([]symbolic.State, bool) {
	var starts []symbolic.State
	if prop.Start == nil {
		s := make(symbolic.State, len(m.Vars))
		for i, v := range m.Vars {
			s[i] = v.Init
		}
		if m.InRange(s) >= 0 {
			return nil, false
		}
		starts = append(starts, s)
	} else {
		for _, s := range gen.States(m) {
			if prop.Start.Holds(s) {
				starts = append(starts, s)
			}
		}
	}
	seen := map[string]bool{}
	var out []symbolic.State
	queue := starts
	for _, s := range starts {
		seen[fmt.Sprint(s)] = true
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out = append(out, s)
		if prop.Unsafe.Holds(s) || prop.Goal != nil && prop.Goal.Holds(s) {
			continue
		}
		succs, _, rangeErr := bruteSuccs(m, pol, s)
		for _, next := range succs {
			if k := fmt.Sprint(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
		if rangeErr {
			return nil, false
		}
	}
	return out, true
}

// bruteSuccs is the reference's successors of s under pol (every
// applicable label when pol is nil), in the order of the labels, commands
// and outcomes, up to the first assignment that leaves its variable's
// range (rangeErr then). A policy error is returned as is (no successors).
func bruteSuccs(m *symbolic.Model, pol symbolic.Policy, s symbolic.State) (succs []symbolic.State, polErr error, rangeErr bool) {
	app := make([]bool, len(m.Labels))
	for i := range m.Commands {
		if m.Commands[i].Guard.Holds(s) {
			app[m.Commands[i].Label] = true
		}
	}
	var labels []symbolic.LabelID
	if pol != nil {
		l, err := symbolic.Decide(pol, s, func(l symbolic.LabelID) bool { return l >= 0 && int(l) < len(app) && app[l] }, nil)
		if err != nil {
			return nil, err, false
		}
		if l != symbolic.NoLabel {
			labels = append(labels, l)
		}
	} else {
		for a, ok := range app {
			if ok {
				labels = append(labels, symbolic.LabelID(a))
			}
		}
	}
	for _, a := range labels {
		for i := range m.Commands {
			c := &m.Commands[i]
			if c.Label != a || !c.Guard.Holds(s) {
				continue
			}
			for oi := range c.Outcomes {
				next := append(symbolic.State(nil), s...)
				for _, as := range c.Outcomes[oi].Assigns {
					v := as.Value.EvalBig(s)
					va := m.Vars[as.Var]
					if v.Cmp(big.NewInt(int64(va.Lo))) < 0 || v.Cmp(big.NewInt(int64(va.Hi))) > 0 {
						return succs, nil, true
					}
					next[as.Var] = int(v.Int64())
				}
				succs = append(succs, next)
			}
		}
	}
	return succs, nil, false
}

func pointBox(s symbolic.State) []smt.Lit {
	var b []smt.Lit
	for v, x := range s {
		b = append(b, smt.Lit{Var: symbolic.VarID(v), K: x}, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: x})
	}
	return b
}

func TestS25fInvariantCheckBruteForce(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 60
	}
	agree, valid := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{RangeErrors: seed%3 == 0, Large: seed%5 == 0}
		if seed%10 == 0 {
			// more than the 16,384 states the evaluator enumerates: Z3 decides
			opt.MaxVars, opt.MaxRange = 6, 9
		}
		m := gen.Model(seed, opt)
		prop := m.Properties[0]
		r := rand.New(rand.NewPCG(seed, 7))
		for _, decl := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var pol symbolic.Policy
			name := ""
			if decl != nil {
				var err error
				if pol, err = symbolic.Instantiate(m, decl); err != nil {
					t.Fatal(err)
				}
				name = decl.Name
			}
			var cands [][][]smt.Lit
			if reach, ok := reachable(m, prop, pol); ok && len(reach) > 0 {
				var pts [][]smt.Lit
				for _, s := range reach {
					pts = append(pts, pointBox(s))
				}
				cands = append(cands, pts)
				if len(pts) > 1 {
					k := r.IntN(len(pts))
					cands = append(cands, append(append([][]smt.Lit(nil), pts[:k]...), pts[k+1:]...))
				}
				lo, hi := append(symbolic.State(nil), reach[0]...), append(symbolic.State(nil), reach[0]...)
				for _, s := range reach {
					for v := range s {
						lo[v], hi[v] = min(lo[v], s[v]), max(hi[v], s[v])
					}
				}
				var bb []smt.Lit
				for v := range lo {
					bb = append(bb, smt.Lit{Var: symbolic.VarID(v), K: lo[v]}, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: hi[v]})
				}
				cands = append(cands, [][]smt.Lit{bb})
			}
			for k := 0; k < 3; k++ {
				var inv [][]smt.Lit
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
				cands = append(cands, inv)
			}
			for ci, inv := range cands {
				h, err := invcert.ModelHash(m, prop.Name, name)
				if err != nil {
					t.Fatal(err)
				}
				c := &invcert.Cert{Header: invcert.Header{Model: "gen.spec", Property: prop.Name, Policy: name, Hash: h, Boxes: len(inv)}, Inv: inv}
				for _, v := range m.Vars {
					c.Vars = append(c.Vars, v.Name)
				}
				want := bruteInv(m, prop, pol, inv)
				got := invcert.Check(context.Background(), c, m, prop, decl)
				if (want == "") != (got == nil) {
					t.Errorf("seed %d policy %q candidate %d: reference says %q, cert.Check says %v\nmodel:\n%s", seed, name, ci, want, got, printModel(m))
					continue
				}
				agree++
				if want == "" {
					valid++
				}
			}
		}
	}
	t.Logf("%d verdicts agree, %d of them valid", agree, valid)
	if valid < agree/20 {
		t.Errorf("only %d of %d candidates valid: the comparison says little about acceptance", valid, agree)
	}
}

func printModel(m *symbolic.Model) string {
	var b strings.Builder
	symbolic.Print(&b, m)
	return b.String()
}
