package explicit_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestStartSamplerSmallIsExact: a small start set is enumerated and drawn
// uniformly; every state is drawn about equally often.
func TestStartSamplerSmallIsExact(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	start := symbolic.And(cmp(v(0), symbolic.Le, k(1)), cmp(v(1), symbolic.Le, k(2)), cmp(v(2), symbolic.Eq, k(7)))
	m := wideModel(3, start)
	g := testutil.Generator(t, m, m.Properties[0])
	ss, err := g.NewStartSampler(context.Background(), explicit.SamplerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n, exact := ss.Count(); n != 6 || !exact {
		t.Fatalf("Count = %v, %v; want 6, exact", n, exact)
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]int{}
	for i := 0; i < 6000; i++ {
		s, err := ss.Sample(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if !start.Holds(s) {
			t.Fatalf("drew %v outside the start condition", s)
		}
		seen[m.FormatState(s)]++
	}
	if len(seen) != 6 {
		t.Fatalf("drew %d distinct start states, want 6", len(seen))
	}
	for s, c := range seen {
		if c < 800 || c > 1200 {
			t.Errorf("%s drawn %d times of 6000: not uniform", s, c)
		}
	}
}

// TestStartSamplerHugeIsFast: 10^24 states in the box (8 variables of
// 0..999), a start condition with one linear relation between three of
// them and a parity-free sparse one between two others: sampling must not
// enumerate, and every draw satisfies the condition.
func TestStartSamplerHugeIsFast(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	sum := func(vs ...symbolic.VarID) *symbolic.Expr {
		e := &symbolic.Expr{Op: symbolic.OpAdd}
		for _, x := range vs {
			e.Args = append(e.Args, v(x))
		}
		return e
	}
	start := symbolic.And(
		cmp(sum(0, 1, 2), symbolic.Le, k(1500)), // rejection: about half the box
		cmp(v(3), symbolic.Ge, k(10)),           // a bound: propagation
		cmp(sum(4, 5), symbolic.Eq, k(700)),     // a 10^6 box: enumerated
	)
	m := wideModel(8, start)
	g := testutil.Generator(t, m, m.Properties[0])
	began := time.Now()
	ss, err := g.NewStartSampler(context.Background(), explicit.SamplerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ss.Uniform() {
		t.Errorf("draws not uniform: %s", ss.Describe())
	}
	d := ss.Describe()
	for _, want := range []string{"rejection", "701 solutions enumerated", "free"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe() = %q, want it to mention %q", d, want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var mean float64
	const draws = 4000
	for i := 0; i < draws; i++ {
		s, err := ss.Sample(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if !start.Holds(s) {
			t.Fatalf("drew %v outside the start condition", s)
		}
		mean += float64(s[7]) / draws
	}
	if math.Abs(mean-499.5) > 25 {
		t.Errorf("a free variable's mean is %.1f, want about 499.5", mean)
	}
	if el := time.Since(began); el > 10*time.Second {
		t.Errorf("sampling took %v", el)
	}
}

// TestStartSamplerSparseNeedsSolver: a component whose box holds almost no
// solution is refused without a solver (with a message that says why) and
// drawn from the solver's solutions with one.
func TestStartSamplerSparseNeedsSolver(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	sum := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{v(0), v(1), v(2)}}
	// One solution (500, 500, 500) in a box of 10^9 states that
	// propagation does not shrink.
	start := symbolic.And(cmp(sum, symbolic.Eq, k(1500)), cmp(v(0), symbolic.Eq, v(1)), cmp(v(1), symbolic.Eq, v(2)))
	m := wideModel(3, start)
	g := testutil.Generator(t, m, m.Properties[0])
	_, err := g.NewStartSampler(context.Background(), explicit.SamplerOptions{EnumLimit: 1000})
	if err == nil || !strings.Contains(err.Error(), "too sparse") {
		t.Fatalf("no solver: err = %v, want too sparse", err)
	}
	solve := func(ctx context.Context, conds []*symbolic.Cond, vars []symbolic.VarID, lo, hi []int, n int, r *rand.Rand) ([][]int, error) {
		return [][]int{{500, 500, 500}}, nil
	}
	ss, err := g.NewStartSampler(context.Background(), explicit.SamplerOptions{EnumLimit: 1000, Solve: solve})
	if err != nil {
		t.Fatal(err)
	}
	if ss.Uniform() || !strings.Contains(ss.Describe(), "other solutions are never drawn") {
		t.Errorf("Describe() = %q: must say draws are not uniform over all solutions", ss.Describe())
	}
	s, err := ss.Sample(context.Background(), rand.New(rand.NewPCG(1, 1)))
	if err != nil || !start.Holds(s) {
		t.Fatalf("Sample = %v, %v", s, err)
	}
	// A solver that returns a non-solution is caught, not trusted.
	bad := func(ctx context.Context, conds []*symbolic.Cond, vars []symbolic.VarID, lo, hi []int, n int, r *rand.Rand) ([][]int, error) {
		return [][]int{{500, 500, 500}, {1, 2, 3}}, nil
	}
	_, err = g.NewStartSampler(context.Background(), explicit.SamplerOptions{EnumLimit: 1000, Solve: bad})
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("a wrong solution: err = %v, want an internal error", err)
	}
}

// TestStartSamplerCancel: building a sampler ends with the context.
func TestStartSamplerCancel(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	sum := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{v(0), v(1), v(2)}}
	m := wideModel(3, cmp(sum, symbolic.Eq, k(1500)))
	g := testutil.Generator(t, m, m.Properties[0])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.NewStartSampler(ctx, explicit.SamplerOptions{EnumLimit: 1000}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// scored is a policy with fixed scores, for TestExplain.
type scored struct{ out []symbolic.LabelID }

func (p scored) Outputs() []symbolic.LabelID { return p.out }
func (p scored) Scores(s symbolic.State, dst []float64) error {
	for i := range dst {
		dst[i] = float64(s[0]) - float64(i)
	}
	return nil
}

// TestExplain: the rule that fired, or every output's score.
func TestExplain(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	m := wideModel(2, symbolic.True())
	m.Labels = append(m.Labels, symbolic.Label{Name: "dec"})
	d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindRules, Rules: []symbolic.Rule{
		{Cond: cmp(v(0), symbolic.Gt, k(5)), Label: 1, Pos: symbolic.Pos{File: "f.spec", Line: 3, Col: 5}},
		{Cond: symbolic.True(), Label: 0, Pos: symbolic.Pos{File: "f.spec", Line: 4, Col: 5}},
	}}
	dec, err := explicit.NewDecider(m, d)
	if err != nil {
		t.Fatal(err)
	}
	r, err := explicit.Explain(dec, symbolic.State{7, 0}, []bool{true, true})
	if err != nil || r == nil || r.Rule != 0 || r.Label != 1 || r.RulePos.Line != 3 {
		t.Fatalf("Explain = %+v, %v; want rule 0 (line 3), label dec", r, err)
	}
	r, _ = explicit.Explain(dec, symbolic.State{7, 0}, []bool{true, false})
	if r.Rule != 1 || r.Label != 0 {
		t.Fatalf("dec not applicable: Explain = %+v; want rule 1, label inc", r)
	}
	pd, err := explicit.PolicyDecider(m, scored{out: []symbolic.LabelID{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	r, err = explicit.Explain(pd, symbolic.State{3, 0}, []bool{false, true})
	if err != nil || r == nil || len(r.Scores) != 2 || r.Scores[0] != 3 || r.Scores[1] != 2 || r.Label != 1 {
		t.Fatalf("Explain = %+v, %v; want scores [3 2], label dec (inc not applicable)", r, err)
	}
}

// scoredAll is scored read `argmax all` (symbolic.Unfiltered).
type scoredAll struct{ scored }

func (scoredAll) ArgMaxAll() bool { return true }

// TestStuckReason: why a policy chooses no label, under each reading and
// for rules.
func TestStuckReason(t *testing.T) {
	m := wideModel(2, symbolic.True())
	m.Labels = append(m.Labels, symbolic.Label{Name: "dec"})
	g := testutil.Generator(t, m, m.Properties[0])
	r := &explicit.Reason{Label: symbolic.NoLabel, Outputs: []symbolic.LabelID{0, 1}, Scores: []float64{3, 2}, All: true}
	if got, want := r.Stuck(m, "pi", []bool{false, true}), "policy pi chose inc (score 3), which is not applicable here (argmax all: the run ends)"; got != want {
		t.Errorf("argmax all: %q, want %q", got, want)
	}
	r.All = false
	if got, want := r.Stuck(m, "pi", []bool{false, false}), "policy pi: no output label is applicable here (argmax applicable: the run ends)"; got != want {
		t.Errorf("argmax applicable: %q, want %q", got, want)
	}
	r.Scores = []float64{3, math.Inf(-1)}
	if got := r.Stuck(m, "", []bool{false, true}); !strings.HasPrefix(got, "policy: the applicable output labels all score -inf or NaN (dec -inf)") {
		t.Errorf("-inf: %q", got)
	}
	r.Scores = nil
	if got := r.Stuck(m, "rp", []bool{true, true}); got != "policy rp: no rule whose label is applicable holds here (the run ends)" {
		t.Errorf("rules: %q", got)
	}
	// StuckReason evaluates the decider: dec (score 3, never applicable)
	// beats inc (2) in a = 3, so argmax all is stuck there, while argmax
	// applicable chooses inc ("").
	out := []symbolic.LabelID{1, 0}
	for _, c := range []struct {
		p    symbolic.Policy
		want string
	}{
		{scoredAll{scored{out: out}}, "policy pi chose dec (score 3), which is not applicable here (argmax all: the run ends)"},
		{scored{out: out}, ""},
	} {
		pd, err := explicit.PolicyDecider(m, c.p)
		if err != nil {
			t.Fatal(err)
		}
		why, err := explicit.StuckReason(g, pd, "pi", symbolic.State{3, 0})
		if err != nil || why != c.want {
			t.Errorf("StuckReason = %q, %v; want %q", why, err, c.want)
		}
	}
}
