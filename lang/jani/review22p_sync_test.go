package jani_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/ic3"
	"vigil/lang/jani"
	"vigil/ppa"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// syncFactor is a generated destination probability (k*x + b) / den,
// den a constant (dc != 0, dk == 0) or dk*y + dc.
type syncFactor struct{ k, b, dk, dc int }

func (f syncFactor) json() string {
	num := fmt.Sprintf(`{"op": "+", "left": {"op": "*", "left": %d, "right": "x"}, "right": %d}`, f.k, f.b)
	den := fmt.Sprint(f.dc)
	if f.dk != 0 {
		den = fmt.Sprintf(`{"op": "+", "left": {"op": "*", "left": %d, "right": "y"}, "right": %d}`, f.dk, f.dc)
	}
	return fmt.Sprintf(`{"op": "/", "left": %s, "right": %s}`, num, den)
}

// at is the factor in state (x, y): its value, and whether it is no
// probability (outside [0, 1] or a division by zero).
func (f syncFactor) at(x, y int) (*big.Rat, bool) {
	n, d := f.k*x+f.b, f.dk*y+f.dc
	if d == 0 {
		return nil, true
	}
	p := big.NewRat(int64(n), int64(d))
	return p, p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0
}

// syncModel is a generated JANI model: automaton m counts x (action b,
// while x < xmax) and y (action c, while y < ymax) and has an edge a
// (where x >= amin) with two destinations of probabilities fm, the first
// setting z to 1 when zdest, else y to 0, the second x to 0; automaton n
// has an edge a with two destinations of probabilities fn and no
// assignments. a synchronises the two: the outcome (i, j) has
// probability fm[i] * fn[j], two state-dependent factors.
type syncModel struct {
	xmax, ymax, amin int
	zdest            bool
	fm, fn           [2]syncFactor
}

func genSyncModel(r *rand.Rand) syncModel {
	good := []syncFactor{{k: 1, dc: 3}, {k: -1, b: 3, dc: 3}, {k: 1, b: 1, dc: 4}, {b: 1, dk: 1, dc: 1}, {k: -1, b: 2, dc: 2}}
	f := func() syncFactor {
		if r.IntN(5) != 0 {
			// in [0, 1] on x's range (x - 2 below 0 where x < 2)
			return good[r.IntN(len(good))]
		}
		s := syncFactor{k: r.IntN(5) - 2, b: r.IntN(7) - 2}
		if r.IntN(2) == 0 {
			s.dc = []int{1, 2, 3, 4, -2}[r.IntN(5)]
			if s.k == 0 {
				s.k = 1 // a constant probability is checked on loading
			}
		} else {
			s.dk, s.dc = r.IntN(3)-1, r.IntN(5)-1
			if s.dk == 0 && s.dc == 0 {
				s.dc = 2
			}
			if s.dk == 0 && s.k == 0 {
				s.k = 1
			}
		}
		return s
	}
	return syncModel{xmax: 1 + r.IntN(3), ymax: r.IntN(3), amin: r.IntN(3), zdest: r.IntN(3) == 0,
		fm: [2]syncFactor{f(), f()}, fn: [2]syncFactor{f(), f()}}
}

func (sm syncModel) json() string {
	d0 := `{"ref": "y", "value": 0}`
	if sm.zdest {
		d0 = `{"ref": "z", "value": 1}`
	}
	return `{"jani-version": 1, "name": "sync", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 0},
               {"name": "z", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}, "initial-value": 0}],
 "actions": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
 "automata": [
  {"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [
     {"location": "l", "action": "b", "guard": {"exp": {"op": "<", "left": "x", "right": ` + fmt.Sprint(sm.xmax) + `}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]},
     {"location": "l", "action": "c", "guard": {"exp": {"op": "<", "left": "y", "right": ` + fmt.Sprint(sm.ymax) + `}}, "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": "y", "right": 1}}]}]},
     {"location": "l", "action": "a", "guard": {"exp": {"op": "≥", "left": "x", "right": ` + fmt.Sprint(sm.amin) + `}}, "destinations": [
        {"location": "l", "probability": {"exp": ` + sm.fm[0].json() + `}, "assignments": [` + d0 + `]},
        {"location": "l", "probability": {"exp": ` + sm.fm[1].json() + `}, "assignments": [{"ref": "x", "value": 0}]}]}]},
  {"name": "n", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [
     {"location": "l", "action": "a", "destinations": [
        {"location": "l", "probability": {"exp": ` + sm.fn[0].json() + `}},
        {"location": "l", "probability": {"exp": ` + sm.fn[1].json() + `}}]}]}],
 "system": {"elements": [{"automaton": "m"}, {"automaton": "n"}],
            "syncs": [{"synchronise": ["a", "a"], "result": "a"}, {"synchronise": ["b", null], "result": "b"}, {"synchronise": ["c", null], "result": "c"}]}}`
}

// TestReview22pSyncProbabilities: an outcome of synchronised JANI edges
// whose destinations' probabilities both read the state has the product
// of two state-dependent factors. Until review 22p the lowering kept it
// where both factors were positive and checked neither against [0, 1]
// (a note W0901 said so): a factor -1/2 beside a factor -1 gave an
// outcome of probability 1/2 that every engine dropped, a factor 3/2 or
// a division by zero was no error, and vigil prob refused the model. Each
// factor is a probability of its own now (Outcome.ProbFactors).
//
// On generated models the test checks the lowering against the JANI
// semantics computed here from the generator's integers (in each state
// where a is enabled: a probability error iff some factor of it is no
// probability; else the successors of a are the effects of the pairs of
// destinations whose product is not 0), then the engines against each
// other: bfs, ic3, bdd and ppa answer safe on the same models, each
// error they report replays in the explicit engine, and z3 on vigil
// export --chc answers sat exactly there.
func TestReview22pSyncProbabilities(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	z3, z3err := smtlib.Z3Path()
	if z3err != nil {
		t.Log("z3 binary not found: the CHC export is not solved")
	}
	dir := t.TempDir()
	ctx := context.Background()
	var negNeg, multiErr, safe, bad, zeroHides int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		sm := genSyncModel(rand.New(rand.NewPCG(seed, 0x22)))
		path := filepath.Join(dir, fmt.Sprintf("sync%d.jani", seed))
		if err := os.WriteFile(path, []byte(sm.json()), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := jani.Load(path, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		x, y, z := symbolic.VarID(0), symbolic.VarID(1), symbolic.VarID(2)
		if m.Vars[x].Name != "x" || m.Vars[y].Name != "y" || m.Vars[z].Name != "z" {
			t.Fatalf("seed %d: variables %v", seed, m.Vars)
		}
		prop := &symbolic.Property{Name: "avoid", Unsafe: symbolic.Compare(symbolic.V(z), symbolic.Eq, symbolic.Lit(1))}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}

		// the lowering against the JANI semantics, in every state
		for xv := 0; xv <= 3; xv++ {
			for yv := 0; yv <= 2; yv++ {
				s := symbolic.State{xv, yv, 0}
				if xv < sm.amin {
					continue
				}
				var fm, fn [2]*big.Rat
				wantErr := false
				for i := range 2 {
					var b1, b2 bool
					fm[i], b1 = sm.fm[i].at(xv, yv)
					fn[i], b2 = sm.fn[i].at(xv, yv)
					wantErr = wantErr || b1 || b2
				}
				if !wantErr {
					// every product 0: a's probabilities sum to 0, an
					// error too (s23j; the edge was dropped before)
					zero := true
					for i := range 2 {
						for j := range 2 {
							zero = zero && new(big.Rat).Mul(fm[i], fn[j]).Sign() == 0
						}
					}
					wantErr = zero
				}
				err := g.ErrorAt(s, nil)
				var re *explicit.RangeError
				gotErr := errors.As(err, &re) && re.Prob
				if err != nil && !gotErr {
					t.Fatalf("seed %d %v: %v", seed, s, err)
				}
				if gotErr != wantErr {
					t.Errorf("seed %d x=%d y=%d: probability error %v (%v), want %v; factors %v %v", seed, xv, yv, gotErr, err, wantErr, sm.fm, sm.fn)
					continue
				}
				if gotErr {
					o := &m.Commands[re.Command].Outcomes[re.Outcome]
					if len(o.ProbFactors) > 1 {
						multiErr++
						if p, _ := o.ProbAt(s); p == nil {
							prod := 1
							for _, f := range o.ProbFactors {
								n, d := f.At(s)
								prod *= n.Sign() * d.Sign()
							}
							if prod > 0 {
								negNeg++ // positive as a product, an error by its factors
							}
						}
					}
					for i := range 2 {
						for j := range 2 {
							if fm[i] != nil && fn[j] != nil && (fm[i].Sign() == 0 || fn[j].Sign() == 0) {
								zeroHides++
							}
						}
					}
					continue
				}
				// the successors of a
				want := map[string]bool{}
				for i := range 2 {
					for j := range 2 {
						if new(big.Rat).Mul(fm[i], fn[j]).Sign() == 0 {
							continue
						}
						u := slices.Clone(s)
						switch {
						case i == 1:
							u[x] = 0
						case sm.zdest:
							u[z] = 1
						default:
							u[y] = 0
						}
						want[m.FormatState(u)] = true
					}
				}
				got := map[string]bool{}
				for ci := range m.Commands {
					c := &m.Commands[ci]
					if m.Labels[c.Label].Name != "a" || !g.Guard(s, ci) {
						continue
					}
					for oi := range c.Outcomes {
						u, err := g.Apply(s, ci, oi)
						if err != nil {
							t.Fatalf("seed %d %v: %v", seed, s, err)
						}
						got[m.FormatState(u)] = true
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("seed %d x=%d y=%d: successors of a %v, want %v", seed, xv, yv, got, want)
				}
			}
		}

		// the engines
		want, werr := explicit.Search(ctx, g, explicit.Options{StopAtUnsafe: true})
		var re *explicit.RangeError
		if werr != nil && !errors.As(werr, &re) {
			t.Fatalf("seed %d: bfs: %v", seed, werr)
		}
		bfsSafe := werr == nil && want.Verdict == explicit.Safe
		if bfsSafe {
			safe++
		} else {
			bad++
		}
		type answer struct {
			verdict explicit.Verdict
			trace   []explicit.Step
			err     error
		}
		engines := map[string]func() answer{
			"ic3": func() answer {
				r, err := ic3.Check(ctx, m, prop, nil, ic3.Options{Generalize: true})
				if err != nil {
					return answer{err: err}
				}
				return answer{verdict: ic3Verdict(r.Verdict), trace: r.Trace}
			},
			"bdd": func() answer {
				r, err := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
				if err != nil {
					return answer{err: err}
				}
				return answer{verdict: r.Verdict.Explicit(), trace: r.Trace}
			},
			"ppa": func() answer {
				r, err := ppa.Check(ctx, m, prop, nil, ppa.Options{})
				if err != nil {
					return answer{err: err}
				}
				return answer{verdict: r.Verdict, trace: r.Trace}
			},
		}
		for _, name := range []string{"ic3", "bdd", "ppa"} {
			a := engines[name]()
			var are *explicit.RangeError
			switch {
			case a.err != nil && errors.As(a.err, &are):
				if bfsSafe {
					t.Errorf("seed %d: bfs says safe, %s fails: %v", seed, name, a.err)
				}
				if err := g.ErrorAt(are.State, nil); err == nil || err.Error() != are.Error() {
					t.Errorf("seed %d: %s's error %v does not replay (%v)", seed, name, a.err, err)
				}
			case a.err != nil && strings.Contains(a.err.Error(), ": probability error: "):
				// ppa words the explicit engine's error into its own
				if bfsSafe {
					t.Errorf("seed %d: bfs says safe, %s fails: %v", seed, name, a.err)
				}
			case a.err != nil:
				t.Errorf("seed %d: %s: %v", seed, name, a.err)
			case a.verdict == explicit.Safe:
				if !bfsSafe {
					t.Errorf("seed %d: bfs: %v %v; %s says safe\n%s", seed, want, werr, name, sm.json())
				}
			case a.verdict == explicit.UnsafeVerdict:
				if bfsSafe {
					t.Errorf("seed %d: bfs says safe, %s unsafe", seed, name)
				}
				if err := g.CheckCounterexample(nil, a.trace); err != nil {
					t.Errorf("seed %d: %s: %v", seed, name, err)
				}
			default:
				t.Errorf("seed %d: %s answers %v", seed, name, a.verdict)
			}
		}
		if z3err == nil {
			var b strings.Builder
			if err := smtlib.WriteCHC(&b, smtlib.Question{Model: m, Property: prop}); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			f := filepath.Join(dir, fmt.Sprintf("sync%d.smt2", seed))
			if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithTimeout(ctx, time.Minute)
			out, _ := exec.CommandContext(cctx, z3, "-T:30", f).Output()
			cancel()
			wantZ3 := "unsat"
			if bfsSafe {
				wantZ3 = "sat"
			}
			if got := strings.TrimSpace(string(out)); got != wantZ3 {
				t.Errorf("seed %d: z3 on the CHC export: %q, want %s (bfs: %v %v)", seed, got, wantZ3, want, werr)
			}
		}
	}
	if negNeg == 0 || multiErr == 0 || safe == 0 || bad == 0 || zeroHides == 0 {
		t.Fatalf("the generated models miss a case: %d errors in a product, %d of them positive as a product, %d beside a factor 0; %d safe, %d not", multiErr, negNeg, zeroHides, safe, bad)
	}
	t.Logf("%d errors in a product, %d of them positive as a product, %d beside a factor 0; %d models safe, %d not", multiErr, negNeg, zeroHides, safe, bad)
}

func ic3Verdict(v ic3.Verdict) explicit.Verdict {
	switch v {
	case ic3.Safe:
		return explicit.Safe
	case ic3.Unsafe:
		return explicit.UnsafeVerdict
	}
	return explicit.Unknown
}
