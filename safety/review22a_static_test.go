package safety_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/safety"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// firstRangeError returns a state of m (any in-range state, terminal or
// not) where some command's guard holds and one of its outcomes leaves a
// variable's range or has a factor of its probability outside [0, 1] (or
// a zero denominator), found by enumeration with exact arithmetic; nil
// when there is none.
func firstRangeError(m *symbolic.Model) (symbolic.State, string) {
	var bad symbolic.State
	var why string
	one := big.NewRat(1, 1)
	gen.EachState(m, func(s symbolic.State) {
		if bad != nil {
			return
		}
		for ci := range m.Commands {
			c := &m.Commands[ci]
			if !c.Guard.Holds(s) {
				continue
			}
			for oi := range c.Outcomes {
				o := &c.Outcomes[oi]
				for fi, f := range o.ProbFactors {
					n, d := f.Num.EvalBig(s), f.Den.EvalBig(s)
					if d.Sign() == 0 {
						bad, why = append(symbolic.State(nil), s...), fmt.Sprintf("command %d outcome %d factor %d divides by zero", ci, oi, fi)
						return
					}
					if q := new(big.Rat).SetFrac(n, d); q.Sign() < 0 || q.Cmp(one) > 0 {
						bad, why = append(symbolic.State(nil), s...), fmt.Sprintf("command %d outcome %d factor %d is %s", ci, oi, fi, q)
						return
					}
				}
				for _, a := range o.Assigns {
					v := &m.Vars[a.Var]
					x := a.Value.EvalBig(s)
					if x.Cmp(big.NewInt(int64(v.Lo))) < 0 || x.Cmp(big.NewInt(int64(v.Hi))) > 0 {
						bad, why = append(symbolic.State(nil), s...), fmt.Sprintf("command %d outcome %d sets %s to %s", ci, oi, v.Name, x)
						return
					}
				}
			}
		}
	})
	return bad, why
}

func printModel(m *symbolic.Model) string {
	var b strings.Builder
	if err := symbolic.Print(&b, m); err != nil {
		return err.Error()
	}
	return b.String()
}

// prodify makes some assignments of m non-linear (OpProd of the value
// and a variable, as JANI models have), each kept or clamped at random.
func prodify(m *symbolic.Model, r *rand.Rand) {
	for ci := range m.Commands {
		for oi := range m.Commands[ci].Outcomes {
			o := &m.Commands[ci].Outcomes[oi]
			for ai := range o.Assigns {
				a := &o.Assigns[ai]
				v := &m.Vars[a.Var]
				if v.Bool || r.IntN(3) != 0 {
					continue
				}
				w := symbolic.VarID(r.IntN(len(m.Vars)))
				if m.Vars[w].Bool {
					continue
				}
				e := &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{a.Value, symbolic.V(w)}}
				if r.IntN(2) == 0 {
					e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{{Op: symbolic.OpMin, Args: []*symbolic.Expr{e, symbolic.Lit(v.Hi)}}, symbolic.Lit(v.Lo)}}
				}
				a.Value = e
			}
		}
	}
}

// shift moves the range of integer variable v by k (and every constant
// compared with it stays as it was, so guards narrow differently).
func shiftVar(m *symbolic.Model, v int, lo, hi int) {
	m.Vars[v].Lo, m.Vars[v].Hi = lo, hi
	m.Vars[v].Init = lo
}

// TestReview22aStaticDifferential: NoRangeErrors is never true on a
// model where some state (terminal or not) has a range error, found by
// exact enumeration on small generated models (range errors left
// unclamped, constants near 2^62 and 2^63, state-dependent probabilities
// with up to three factors, products of variables, negative ranges), and
// never true where Z3 (smt.CheckBounds over every in-range state) finds
// one on models with ranges too wide to enumerate: wider than the value
// by value narrowing tries (4096 values), and near ±2^62, where the
// interval ends leave the box arithmetic's bounds.
func TestReview22aStaticDifferential(t *testing.T) {
	n := 4 * models(t)
	proven, small, wide, z3checked := 0, 0, 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 0x22a))
		opt := gen.Options{RangeErrors: seed%3 != 0, Large: seed%4 == 1, MaxVars: 3, MaxRange: 2 + int(seed%7), MaxDepth: 1 + int(seed%3)}
		m := gen.Model(seed, opt)
		if seed%2 == 0 {
			gen.StateProbs(m, r, 2)
		}
		if seed%5 == 0 {
			prodify(m, r)
		}
		// Small: enumerate.
		small++
		bad, why := firstRangeError(m)
		free := safety.NoRangeErrors(m)
		if free {
			proven++
		}
		if free && bad != nil {
			t.Fatalf("seed %d: NoRangeErrors says the model is free of range errors, but in %s %s\n%s", seed, m.FormatState(bad), why, printModel(m))
		}
		// Wide: widen or move some integer variables' ranges, ask Z3.
		changed := false
		for v := range m.Vars {
			if m.Vars[v].Bool || r.IntN(2) == 0 {
				continue
			}
			changed = true
			switch r.IntN(6) {
			case 0:
				shiftVar(m, v, -(1 << 62), 1<<62)
			case 1:
				shiftVar(m, v, 1<<62-3, 1<<62+3)
			case 2:
				shiftVar(m, v, -(1<<62)-3, -(1<<62)+3)
			case 3:
				shiftVar(m, v, -5000, 5000)
			case 4:
				shiftVar(m, v, math.MinInt64+1, math.MaxInt64-1)
			default:
				shiftVar(m, v, m.Vars[v].Lo-r.IntN(9000), m.Vars[v].Hi+r.IntN(9000))
			}
		}
		if !changed || !safety.NoRangeErrors(m) {
			continue
		}
		wide++
		mm := *m
		mm.Properties = nil // every in-range state, terminal or not
		res, err := smt.CheckBounds(&mm, smt.CheckOptions{})
		if err != nil {
			continue // a product of variables: the SMT encoding refuses it
		}
		z3checked++
		if len(res.Violations) > 0 {
			v := res.Violations[0]
			t.Fatalf("seed %d (wide): NoRangeErrors says the model is free of range errors, but Z3 finds command %d outcome %d (var %d, prob %v) in %s\n%s",
				seed, v.Command, v.Outcome, v.Var, v.Prob, m.FormatState(v.State), printModel(m))
		}
	}
	t.Logf("%d small models (%d proven free of range errors), %d wide models proven free, %d of them checked by Z3", small, proven, wide, z3checked)
	if proven == 0 || z3checked == 0 {
		t.Errorf("the test compares too little")
	}
}

// TestReview22aScopeCap: on models of 2 to 12 states (so that radii from
// 0 to 14 pass the model's number of states, where the deciders search
// with that number as the budget, cert.BudgetCap), every decider answers
// each state as the brute-force reference does at the radius asked (a
// range error when the scope at that radius holds one), its certificate
// passes the checker, and DecideStarts with one decider for all start
// states (vigil safe --starts) decides the start states before the first
// whose scope holds a range error as the reference does, then stops with
// that state's error.
func TestReview22aScopeCap(t *testing.T) {
	ctx := context.Background()
	var asked, errs, capped, startsRuns int
	for seed := uint64(1); seed <= uint64(models(t)/5); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 2, MaxRange: 2 + int(seed%3), MaxLabels: 2})
		if seed%3 == 0 {
			addProbErrors(m, seed)
		}
		prop, pd, g, dec, ref := scopeSetup(t, m)
		nStates := len(ref.ss)
		for _, r := range []safety.Radius{safety.Radius(nStates - 1), safety.Radius(nStates), safety.Radius(nStates + 1), safety.Radius(nStates + 2), 14, safety.Inf} {
			if r >= safety.Radius(nStates) {
				capped++
			}
			safe := ref.safe(r)
			for _, algo := range safety.Algorithms {
				sp := safety.NewSpace(g, dec)
				if seed%2 == 0 {
					safety.ForceScopeSearch(sp)
				}
				d, err := safety.New(algo, sp, r, safety.Options{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				for i, s := range ref.ss {
					asked++
					id, err := sp.Intern(s)
					if err != nil {
						t.Fatal(err)
					}
					got, err := d.Decide(ctx, id)
					werr := ref.scopeErrs(i, r)
					switch {
					case werr && err == nil:
						t.Fatalf("seed %d, radius %v (%d states), %s, state %s: safe=%v, want the range error of its scope\n%s", seed, r, nStates, algo, m.FormatState(s), got, printModel(m))
					case werr:
						errs++
						var re *explicit.RangeError
						if !errors.As(err, &re) {
							t.Fatalf("seed %d, radius %v, %s, state %s: %v, want a range error", seed, r, algo, m.FormatState(s), err)
						}
						continue
					case err != nil:
						t.Fatalf("seed %d, radius %v (%d states), %s, state %s: %v; the scope has no range error", seed, r, nStates, algo, m.FormatState(s), err)
					case got != safe[i][max(int(r), 0)]:
						t.Fatalf("seed %d, radius %v (%d states), %s, state %s: safe=%v, the reference %v\n%s", seed, r, nStates, algo, m.FormatState(s), got, !got, printModel(m))
					}
					if algo == "tarjan-path" {
						continue
					}
					c, err := safety.Certify(d, id)
					if err != nil {
						t.Fatalf("seed %d, radius %v, %s, state %s: certify: %v", seed, r, algo, m.FormatState(s), err)
					}
					c.Property, c.Policy = prop.Name, pd.Name
					if err := checkCert(m, prop, pd, c); err != nil {
						t.Fatalf("seed %d, radius %v, %s, state %s: the certificate: %v", seed, r, algo, m.FormatState(s), err)
					}
				}
			}
			// vigil safe --starts: one decider, the start states in order.
			for _, algo := range safety.Algorithms {
				startsRuns++
				sp := safety.NewSpace(g, dec)
				d, _ := safety.New(algo, sp, r, safety.Options{Seed: seed})
				res, err := safety.DecideStarts(ctx, d, nil)
				var starts []int
				if g.Starts(func(s symbolic.State) bool {
					starts = append(starts, ref.index[stateKey(s)])
					return true
				}) != nil {
					continue // no start state
				}
				firstErr := -1
				for k, i := range starts {
					if ref.scopeErrs(i, r) {
						firstErr = k
						break
					}
				}
				if firstErr >= 0 {
					if err == nil {
						t.Fatalf("seed %d, radius %v, %s --starts: no error, but start state %s's scope holds a range error", seed, r, algo, m.FormatState(ref.ss[starts[firstErr]]))
					}
					continue
				}
				if err != nil {
					t.Fatalf("seed %d, radius %v, %s --starts: %v; no start state's scope holds a range error", seed, r, algo, err)
				}
				if len(res.States) != len(starts) {
					t.Fatalf("seed %d, radius %v, %s --starts: %d states decided, %d start states", seed, r, algo, len(res.States), len(starts))
				}
				for k, sd := range res.States {
					if want := safe[starts[k]][max(int(r), 0)]; (sd.Verdict == safety.Safe) != want {
						t.Fatalf("seed %d, radius %v, %s --starts: start state %s %v, the reference safe=%v", seed, r, algo, m.FormatState(ref.ss[starts[k]]), sd.Verdict, want)
					}
				}
			}
		}
	}
	t.Logf("%d questions (%d range errors), %d radius sets at or past the number of states, %d --starts runs", asked, errs, capped, startsRuns)
	if errs == 0 || capped == 0 {
		t.Errorf("the test compares too little")
	}
}
