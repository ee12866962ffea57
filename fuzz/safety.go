package fuzz

// Safety fuzzing: paper 000, section 5, Algorithm 1.
//
// A fuzzing run starts in a start state drawn uniformly at random and
// extends a policy path with FindContinuation until the path ends in an
// unsafe state (an unsafe run: the test case) or cannot be extended to one
// ("failed"). FindContinuation(s) searches the policy graph Theta^pi
// breadth first from s: layer S_d holds the states first met d policy
// steps from s (each state once, so the search ends when the graph below s
// is exhausted). It stops at the first layer that (b) holds an unsafe
// state: the path to it completes the run; or (c) is empty: no unsafe
// state is reachable under the policy and the run fails; or (a) has a
// unique state of minimal unsafety distance h_u, or is layer D_limit. Then
// the path is extended to one visited state, chosen by the strategy:
//
//   - uniform: uniformly among all visited states (with D_limit = 1, as in
//     the paper: a successor of the policy's label drawn uniformly);
//   - greedy: a state of the last layer with minimal h_u (ties: uniformly);
//   - sampling: among all visited states with p(s') proportional to
//     e^{-h_u(s')}.
//
// h_u (unsafeDist) is the paper's Manhattan-like estimate on the IR's
// unsafe condition: 0 where the condition holds, |sum_i w_i x_i - b| for a
// violated linear constraint, the sum over a conjunction and the minimum
// over a disjunction (negations are pushed to the comparisons first).
//
// Two limits that the paper leaves open keep a run finite: a run ends as
// failed after MaxLen policy steps (with lookahead, greedy choices can
// cycle), and after Expansions policy-graph states (D_limit = inf can
// search the whole reachable policy graph on every call).
//
// Each run draws its randomness from its own PCG seeded by (seed, run
// index), so run i is the same whichever worker makes it.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Strategy is how FindContinuation picks the state the path moves to.
type Strategy uint8

const (
	Uniform  Strategy = iota // uniformly among the visited states
	Greedy                   // minimal h_u in the last layer
	Sampling                 // p proportional to e^{-h_u} over the visited states
)

func (s Strategy) String() string { return [...]string{"uniform", "greedy", "sampling"}[s] }

// SafetyConfig is a configuration of Algorithm 1: a lookahead limit
// (Depth; 0 is unlimited) and a strategy.
type SafetyConfig struct {
	Depth    int
	Strategy Strategy
}

// Name is the configuration's name as paper 000's Figure 2 writes it:
// "uniform", "1-greedy", "inf-sampling", "3-greedy", ...
func (c SafetyConfig) Name() string {
	if c.Strategy == Uniform && c.Depth == 1 {
		return "uniform"
	}
	d := "inf"
	if c.Depth > 0 {
		d = strconv.Itoa(c.Depth)
	}
	return d + "-" + c.Strategy.String()
}

// SafetyConfigs are paper 000's five configurations, in Figure 2's order.
var SafetyConfigs = []SafetyConfig{{1, Uniform}, {1, Greedy}, {1, Sampling}, {0, Greedy}, {0, Sampling}}

// SafetyConfigNames lists the names of SafetyConfigs.
var SafetyConfigNames = func() []string {
	var out []string
	for _, c := range SafetyConfigs {
		out = append(out, c.Name())
	}
	return out
}()

// ParseSafetyConfig reads a configuration name: one of SafetyConfigNames,
// or D-STRATEGY for any lookahead limit D (a positive number, inf or ∞)
// and strategy uniform, greedy or sampling ("weighted" is sampling).
func ParseSafetyConfig(name string) (SafetyConfig, error) {
	bad := func() (SafetyConfig, error) {
		return SafetyConfig{}, fmt.Errorf("fuzz: unknown configuration %q%s; valid configurations: %s (or D-greedy, D-sampling, D-uniform for a lookahead depth D)",
			name, symbolic.Suggest(name, SafetyConfigNames), strings.Join(SafetyConfigNames, ", "))
	}
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "uniform" {
		return SafetyConfig{1, Uniform}, nil
	}
	d, s, ok := strings.Cut(n, "-")
	if !ok {
		return bad()
	}
	var c SafetyConfig
	switch s {
	case "uniform":
		c.Strategy = Uniform
	case "greedy":
		c.Strategy = Greedy
	case "sampling", "weighted":
		c.Strategy = Sampling
	default:
		return bad()
	}
	switch d {
	case "inf", "∞":
	default:
		k, err := strconv.Atoi(d)
		if err != nil || k < 1 {
			return bad()
		}
		c.Depth = k
	}
	return c, nil
}

// SafetyTask is one safety-testing problem: a model, a property with an
// unsafe condition, and the policy under test. It is not safe for
// concurrent use.
type SafetyTask struct {
	M          *symbolic.Model
	Prop       *symbolic.Property
	Gen        *explicit.Generator
	Policy     explicit.Decider
	PolicyName string
	// Sampler draws the runs' start states. Tasks of one test may share
	// it; SafetyTest (or the first Run) builds it when it is nil.
	Sampler *explicit.StartSampler

	h     *unsafeDist
	x     explicit.Expansion
	src   []uint64
	cache map[string]symbolic.LabelID
}

// NewSafetyTask compiles the model. It does not look at the start states:
// runs draw them from the task's Sampler.
func NewSafetyTask(m *symbolic.Model, prop *symbolic.Property, policy explicit.Decider, policyName string) (*SafetyTask, error) {
	if prop == nil {
		return nil, fmt.Errorf("fuzz: safety testing needs a property with an unsafe condition; model %s has none selected", m.Name)
	}
	if policy == nil {
		return nil, fmt.Errorf("fuzz: safety testing needs a policy")
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, err
	}
	return &SafetyTask{M: m, Prop: prop, Gen: g, Policy: policy, PolicyName: policyName, h: newUnsafeDist(prop.Unsafe),
		src: make([]uint64, g.Words()), cache: map[string]symbolic.LabelID{}}, nil
}

// NewSampler builds a start-state sampler for g with opt and ctx, the
// error prefixed the fuzz way.
func NewSampler(ctx context.Context, g *explicit.Generator, opt explicit.SamplerOptions) (*explicit.StartSampler, error) {
	ss, err := g.NewStartSampler(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("fuzz: %w", err)
	}
	return ss, nil
}

// Distance returns h_u(s).
func (t *SafetyTask) Distance(s symbolic.State) int { return t.h.dist(s) }

// decide returns the policy's label in s (NoLabel: stuck), or an error
// naming the state when the policy cannot be evaluated there.
func (t *SafetyTask) decide(s symbolic.State) (symbolic.LabelID, error) {
	k := goalKey(s)
	if l, ok := t.cache[k]; ok {
		return l, nil
	}
	t.Gen.Applicable(s, &t.x)
	if len(t.x.Labels) == 0 {
		return symbolic.NoLabel, nil
	}
	l, err := t.Policy.Decide(s, t.x.App)
	if err != nil {
		return symbolic.NoLabel, fmt.Errorf("fuzz: policy %s cannot be evaluated in state %s: %v", t.PolicyName, t.M.FormatState(s), err)
	}
	if len(t.cache) < 1<<20 {
		t.cache[k] = l
	}
	return l, nil
}

// succs returns the distinct successors of label l in s.
func (t *SafetyTask) succs(s symbolic.State, l symbolic.LabelID) ([]goalEdge, error) {
	return labelSuccs(t.Gen, &t.x, t.src, s, l)
}

// How a fuzzing run ends.
const (
	SafetyEndUnsafe    = "unsafe"    // the path reaches an unsafe state
	SafetyEndExhausted = "exhausted" // no unsafe state is reachable under the policy from the path's end
	SafetyEndLength    = "length"    // MaxLen policy steps without reaching an unsafe state
	SafetyEndBudget    = "budget"    // Expansions policy-graph states without reaching an unsafe state
)

// SafetyRun is the result of one run of Algorithm 1.
type SafetyRun struct {
	Index    int             // the run's number (its random stream)
	Steps    []explicit.Step // the policy path; the last step is a state only
	End      string          // SafetyEnd*
	Expanded int             // policy-graph states the lookahead searches visited
	At       time.Duration   // when the run ended, since fuzzing began
}

// Unsafe reports whether the run is a test case: it ends in an unsafe state.
func (r *SafetyRun) Unsafe() bool { return r.End == SafetyEndUnsafe }

// SafetyLimits bound one run. Zero fields take the defaults.
type SafetyLimits struct {
	MaxLen     int // policy steps per run (default 1,000)
	Expansions int // policy-graph states visited by the lookahead per run (default 100,000)
}

func (l SafetyLimits) withDefaults() (SafetyLimits, error) {
	err := goalDefaults([]goalOption{{"run length", &l.MaxLen, 1000}, {"expansion budget", &l.Expansions, 100_000}})
	return l, err
}

// safetyRNG is run i's random stream.
func safetyRNG(seed uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x73616665<<32|uint64(i)))
}

// Run performs run i of Algorithm 1 with configuration c.
func (t *SafetyTask) Run(ctx context.Context, c SafetyConfig, lim SafetyLimits, seed uint64, i int) (*SafetyRun, error) {
	lim, err := lim.withDefaults()
	if err != nil {
		return nil, err
	}
	if t.Sampler == nil {
		if t.Sampler, err = NewSampler(ctx, t.Gen, explicit.SamplerOptions{}); err != nil {
			return nil, err
		}
	}
	rng := safetyRNG(seed, i)
	s, err := t.Sampler.Sample(ctx, rng)
	if err != nil {
		return nil, err
	}
	r := &SafetyRun{Index: i}
	path := []explicit.Step{}
	for {
		if t.Gen.Status(s) == explicit.Unsafe {
			r.End = SafetyEndUnsafe
			break
		}
		if len(path) >= lim.MaxLen {
			r.End = SafetyEndLength
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ext, end, err := t.findContinuation(s, c, lim.Expansions, rng, &r.Expanded)
		if err != nil {
			return nil, err
		}
		if end != "" {
			r.End = end
			break
		}
		path = append(path, ext...)
		s = ext[len(ext)-1].State
		path = path[:len(path)-1]
	}
	r.Steps = append(path, explicit.Step{State: s, Label: symbolic.NoLabel, Cmd: -1})
	return r, nil
}

// sfNode is a state met by FindContinuation's search.
type sfNode struct {
	s      symbolic.State
	parent int           // -1 for the search's root
	step   explicit.Step // the step from the parent's state to s
	h      int
}

// findContinuation is Algorithm 1's FindContinuation(s): the path from s
// to the chosen state (its last step a state only), or a run end when the
// path cannot go on. *expanded counts the run's search states so far; the
// run fails when it would exceed budget.
func (t *SafetyTask) findContinuation(s symbolic.State, c SafetyConfig, budget int, rng *rand.Rand, expanded *int) ([]explicit.Step, string, error) {
	nodes := []sfNode{{s: s, parent: -1}}
	seen := map[string]bool{goalKey(s): true}
	layer := []int{0}
	var all, last []int
	for d := 1; c.Depth == 0 || d <= c.Depth; d++ {
		var next []int
		for _, i := range layer {
			u := nodes[i].s
			if t.Gen.Status(u) != explicit.Open {
				continue // goals end runs
			}
			l, err := t.decide(u)
			if err != nil {
				return nil, "", err
			}
			if l == symbolic.NoLabel {
				continue // deadlock or stuck: the run ends safely here
			}
			succ, err := t.succs(u, l)
			if err != nil {
				return nil, "", err
			}
			for _, e := range succ {
				k := goalKey(e.s)
				if seen[k] {
					continue
				}
				if *expanded >= budget {
					return nil, SafetyEndBudget, nil
				}
				*expanded++
				seen[k] = true
				next = append(next, len(nodes))
				nodes = append(nodes, sfNode{s: e.s, parent: i, step: explicit.Step{State: u, Label: l, Cmd: e.cmd, Outcome: e.out}, h: t.h.dist(e.s)})
			}
		}
		if len(next) == 0 {
			return nil, SafetyEndExhausted, nil
		}
		for _, j := range next {
			if nodes[j].h == 0 && t.Gen.Status(nodes[j].s) == explicit.Unsafe {
				return sfPath(nodes, j), "", nil
			}
		}
		all = append(all, next...)
		last = next
		if c.Strategy != Uniform && uniqueMin(nodes, next) {
			break
		}
		layer = next
	}
	var pick int
	switch c.Strategy {
	case Uniform:
		pick = all[rng.IntN(len(all))]
	case Greedy:
		best := math.MaxInt
		var ties []int
		for _, j := range last {
			switch h := nodes[j].h; {
			case h < best:
				best, ties = h, append(ties[:0], j)
			case h == best:
				ties = append(ties, j)
			}
		}
		pick = ties[rng.IntN(len(ties))]
	case Sampling:
		hmin := math.MaxInt
		for _, j := range all {
			hmin = min(hmin, nodes[j].h)
		}
		// e^{-h} / sum e^{-h''}: shifting every h by hmin keeps the ratios.
		w := make([]float64, len(all))
		sum := 0.0
		for k, j := range all {
			w[k] = math.Exp(-float64(nodes[j].h - hmin))
			sum += w[k]
		}
		x := rng.Float64() * sum
		pick = all[len(all)-1]
		for k, j := range all {
			if x < w[k] {
				pick = j
				break
			}
			x -= w[k]
		}
	}
	return sfPath(nodes, pick), "", nil
}

// uniqueMin reports whether exactly one node of layer has the minimal h_u.
func uniqueMin(nodes []sfNode, layer []int) bool {
	best, n := math.MaxInt, 0
	for _, j := range layer {
		switch h := nodes[j].h; {
		case h < best:
			best, n = h, 1
		case h == best:
			n++
		}
	}
	return n == 1
}

// sfPath is the path from the search's root to node j.
func sfPath(nodes []sfNode, j int) []explicit.Step {
	out := []explicit.Step{{State: nodes[j].s, Label: symbolic.NoLabel, Cmd: -1}}
	for ; nodes[j].parent >= 0; j = nodes[j].parent {
		out = append(out, nodes[j].step)
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// unsafeDist is h_u for one unsafe condition, in negation normal form.
type unsafeDist struct {
	c *symbolic.Cond
}

// hInf stands for "cannot hold" (false).
const hInf = math.MaxInt32

func newUnsafeDist(c *symbolic.Cond) *unsafeDist { return &unsafeDist{c: c} }

func (u *unsafeDist) dist(s symbolic.State) int { return condDist(u.c, s, false) }

// condDist is h(s, c) (or h(s, !c) when neg): 0 where it holds, else the
// paper's estimate of how far s is from satisfying it.
func condDist(c *symbolic.Cond, s symbolic.State, neg bool) int {
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
		if (c.Op == symbolic.CTrue) != neg {
			return 0
		}
		return hInf
	case symbolic.CVar:
		if (s[c.Var] != 0) != neg {
			return 0
		}
		return 1
	case symbolic.CNot:
		return condDist(c.Args[0], s, !neg)
	case symbolic.CAnd, symbolic.COr:
		sum := (c.Op == symbolic.CAnd) != neg // a conjunction (or a negated disjunction)
		acc := 0
		if !sum {
			acc = hInf
		}
		for _, a := range c.Args {
			d := condDist(a, s, neg)
			if sum {
				acc = min(hInf, acc+d)
			} else {
				acc = min(acc, d)
			}
		}
		return acc
	case symbolic.CImplies:
		// a => b is !a || b; its negation a && !b.
		if neg {
			return min(hInf, condDist(c.Args[0], s, false)+condDist(c.Args[1], s, true))
		}
		return min(condDist(c.Args[0], s, true), condDist(c.Args[1], s, false))
	case symbolic.CCmp:
		op := c.Cmp
		if neg {
			op = op.Negate()
		}
		if c.Holds(s) != neg { // exact comparison
			return 0
		}
		// d = l - r, the value of the linear constraint's left side minus
		// its bound; integer states make < and > one unit stricter. Beyond
		// int64 (values are exact, Eval saturates) the distance is as far
		// as it gets short of "cannot hold".
		d, ok := symbolic.SubExact(c.L.Eval(s), c.R.Eval(s))
		if !ok || d <= -hInf || d >= hInf {
			return hInf - 1
		}
		switch op {
		case symbolic.Eq:
			return min(hInf, abs(d))
		case symbolic.Ne:
			return 1
		case symbolic.Lt:
			return min(hInf, d+1)
		case symbolic.Le:
			return min(hInf, d)
		case symbolic.Gt:
			return min(hInf, 1-d)
		default: // Ge
			return min(hInf, -d)
		}
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
