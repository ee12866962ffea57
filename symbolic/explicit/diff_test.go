package explicit_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// engines returns what the differential tests compare for a generated
// model: its first property and policy (for the reference interpreter),
// and the engine's generator and decider.
func engines(t *testing.T, seed uint64, m *symbolic.Model) (*symbolic.Property, symbolic.Policy, *explicit.Generator, explicit.Decider) {
	t.Helper()
	prop := m.Properties[0]
	pol, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	dec, err := explicit.NewDecider(m, m.Policies[0])
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return prop, pol, g, dec
}

// TestDifferential checks the packed engine against the reference
// interpreter on hundreds of generated models: reachable states,
// transitions, terminal/deadlock/stuck counts, depth, BFS verdicts and
// shortest counterexample lengths, with and without the policy, for the
// sequential search and (on every third model) the parallel one.
func TestDifferential(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	if v, err := strconv.Atoi(os.Getenv("VIGIL_DIFF_N")); err == nil {
		n = v // a longer campaign: VIGIL_DIFF_N=5000 go test -run Differential
	}
	var rangeErrs, unsafe, safe int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{RangeErrors: seed%4 == 0}
		if seed%2 == 1 {
			opt.MaxVars, opt.MaxRange, opt.MaxCommands = 5, 8, 8
		}
		m := gen.Model(seed, opt)
		if seed%5 == 2 {
			pad(m) // multi-word states through the non-compact store
		}
		prop, pol, g, dec := engines(t, seed, m)
		for run := range 6 {
			// Sequential, then parallel on 2 and 3 workers (3 leaves
			// some workers owning more shards than others).
			withPolicy, workers := run%2 == 1, []int{1, 2, 3}[run/2]
			if workers > 1 && seed%3 != 0 {
				continue
			}
			r := &ref{m: m, p: prop}
			opts := explicit.Options{Workers: workers, Block: 1}
			if withPolicy {
				r.policy = pol
				opts.Policy = dec
			}
			want, rangeErr := searchMatches(t, seed, withPolicy, r, g, opts)
			if rangeErr && workers == 1 {
				rangeErrs++
			}
			if want == nil {
				continue
			}
			if !withPolicy {
				continue
			}
			opts.StopAtUnsafe = true
			v, err := explicit.Search(context.Background(), g, opts)
			if err != nil {
				t.Fatalf("seed %d verify: %v", seed, err)
			}
			if want.unsafe == 0 {
				if workers == 1 {
					safe++
				}
				if v.Verdict != explicit.Safe {
					t.Fatalf("seed %d: verdict %v, reference says safe", seed, v.Verdict)
				}
				continue
			}
			if workers == 1 {
				unsafe++
			}
			if v.Verdict != explicit.UnsafeVerdict {
				t.Fatalf("seed %d: verdict %v, reference says unsafe", seed, v.Verdict)
			}
			if len(v.Trace)-1 != want.firstUnsafeDepth {
				t.Fatalf("seed %d: counterexample of %d steps, shortest is %d", seed, len(v.Trace)-1, want.firstUnsafeDepth)
			}
			replay(t, seed, r, v.Trace)
		}
	}
	t.Logf("%d models: %d unsafe, %d safe verdicts, %d range errors", n, unsafe, safe, rangeErrs)
	if unsafe == 0 || safe == 0 || rangeErrs == 0 {
		t.Errorf("generator lacks variety: %d unsafe, %d safe, %d range errors", unsafe, safe, rangeErrs)
	}
}

// searchMatches explores with the reference r and searches g with opts,
// and fails the test unless both fail (a range error of the reference
// being the engine's *RangeError) or both agree on every count and state
// (compare). It returns the reference's result, nil when both failed,
// and whether they failed with a range error.
func searchMatches(t *testing.T, seed uint64, withPolicy bool, r *ref, g *explicit.Generator, opts explicit.Options) (*refResult, bool) {
	t.Helper()
	want, werr := r.explore()
	got, gerr := explicit.Search(context.Background(), g, opts)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("seed %d policy=%v: ref error %v, engine error %v", seed, withPolicy, werr, gerr)
	}
	if werr != nil {
		if !errors.Is(werr, errRefRange) {
			return nil, false
		}
		if _, ok := errors.AsType[*explicit.RangeError](gerr); !ok {
			t.Fatalf("seed %d: want a RangeError, got %v", seed, gerr)
		}
		return nil, true
	}
	compare(t, seed, withPolicy, r.m, g, want, got)
	return want, false
}

func compare(t *testing.T, seed uint64, pol bool, m *symbolic.Model, g *explicit.Generator, want *refResult, got *explicit.Result) {
	t.Helper()
	s := got.Stats
	type pair struct {
		name      string
		got, want int
	}
	for _, p := range []pair{
		{"states", s.States, want.states},
		{"transitions", s.Transitions, want.transitions},
		{"depth", s.Depth, want.depth},
		{"unsafe", s.Unsafe, want.unsafe},
		{"goal", s.Goal, want.goal},
		{"deadlocks", s.Deadlocks, want.deadlocks},
		{"stuck", s.Stuck, want.stuck},
	} {
		if p.got != p.want {
			t.Fatalf("seed %d policy=%v: %s = %d, reference %d", seed, pol, p.name, p.got, p.want)
		}
	}
	st := make(symbolic.State, len(m.Vars))
	for id := 0; id < got.Store.Len(); id++ {
		g.L.Unpack(got.Store.Get(uint32(id)), st)
		if !want.reached[key(st)] {
			t.Fatalf("seed %d policy=%v: engine reaches %s, the reference does not", seed, pol, m.FormatState(st))
		}
	}
}

// replay checks a counterexample in the reference semantics.
func replay(t *testing.T, seed uint64, r *ref, tr []explicit.Step) {
	t.Helper()
	first := tr[0].State
	if r.p.Start != nil && !r.p.Start.Holds(first) {
		t.Fatalf("seed %d: counterexample starts outside the start condition", seed)
	}
	for i, st := range tr[:len(tr)-1] {
		if r.status(st.State) != "" {
			t.Fatalf("seed %d: step %d is terminal", seed, i)
		}
		ls, _ := r.labels(st.State)
		if len(ls) != 1 || ls[0] != st.Label {
			t.Fatalf("seed %d: step %d takes %v, the policy chooses %v", seed, i, st.Label, ls)
		}
		c := r.m.Commands[st.Cmd]
		if c.Label != st.Label || !c.Guard.Holds(st.State) {
			t.Fatalf("seed %d: step %d: command %d not applicable for its label", seed, i, st.Cmd)
		}
		next := append(symbolic.State(nil), st.State...)
		for _, a := range c.Outcomes[st.Outcome].Assigns {
			next[a.Var] = a.Value.Eval(st.State)
		}
		if key(next) != key(tr[i+1].State) {
			t.Fatalf("seed %d: step %d does not lead to step %d", seed, i, i+1)
		}
	}
	if r.status(tr[len(tr)-1].State) != "unsafe" {
		t.Fatalf("seed %d: counterexample does not end unsafe", seed)
	}
}

// pad adds two variables of 41 bits each, pinned to 0, so that states take
// three or more words; the transition system is unchanged.
func pad(m *symbolic.Model) {
	for i := 0; i < 2; i++ {
		v := symbolic.VarID(len(m.Vars))
		m.Vars = append(m.Vars, symbolic.Var{Name: "pad" + strconv.Itoa(i), Lo: 0, Hi: 1 << 40, HasInit: true})
		if p := m.Properties[0]; p.Start != nil {
			p.Start = symbolic.And(p.Start, symbolic.Compare(symbolic.V(v), symbolic.Eq, symbolic.Lit(0)))
		}
	}
}

// TestGraph checks BuildGraph against the reference: the same states, and
// per state and label the same successors; Transpose inverts Succ.
func TestGraph(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 4, MaxRange: 6})
		g, _ := explicit.New(m, m.Properties[0])
		pol, _ := symbolic.Instantiate(m, m.Policies[0])
		dec, _ := explicit.NewDecider(m, m.Policies[0])
		for _, withPolicy := range []bool{false, true} {
			r := &ref{m: m, p: m.Properties[0]}
			opts := explicit.Options{}
			if withPolicy {
				r.policy, opts.Policy = pol, dec
			}
			want, werr := r.explore()
			gr, gerr := explicit.BuildGraph(context.Background(), g, opts)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("seed %d: ref %v, graph %v", seed, werr, gerr)
			}
			if werr != nil {
				continue
			}
			if gr.NumStates() != want.states || len(gr.Succ) != want.transitions {
				t.Fatalf("seed %d: graph %d states %d transitions, ref %d, %d", seed, gr.NumStates(), len(gr.Succ), want.states, want.transitions)
			}
			s := make(symbolic.State, len(m.Vars))
			ts := make(symbolic.State, len(m.Vars))
			for id := 0; id < gr.NumStates(); id++ {
				g.L.Unpack(gr.Store.Get(uint32(id)), s)
				from, to := gr.Groups(uint32(id))
				for k := from; k < to; k++ {
					succ, err := r.succ(s, gr.GroupLabel[k])
					if err != nil {
						t.Fatal(err)
					}
					keys := map[string]bool{}
					for _, x := range succ {
						keys[key(x)] = true
					}
					got := gr.Successors(k)
					if len(got) != len(keys) {
						t.Fatalf("seed %d: state %s label %d: %d successors, ref %d", seed, m.FormatState(s), gr.GroupLabel[k], len(got), len(keys))
					}
					for j, tid := range got {
						g.L.Unpack(gr.Store.Get(tid), ts)
						if !keys[key(ts)] {
							t.Fatalf("seed %d: unexpected successor %s", seed, m.FormatState(ts))
						}
						v := gr.Via[int(gr.SuccStart[k])+j]
						if next, err := g.Apply(s, int(v.Cmd), int(v.Outcome)); err != nil || key(next) != key(ts) {
							t.Fatalf("seed %d: Via does not produce its successor", seed)
						}
					}
				}
			}
			start, pred := gr.Transpose()
			n := 0
			for tid := 0; tid < gr.NumStates(); tid++ {
				for _, p := range pred[start[tid]:start[tid+1]] {
					found := false
					from, to := gr.Groups(p)
					for k := from; k < to && !found; k++ {
						for _, x := range gr.Successors(k) {
							found = found || int(x) == tid
						}
					}
					if !found {
						t.Fatalf("seed %d: %d listed as predecessor of %d", seed, p, tid)
					}
					n++
				}
			}
			if n != len(gr.Succ) {
				t.Fatalf("seed %d: %d predecessor entries for %d transitions", seed, n, len(gr.Succ))
			}
		}
	}
}
