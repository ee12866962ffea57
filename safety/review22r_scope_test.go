package safety_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// scopeRef is a brute-force reference for the rule of lang/spec.md,
// "Range errors", written from the model alone (guards, assignments and
// BadProb evaluated directly, no explicit.Generator): the answer to "is s
// r-safe" is a range error when a non-terminal state reachable from s
// with at most r deviations has one, else the greatest fixpoint of
// "some label affordable with budget b keeps every outcome b'-safe".
type scopeRef struct {
	m     *symbolic.Model
	prop  *symbolic.Property
	pi    symbolic.Policy
	index map[string]int
	ss    []symbolic.State
	cls   []int // 0 open, 1 unsafe, 2 goal
	errs  []bool
	choi  []symbolic.LabelID
	app   [][]symbolic.LabelID // applicable labels
	succ  [][][]int            // per state, per applicable label: successors (none when the state errs)
}

func stateKey(s symbolic.State) string { return fmt.Sprint([]int(s)) }

func newScopeRef(t *testing.T, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) *scopeRef {
	pi, err := symbolic.Instantiate(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	ref := &scopeRef{m: m, prop: prop, pi: pi, index: map[string]int{}}
	ref.ss = gen.States(m)
	for i, s := range ref.ss {
		ref.index[stateKey(s)] = i
	}
	for _, s := range ref.ss {
		cls := 0
		switch {
		case prop.Unsafe.Holds(s):
			cls = 1
		case prop.Goal != nil && prop.Goal.Holds(s):
			cls = 2
		}
		var app []symbolic.LabelID
		for l := range m.Labels {
			for _, c := range m.Commands {
				if int(c.Label) == l && c.Guard.Holds(s) {
					app = append(app, symbolic.LabelID(l))
					break
				}
			}
		}
		bad := false
		var succ [][]int
		for _, l := range app {
			var ts []int
			for _, c := range m.Commands {
				if c.Label != l || !c.Guard.Holds(s) {
					continue
				}
				for _, o := range c.Outcomes {
					for _, f := range o.ProbFactors {
						if n, d := f.Num.EvalBig(s), f.Den.EvalBig(s); d.Sign() == 0 || new(big.Rat).SetFrac(n, d).Sign() < 0 || new(big.Rat).SetFrac(n, d).Cmp(big.NewRat(1, 1)) > 0 {
							bad = true
						}
					}
					next := slices.Clone(s)
					for _, a := range o.Assigns {
						next[a.Var] = a.Value.Eval(s)
					}
					for vi, v := range m.Vars {
						if next[vi] < v.Lo || next[vi] > v.Hi {
							bad = true
						}
					}
					if !bad {
						ts = append(ts, ref.index[stateKey(next)])
					}
				}
			}
			succ = append(succ, ts)
		}
		choice := symbolic.NoLabel
		if cls == 0 && len(app) > 0 {
			choice, err = symbolic.Decide(pi, s, func(l symbolic.LabelID) bool { return slices.Contains(app, l) }, nil)
			if err != nil {
				t.Fatalf("policy in %s: %v", m.FormatState(s), err)
			}
		}
		ref.cls = append(ref.cls, cls)
		ref.errs = append(ref.errs, cls == 0 && bad)
		ref.choi = append(ref.choi, choice)
		ref.app = append(ref.app, app)
		ref.succ = append(ref.succ, succ)
	}
	return ref
}

func (ref *scopeRef) cost(s int, l symbolic.LabelID, r safety.Radius) int {
	if r < 0 || ref.choi[s] == l {
		return 0
	}
	return 1
}

// scope returns, per state, the largest budget with which it is reachable
// from s0 within the radius (-1: not in the scope).
func (ref *scopeRef) scope(s0 int, r safety.Radius) []int {
	best := make([]int, len(ref.ss))
	for i := range best {
		best[i] = -1
	}
	b0 := max(int(r), 0)
	best[s0] = b0
	for changed := true; changed; {
		changed = false
		for s, b := range best {
			if b < 0 || ref.cls[s] != 0 || ref.errs[s] {
				continue
			}
			for i, l := range ref.app[s] {
				c := ref.cost(s, l, r)
				for _, t := range ref.succ[s][i] {
					if b-c > best[t] {
						best[t], changed = b-c, true
					}
				}
			}
		}
	}
	return best
}

// scopeErrs reports whether the scope of (s0, r) holds a range error.
func (ref *scopeRef) scopeErrs(s0 int, r safety.Radius) bool {
	for s, b := range ref.scope(s0, r) {
		if b >= 0 && ref.errs[s] {
			return true
		}
	}
	return false
}

// safe returns safe[s][b] for budgets 0..max(r, 0): the greatest fixpoint
// (states that err are not safe; no question whose scope is clean reaches
// them).
func (ref *scopeRef) safe(r safety.Radius) [][]bool {
	nb := max(int(r), 0) + 1
	safe := make([][]bool, len(ref.ss))
	for s := range safe {
		safe[s] = make([]bool, nb)
		for b := range safe[s] {
			safe[s][b] = ref.cls[s] != 1 && !ref.errs[s]
		}
	}
	for changed := true; changed; {
		changed = false
		for s := range safe {
			if ref.cls[s] != 0 || ref.errs[s] || len(ref.app[s]) == 0 {
				continue
			}
			for b := range nb {
				if !safe[s][b] {
					continue
				}
				ok := false
				for i, l := range ref.app[s] {
					c := ref.cost(s, l, r)
					if c > b {
						continue
					}
					all := true
					for _, t := range ref.succ[s][i] {
						if !safe[t][b-c] {
							all = false
							break
						}
					}
					if all {
						ok = true
						break
					}
				}
				if !ok {
					safe[s][b], changed = false, true
				}
			}
		}
	}
	return safe
}

// addProbErrors gives one outcome of some commands the state-dependent
// probability x/k (x the first variable), outside [0, 1] where x > k or
// x < 0, as JANI import does for a destination whose probability reads
// the state.
func addProbErrors(m *symbolic.Model, seed uint64) {
	v := m.Vars[0]
	k := max(1, (v.Lo+v.Hi)/2)
	for ci := range m.Commands {
		if (int(seed)+ci)%3 != 0 {
			continue
		}
		o := &m.Commands[ci].Outcomes[0]
		o.ProbFactors = []symbolic.ProbFactor{{Num: symbolic.V(0), Den: symbolic.Lit(k), Pos: o.Pos}}
	}
}

// graphModel is a random graph for the scope test: x is the node (the
// last one unsafe, the one before a goal in some models), w a bit some
// outcomes flip, labels a, b and c with commands per node whose outcomes
// go anywhere, leave x's range (x' = x + N) or, once loaded, have the
// probability 3/2; the tested policy picks a label per node.
func graphModel(t *testing.T, seed uint64) *symbolic.Model {
	r := rand.New(rand.NewPCG(seed, 22))
	n := 5 + r.IntN(8)
	src := fmt.Sprintf("model graph%d\nvar x : 0 .. %d = 0\nvar w : 0 .. 1 = 0\n", seed, n-1)
	labels := []string{"a", "b", "c"}
	type at struct{ c, o int }
	var probs []at
	cmds := 0
	for i := range n - 1 {
		for _, l := range labels {
			if r.IntN(10) < 4 {
				continue
			}
			guard := fmt.Sprintf("x == %d", i)
			if r.IntN(3) == 0 {
				guard += fmt.Sprintf(" && w == %d", r.IntN(2))
			}
			var outs []string
			for o := range 1 + r.IntN(2) {
				switch k := r.IntN(100); {
				case k < 6:
					outs = append(outs, fmt.Sprintf("x' = x + %d", n))
				case k < 11:
					outs = append(outs, "w' = 1 - w")
					probs = append(probs, at{cmds, o})
				default:
					out := fmt.Sprintf("x' = %d", r.IntN(n))
					if r.IntN(3) == 0 {
						out += ", w' = 1 - w"
					}
					outs = append(outs, out)
				}
			}
			src += fmt.Sprintf("action %s when %s -> %s\n", l, guard, strings.Join(outs, " | "))
			cmds++
		}
	}
	prop := fmt.Sprintf("property p { start x == 0 unsafe x == %d", n-1)
	if r.IntN(2) == 0 {
		prop += fmt.Sprintf(" goal x == %d", n-2)
	}
	src += prop + " }\npolicy rules pi {"
	for i := range n - 1 {
		if r.IntN(4) > 0 {
			src += fmt.Sprintf(" when x == %d -> %s", i, labels[r.IntN(3)])
		}
	}
	src += " otherwise -> a }\n"
	m := testutil.LoadSource(t, fmt.Sprintf("graph%d.spec", seed), src)
	for _, p := range probs {
		o := &m.Commands[p.c].Outcomes[p.o]
		o.ProbFactors = []symbolic.ProbFactor{{Num: symbolic.Lit(3), Den: symbolic.Lit(2), Pos: o.Pos}}
	}
	return m
}

// TestReview22rScopeDifferential: on generated models with range errors
// (assignments leaving a range, and probabilities outside [0, 1]) at
// varied depths, every decider (each explicit one, and propu-bdd at
// radius 0 and inf) gives for every state and radius the answer of the
// brute-force reference: a range error exactly when the question's scope
// holds one (the explicit deciders the same error, naming a state of the
// scope that errs), else the reference's verdict; and certificates of the
// verdicts pass the checker. Then one decider per algorithm is asked every
// state in turn (caches shared across questions): the same answers, and
// the explicit deciders the same errors.
func TestReview22rScopeDifferential(t *testing.T) {
	ctx := context.Background()
	algos := append(slices.Clone(safety.Algorithms), "ipi-learn", "npi-rand")
	mk := func(algo string, sp *safety.Space, r safety.Radius) safety.Decider {
		opt := safety.Options{Seed: 3}
		switch algo {
		case "ipi-learn":
			algo, opt.Order = "ipi", safety.OrderLearn
		case "npi-rand":
			algo, opt.Order = "npi", safety.OrderRand
		}
		d, err := safety.New(algo, sp, r, opt)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var asked, inScope, beyond, verdicts, bddAsked, seqAsked, proven, erring int
	depth := map[string]int{} // "radius/deviations to the nearest error": questions
	for seed := uint64(1); seed <= uint64(models(t)/10); seed++ {
		var m *symbolic.Model
		switch seed % 4 {
		case 1:
			m = gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 3, MaxRange: 5})
		case 3:
			m = gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 3, MaxRange: 5})
			addProbErrors(m, seed)
		default:
			m = graphModel(t, seed)
		}
		prop, pd, g, dec, ref := scopeSetup(t, m)
		if safety.NoRangeErrors(m) {
			proven++
			for i, bad := range ref.errs {
				if bad {
					t.Fatalf("seed %d: NoRangeErrors proves the model free of range errors, but state %s has one", seed, m.FormatState(ref.ss[i]))
				}
			}
		} else {
			for _, bad := range ref.errs {
				erring += btoi(bad)
			}
		}
		step := max(1, len(ref.ss)/12)
		for _, r := range []safety.Radius{0, 1, 2, 3, safety.Inf} {
			safe := ref.safe(r)
			// want returns the reference's answer for state i: a range
			// error (true) or the verdict.
			want := func(i int) (bool, bool) {
				if ref.scopeErrs(i, r) {
					return true, false
				}
				return false, safe[i][max(int(r), 0)]
			}
			// check compares a decider's answer with the reference's.
			check := func(who string, i int, got bool, err error) {
				t.Helper()
				s := ref.ss[i]
				werr, wsafe := want(i)
				switch {
				case werr && err == nil:
					t.Fatalf("seed %d, radius %v, state %s: %s says safe=%v, want the range error of its scope", seed, r, m.FormatState(s), who, got)
				case werr:
					var re *explicit.RangeError
					if !errors.As(err, &re) {
						t.Fatalf("seed %d, radius %v, state %s: %s fails with %v, want a range error", seed, r, m.FormatState(s), who, err)
					}
					j := ref.index[stateKey(re.State)]
					if ref.scope(i, r)[j] < 0 || !ref.errs[j] {
						t.Fatalf("seed %d, radius %v, state %s: %s reports %v, not a range error of the scope", seed, r, m.FormatState(s), who, err)
					}
				case err != nil:
					t.Fatalf("seed %d, radius %v, state %s: %s fails with %v; the scope has no range error (answer: safe=%v)", seed, r, m.FormatState(s), who, err, wsafe)
				case got != wsafe:
					t.Fatalf("seed %d, radius %v, state %s: %s says safe=%v, the reference %v", seed, r, m.FormatState(s), who, got, wsafe)
				}
			}
			for i := 0; i < len(ref.ss); i += step {
				asked++
				werr, _ := want(i)
				switch {
				case werr:
					inScope++
				case ref.scopeErrs(i, safety.Inf):
					beyond++ // an error reachable, beyond the radius
				default:
					verdicts++
				}
				if werr && r >= 0 {
					for d := 0; d <= int(r); d++ {
						if ref.scopeErrs(i, safety.Radius(d)) {
							depth[fmt.Sprintf("r=%v/d=%d", r, d)]++
							break
						}
					}
				}
				first := ""
				for _, algo := range algos {
					sp := safety.NewSpace(g, dec)
					d := mk(algo, sp, r)
					id, err := sp.Intern(ref.ss[i])
					if err != nil {
						t.Fatal(err)
					}
					got, err := d.Decide(ctx, id)
					check(algo, i, got, err)
					if err != nil {
						if first == "" {
							first = err.Error()
						} else if err.Error() != first {
							t.Fatalf("seed %d, radius %v, state %s: %s reports %v, %s %v", seed, r, m.FormatState(ref.ss[i]), algo, err, algos[0], first)
						}
						continue
					}
					if algo == "tarjan-path" {
						continue // keeps no certificates
					}
					c, err := safety.Certify(d, id)
					if err == nil {
						c.Property, c.Policy = prop.Name, pd.Name
					}
					if err != nil {
						t.Fatalf("seed %d, radius %v, state %s: %s: certify: %v", seed, r, m.FormatState(ref.ss[i]), algo, err)
					}
					if err := checkCert(m, prop, pd, c); err != nil {
						t.Fatalf("seed %d, radius %v, state %s: %s's certificate: %v", seed, r, m.FormatState(ref.ss[i]), algo, err)
					}
				}
				if r == 0 || r == safety.Inf {
					bddAsked++
					res, err := bdd.PropU(ctx, m, prop, pd, r, []symbolic.State{ref.ss[i]}, bdd.Options{})
					var ans []bdd.Answer
					if err == nil {
						ans, err = res.Decide([]symbolic.State{ref.ss[i]})
					}
					got := false
					if err == nil {
						if ans[0] == bdd.AnswerUnknown {
							t.Fatalf("seed %d, radius %v, state %s: propu-bdd: unknown", seed, r, m.FormatState(ref.ss[i]))
						}
						got = ans[0] == bdd.AnswerSafe
					}
					check("propu-bdd", i, got, err)
				}
			}
			// One decider per algorithm, every state in turn.
			firsts := make([]string, len(ref.ss))
			for _, algo := range algos {
				sp := safety.NewSpace(g, dec)
				if seed%2 == 1 {
					safety.ForceScopeSearch(sp) // even on a model proven free of range errors
				}
				d := mk(algo, sp, r)
				for i, s := range ref.ss {
					seqAsked++
					id, err := sp.Intern(s)
					if err != nil {
						t.Fatal(err)
					}
					got, err := d.Decide(ctx, id)
					check(algo+" (asked in turn)", i, got, err)
					if err != nil {
						if firsts[i] == "" {
							firsts[i] = err.Error()
						} else if err.Error() != firsts[i] {
							t.Fatalf("seed %d, radius %v, state %s asked in turn: %s reports %v, %s %v", seed, r, m.FormatState(s), algo, err, algos[0], firsts[i])
						}
					}
				}
			}
		}
	}
	t.Logf("%d questions to %d deciders: %d with a range error in the scope, %d with one only beyond the radius, %d without; %d to propu-bdd; %d asked in turn; nearest error by radius: %v; %d models proven free of range errors (the others: %d states with one)",
		asked, len(algos), inScope, beyond, verdicts, bddAsked, seqAsked, depth, proven, erring)
	if inScope == 0 || beyond == 0 || verdicts == 0 {
		t.Errorf("the test compares too little: %d errors in scope, %d beyond, %d verdicts", inScope, beyond, verdicts)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReview22rStaticSkip: the models of the figures are proven free of
// range errors, so their questions skip the scope search (their figures
// did not change); the review cases' models are not.
func TestReview22rStaticSkip(t *testing.T) {
	for _, c := range []struct {
		file string
		want bool
	}{
		{"../specs/npuzzle.spec", true},
		{"../specs/flappy.spec", true},
		{"../specs/tarjansafe.spec", true},
		{"testdata/snake.spec", true},
		{"../bench/adversarial/safety_selfloop_tarjan.txtar", true}, // x < N narrows x of 10^7 values
		{"../bench/adversarial/review20_range_beyond_radius.txtar", false},
		{"../bench/adversarial/safety_bdd_range_chain.txtar", false},
		{"../bench/adversarial/safety_vi_radius_range.txtar", false},
	} {
		var m *symbolic.Model
		if strings.HasSuffix(c.file, ".txtar") {
			ar, err := txtar.ParseFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".spec") {
					m = testutil.LoadSource(t, f.Name, string(f.Data))
				}
			}
		} else {
			m = testutil.LoadFile(t, c.file)
		}
		if got := safety.NoRangeErrors(m); got != c.want {
			t.Errorf("%s: NoRangeErrors = %v, want %v", c.file, got, c.want)
		}
	}
}

// scopeSetup is the scope tests' question on m: its first property and
// policy, the explicit generator and decider, and the brute-force
// reference.
func scopeSetup(t *testing.T, m *symbolic.Model) (*symbolic.Property, *symbolic.PolicyDecl, *explicit.Generator, explicit.Decider, *scopeRef) {
	t.Helper()
	prop, pd := m.Properties[0], m.Policies[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	return prop, pd, g, dec, newScopeRef(t, m, prop, pd)
}
