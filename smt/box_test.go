package smt

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// randCube returns a random cube of bound literals over m's variables.
func randCube(r *rand.Rand, m *symbolic.Model) []Lit {
	var ls []Lit
	for i := range m.Vars {
		v := &m.Vars[i]
		if r.IntN(2) == 0 {
			ls = append(ls, Lit{Var: symbolic.VarID(i), K: v.Lo + r.IntN(v.Size())})
		}
		if r.IntN(2) == 0 {
			ls = append(ls, Lit{Var: symbolic.VarID(i), Upper: true, K: v.Lo + r.IntN(v.Size())})
		}
	}
	return ls
}

func cubeHolds(ls []Lit, s symbolic.State) bool {
	for _, l := range ls {
		if !l.Holds(s) {
			return false
		}
	}
	return true
}

// TestBoxQueries asks the IC3 question "is there a transition from box r,
// taking label a, into frame F?" with the box as assumption literals,
// compares the answer with enumeration, and checks that the unsat core is
// itself a box with no such transition.
func TestBoxQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var nsat, nunsat, boxLits, coreLits int
	defer func() {
		t.Logf("%d sat, %d unsat queries; unsat cores keep %d of %d box literals", nsat, nunsat, coreLits, boxLits)
	}()
	for i := 0; i < 40; i++ {
		m := randModel(r)
		p := m.Properties[0]
		x := newCtx(t)
		e, err := NewEncoder(x, m)
		must(t, err)
		tr, err := e.Transition(TransOptions{Property: p})
		must(t, err)
		sv := newSolver(t, x)
		must(t, sv.Assert(tr.Formula))
		lits := e.NewLiterals(sv)
		for q := 0; q < 10; q++ {
			box := randCube(r, m)
			label := symbolic.LabelID(r.IntN(len(m.Labels)))
			var frame [][]Lit // clauses: each is the negation of a cube
			for k := r.IntN(4); k > 0; k-- {
				frame = append(frame, randCube(r, m))
			}
			inFrame := func(s symbolic.State) bool {
				for _, c := range frame {
					if cubeHolds(c, s) {
						return false
					}
				}
				return true
			}
			exists := func(box []Lit) bool {
				found := false
				allStates(m, func(s symbolic.State) {
					if found || !cubeHolds(box, s) {
						return
					}
					for _, n := range explicitSucc(m, p, s, label) {
						var st symbolic.State
						for _, f := range splitState(n) {
							st = append(st, f)
						}
						if inFrame(st) {
							found = true
						}
					}
				})
				return found
			}
			as, err := lits.AssumeAll(nil, box, false)
			must(t, err)
			mark := x.Mark()
			must(t, sv.Push())
			for _, c := range frame {
				must(t, sv.Assert(e.Clause(c, e.Next)))
			}
			if _, err := lits.Assume(Lit{Var: 0, K: -100}, true); err == nil {
				t.Fatal("literal made inside a push: no error")
			}
			as = append(as, tr.Label[label])
			res, err := sv.Check(as...)
			must(t, err)
			want := exists(box)
			if (res == Sat) != want || res == Unknown {
				t.Fatalf("model %d query %d: smt %v, explicit %v", i, q, res, want)
			}
			if res == Sat {
				nsat++
			}
			if res == Unsat {
				nunsat++
				core, err := sv.Core()
				must(t, err)
				var sub []Lit
				for _, k := range core {
					if k < len(box) {
						sub = append(sub, box[k])
					}
				}
				boxLits += len(box)
				coreLits += len(sub)
				if exists(sub) {
					t.Fatalf("model %d query %d: core %v of box %v admits a transition", i, q, sub, box)
				}
			}
			must(t, sv.Pop(1))
			x.Release(mark)
		}
		x.Close()
	}
}

// splitState parses fmt.Sprint of a State back.
func splitState(s string) []int {
	var out []int
	n, neg, in := 0, false, false
	for _, c := range s {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			n, in = n*10+int(c-'0'), true
		default:
			if in {
				if neg {
					n = -n
				}
				out = append(out, n)
			}
			n, neg, in = 0, false, false
		}
	}
	return out
}

func TestLitNegate(t *testing.T) {
	for _, l := range []Lit{{Var: 0, K: 3}, {Var: 0, Upper: true, K: -2}} {
		for v := -5; v <= 5; v++ {
			s := symbolic.State{v}
			if l.Holds(s) == l.Negate().Holds(s) {
				t.Errorf("%v and its negation agree on %d", l, v)
			}
		}
	}
}

// TestStep runs Step's queries against enumeration and replays witnesses.
func TestStep(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	for i := 0; i < 25; i++ {
		m := randModel(r)
		p := m.Properties[0]
		x := newCtx(t)
		st, err := NewStep(x, m, TransOptions{Property: p})
		must(t, err)
		st.S.SetRecycle(7) // exercise rebuilding with frames and literals
		var acts []Term
		var frames [][][]Lit
		for q := 0; q < 12; q++ {
			if q%4 == 0 { // a new frame, the old one retired half the time
				if len(acts) > 0 && r.IntN(2) == 0 {
					must(t, st.Retire(acts[len(acts)-1]))
					acts, frames = acts[:len(acts)-1], frames[:len(frames)-1]
				}
				acts = append(acts, st.Activation())
				frames = append(frames, nil)
			}
			cube := randCube(r, m)
			must(t, st.Block(acts[len(acts)-1], cube, true))
			frames[len(frames)-1] = append(frames[len(frames)-1], cube)
			box := randCube(r, m)
			label := symbolic.NoLabel
			if r.IntN(2) == 0 {
				label = symbolic.LabelID(r.IntN(len(m.Labels)))
			}
			inFrames := func(s symbolic.State) bool {
				for _, f := range frames {
					for _, c := range f {
						if cubeHolds(c, s) {
							return false
						}
					}
				}
				return true
			}
			exists := func(box []Lit) bool {
				found := false
				allStates(m, func(s symbolic.State) {
					if found || !cubeHolds(box, s) {
						return
					}
					for _, n := range explicitSucc(m, p, s, label) {
						if inFrames(splitState(n)) {
							found = true
						}
					}
				})
				return found
			}
			res, err := st.Query(box, label, acts...)
			must(t, err)
			if want := exists(box); (res == Sat) != want || res == Unknown {
				t.Fatalf("model %d query %d: %v, want sat=%v", i, q, res, want)
			}
			switch res {
			case Sat:
				from, to, c, o, err := st.Witness()
				must(t, err)
				if !cubeHolds(box, from) || !inFrames(to) || !m.Commands[c].Guard.Holds(from) ||
					label != symbolic.NoLabel && m.Commands[c].Label != label {
					t.Fatalf("model %d query %d: witness %v -> %v by %d/%d does not replay", i, q, from, to, c, o)
				}
				want := append(symbolic.State(nil), from...)
				for _, a := range m.Commands[c].Outcomes[o].Assigns {
					want[a.Var] = a.Value.Eval(from)
				}
				if fmt.Sprint(want) != fmt.Sprint(to) {
					t.Fatalf("model %d query %d: outcome %d/%d gives %v from %v, witness says %v", i, q, c, o, want, from, to)
				}
			case Unsat:
				core, err := st.Core()
				must(t, err)
				if exists(core) {
					t.Fatalf("model %d query %d: core %v admits a transition", i, q, core)
				}
			}
		}
		x.Close()
	}
}
