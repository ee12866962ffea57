package explicit

// Start-state sampling without enumeration.
//
// Starts enumerates the start states depth first, which is exact but can
// take as long as the product of the variables' ranges when the start
// condition is sparse. A StartSampler draws start states without walking
// them all, and says how uniform its draws are.
//
// When the box that interval propagation leaves (StartBounds) holds at
// most EnumLimit states, the start states are enumerated once (in the
// order of Starts) and a draw picks one of them uniformly: exact.
//
// Otherwise the start condition's conjuncts are grouped into components:
// variables that share a conjunct are in the same component, and a
// variable that no conjunct reads is a component of its own. The start
// states are the product of the components' solution sets, so drawing
// each component's values uniformly and independently draws a start state
// uniformly. A component is drawn
//
//   - by enumeration, when its box has at most EnumLimit points: exact;
//   - by rejection from its box (uniform points until the component's
//     conjuncts hold), when a trial estimates that at least a fraction
//     MinAcceptance of the box satisfies them: exact, each draw taking
//     1/acceptance tries on average;
//   - else from the distinct solutions the Solve hook returns (Z3 with
//     randomised bounds and blocking clauses, in vigil): uniform over that
//     set, not over all solutions, and Describe says so.
//
// Every loop that can be long checks the context every few thousand
// steps, so building a sampler ends promptly when the context does.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// SolveStarts returns up to k distinct assignments of vars (each a slice
// of values in vars' order) inside the box lo..hi (indexed like vars) that
// satisfy every condition of conds, or none when no assignment does.
type SolveStarts func(ctx context.Context, conds []*symbolic.Cond, vars []symbolic.VarID, lo, hi []int, k int, r *rand.Rand) ([][]int, error)

// SamplerOptions configure NewStartSampler. Zero fields take the defaults.
type SamplerOptions struct {
	// EnumLimit is the number of points of a box up to which its
	// solutions are enumerated (default 1<<20).
	EnumLimit int
	// MinAcceptance is the smallest estimated fraction of a component's
	// box that satisfies its conjuncts for rejection sampling (default
	// 1e-5). The estimate is a trial of 20,000 uniform points, and of
	// 2,000,000 more when that finds too few.
	MinAcceptance float64
	// Solve finds solutions of components too sparse for rejection. When
	// nil, such a component is sampled by rejection if a longer trial
	// finds any solution at all, and is an error otherwise.
	Solve SolveStarts
	// SolveCount is how many distinct solutions Solve is asked for
	// (default 256).
	SolveCount int
	// Seed seeds the trials and Solve.
	Seed uint64
}

func (o SamplerOptions) withDefaults() SamplerOptions {
	if o.EnumLimit <= 0 {
		o.EnumLimit = 1 << 20
	}
	if o.MinAcceptance <= 0 {
		o.MinAcceptance = 1e-5
	}
	if o.SolveCount <= 0 {
		o.SolveCount = 256
	}
	return o
}

// sampleMode is how a component is drawn.
type sampleMode uint8

const (
	modeList   sampleMode = iota // uniformly from enumerated (or solved) solutions
	modeReject                   // uniform points of the box until the checks hold
)

// startComp is a set of variables whose start values are drawn together.
type startComp struct {
	vars   []symbolic.VarID
	checks []condFn // the conjuncts over vars
	mode   sampleMode
	sols   []int // modeList: solutions, len(vars) values each
	accept float64
	solved bool // modeList from Solve: not uniform over all solutions
}

// StartSampler draws start states of a property. Once built it is safe
// for concurrent use: each caller passes its own random source.
type StartSampler struct {
	n     int
	lo    []int
	hi    []int
	all   []int // whole-box enumeration: len(all)/n start states
	comps []startComp
	count float64 // the number of start states, or an estimate
	exact bool    // count is exact
	desc  string
	init  symbolic.State // no start condition: the single start state
}

// NewStartSampler prepares to draw start states of g's property. It
// returns an error naming the start condition when it finds that no state
// satisfies it, and ctx's error when ctx ends first.
func (g *Generator) NewStartSampler(ctx context.Context, opt SamplerOptions) (*StartSampler, error) {
	opt = opt.withDefaults()
	m := g.M
	n := len(m.Vars)
	ss := &StartSampler{n: n}
	if g.Prop == nil || g.Prop.Start == nil {
		s, err := m.InitialState()
		if err != nil {
			return nil, fmt.Errorf("explicit: %w", err)
		}
		ss.init, ss.count, ss.exact, ss.desc = s, 1, true, "the initial state"
		return ss, nil
	}
	pos := g.Prop.Pos
	if g.Prop.Start.Pos.IsValid() {
		pos = g.Prop.Start.Pos
	}
	noStart := fmt.Errorf("explicit: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, g.Prop.Name)
	lo, hi, ok := g.StartBounds()
	if !ok {
		return nil, noStart
	}
	ss.lo, ss.hi = lo, hi
	box := 1.0
	for i := range lo {
		box *= float64(hi[i] - lo[i] + 1)
	}
	if box <= float64(opt.EnumLimit) {
		err := g.StartsContext(ctx, func(s symbolic.State) bool {
			ss.all = append(ss.all, s...)
			return true
		})
		if err != nil {
			return nil, err
		}
		k := len(ss.all) / max(n, 1)
		if n == 0 {
			k = 1
		}
		ss.count, ss.exact = float64(k), true
		ss.desc = fmt.Sprintf("uniform over the %s, enumerated", plural(k, "start state", "start states"))
		return ss, nil
	}

	conds, ok := ss.split(m, g.Prop.Start, lo)
	if !ok {
		return nil, noStart
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x73746172))
	ss.count, ss.exact = 1, true
	var how []string
	free := 0
	for ci := range ss.comps {
		sc := &ss.comps[ci]
		if len(sc.checks) == 0 {
			cbox := 1.0
			for _, v := range sc.vars {
				cbox *= float64(hi[v] - lo[v] + 1)
			}
			sc.mode, sc.accept = modeReject, 1
			ss.count *= cbox
			free += len(sc.vars)
			continue
		}
		h, err := ss.prepare(ctx, g, sc, conds[ci], rng, opt, noStart)
		if err != nil {
			return nil, err
		}
		how = append(how, h)
	}
	if free > 0 {
		how = append(how, fmt.Sprintf("%s free in %s", plural(free, "variable", "variables"), map[bool]string{true: "its range", false: "their ranges"}[free == 1]))
	}
	uni := "uniform"
	if math.IsNaN(ss.count) {
		uni = "not uniform"
	}
	ss.desc = fmt.Sprintf("%s; by parts: %s", uni, strings.Join(how, "; "))
	return ss, nil
}

// split divides the variables into components, the classes of "read by
// one conjunct of the start condition together", and gives each its
// conjuncts (returned per component) compiled as checks. It reports false
// when a conjunct without variables is false in lo (no start state).
func (ss *StartSampler) split(m *symbolic.Model, start *symbolic.Cond, lo []int) ([][]*symbolic.Cond, bool) {
	n := len(m.Vars)
	// Union-find over the variables of each conjunct.
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	type conj struct {
		c     *symbolic.Cond
		first int // a variable it reads
	}
	var cs []conj
	probe := make(symbolic.State, n)
	copy(probe, lo)
	for _, c := range conjuncts(start, nil) {
		first := -1
		c.Vars(func(v symbolic.VarID) {
			if first < 0 {
				first = int(v)
			} else {
				parent[find(int(v))] = find(first)
			}
		})
		if first < 0 { // a constant conjunct
			if !c.Holds(probe) {
				return nil, false
			}
			continue
		}
		cs = append(cs, conj{c: c, first: first})
	}
	byRoot := map[int]int{}
	for v := 0; v < n; v++ {
		r := find(v)
		ci, ok := byRoot[r]
		if !ok {
			ci = len(ss.comps)
			byRoot[r] = ci
			ss.comps = append(ss.comps, startComp{})
		}
		ss.comps[ci].vars = append(ss.comps[ci].vars, symbolic.VarID(v))
	}
	conds := make([][]*symbolic.Cond, len(ss.comps))
	for _, c := range cs {
		ci := byRoot[find(c.first)]
		conds[ci] = append(conds[ci], c.c)
		ss.comps[ci].checks = append(ss.comps[ci].checks, compileCond(m, c.c))
	}
	return conds, true
}

// prepare chooses how to draw the component sc, which has conjuncts conds:
// enumerate its solutions when its box is small, else rejection sampling
// when the conjuncts accept often enough, else the solutions opt.Solve
// finds (each checked here). It updates the sampler's count and returns
// a description for the sampler's.
func (ss *StartSampler) prepare(ctx context.Context, g *Generator, sc *startComp, conds []*symbolic.Cond, rng *rand.Rand, opt SamplerOptions, noStart error) (string, error) {
	m, lo, hi := g.M, ss.lo, ss.hi
	cbox := 1.0
	for _, v := range sc.vars {
		cbox *= float64(hi[v] - lo[v] + 1)
	}
	if cbox <= float64(opt.EnumLimit) {
		if err := ss.enumerate(ctx, sc); err != nil {
			return "", err
		}
		k := len(sc.sols) / len(sc.vars)
		if k == 0 {
			return "", noStart
		}
		ss.count *= float64(k)
		return fmt.Sprintf("%s: %s enumerated", ss.names(m, sc), plural(k, "solution", "solutions")), nil
	}
	acc, err := ss.trial(ctx, sc, rng, 20_000)
	if err != nil {
		return "", err
	}
	if acc < 1e-3 && acc < 100*opt.MinAcceptance { // too few hits to judge: a longer trial
		if acc, err = ss.trial(ctx, sc, rng, 2_000_000); err != nil {
			return "", err
		}
	}
	if acc < opt.MinAcceptance && opt.Solve != nil {
		sols, err := opt.Solve(ctx, conds, sc.vars, ss.sub(lo, sc), ss.sub(hi, sc), opt.SolveCount, rng)
		if err != nil {
			return "", err
		}
		if len(sols) == 0 {
			return "", noStart
		}
		// Each solution is checked with the explicit semantics, so that a
		// solver (or encoding) bug cannot start runs outside the start
		// condition.
		probe := make(symbolic.State, len(m.Vars))
		for _, sol := range sols {
			ok := len(sol) == len(sc.vars)
			for j, v := range sc.vars {
				if ok {
					probe[v] = sol[j]
					ok = sol[j] >= lo[v] && sol[j] <= hi[v]
				}
			}
			if !ok || !holdsAll(sc.checks, probe) {
				return "", vigilerr.Internalf("explicit", "the start-state solver returned %v for %s, which violates the start condition of property %s", sol, ss.names(m, sc), g.Prop.Name)
			}
			sc.sols = append(sc.sols, sol...)
		}
		sc.mode, sc.solved = modeList, true
		ss.exact = false
		ss.count = math.NaN()
		return fmt.Sprintf("%s: %s found by SMT, drawn uniformly; other solutions are never drawn",
			ss.names(m, sc), plural(len(sols), "distinct solution", "distinct solutions")), nil
	}
	if acc == 0 { // no solver
		pos := g.Prop.Pos
		if g.Prop.Start.Pos.IsValid() {
			pos = g.Prop.Start.Pos
		}
		return "", fmt.Errorf("explicit: %s: found no start state of property %s in 2,000,000 random draws from a box of %.3g states; the start condition is too sparse to sample without a solver", pos, g.Prop.Name, cbox)
	}
	sc.mode, sc.accept = modeReject, acc
	ss.count *= cbox * acc
	ss.exact = false
	return fmt.Sprintf("%s: rejection from a box of %.3g states (about %.2g%% accepted)", ss.names(m, sc), cbox, 100*acc), nil
}

// names lists a component's variables.
func (ss *StartSampler) names(m *symbolic.Model, sc *startComp) string {
	var ns []string
	for _, v := range sc.vars {
		ns = append(ns, m.Vars[v].Name)
	}
	if len(ns) > 4 {
		ns = append(ns[:3], "...")
	}
	return strings.Join(ns, ",")
}

// sub returns xs at the component's variables.
func (ss *StartSampler) sub(xs []int, sc *startComp) []int {
	out := make([]int, len(sc.vars))
	for i, v := range sc.vars {
		out[i] = xs[v]
	}
	return out
}

// enumerate lists the solutions of a component depth first over its box.
func (ss *StartSampler) enumerate(ctx context.Context, sc *startComp) error {
	s := make(symbolic.State, ss.n)
	copy(s, ss.lo)
	k := len(sc.vars)
	idx := make([]int, k) // idx[j]: the value index of vars[j]
	steps := 0
	for {
		if steps++; steps&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for j, v := range sc.vars {
			s[v] = ss.lo[v] + idx[j]
		}
		if holdsAll(sc.checks, s) {
			for _, v := range sc.vars {
				sc.sols = append(sc.sols, s[v])
			}
		}
		j := k - 1
		for ; j >= 0; j-- {
			v := sc.vars[j]
			if idx[j]++; ss.lo[v]+idx[j] <= ss.hi[v] {
				break
			}
			idx[j] = 0
		}
		if j < 0 {
			return nil
		}
	}
}

func holdsAll(fs []condFn, s symbolic.State) bool {
	for _, f := range fs {
		if !f(s) {
			return false
		}
	}
	return true
}

// trial returns the fraction of tries uniform points of the component's
// box that satisfy its checks.
func (ss *StartSampler) trial(ctx context.Context, sc *startComp, r *rand.Rand, tries int) (float64, error) {
	s := make(symbolic.State, ss.n)
	hits := 0
	for i := 0; i < tries; i++ {
		if i&4095 == 4095 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		ss.point(sc, s, r)
		if holdsAll(sc.checks, s) {
			hits++
		}
	}
	return float64(hits) / float64(tries), nil
}

// point sets the component's variables of s to a uniform point of its box.
func (ss *StartSampler) point(sc *startComp, s symbolic.State, r *rand.Rand) {
	for _, v := range sc.vars {
		s[v] = ss.lo[v] + int(r.Int64N(int64(ss.hi[v]-ss.lo[v])+1))
	}
}

// Sample draws a start state into a new State. It fails only when
// rejection sampling is unlucky beyond reason (about e^-1000) or ctx ends.
func (ss *StartSampler) Sample(ctx context.Context, r *rand.Rand) (symbolic.State, error) {
	if ss.init != nil {
		return append(symbolic.State(nil), ss.init...), nil
	}
	s := make(symbolic.State, ss.n)
	if ss.all != nil || ss.n == 0 {
		k := len(ss.all) / max(ss.n, 1)
		if k == 0 {
			return s, nil
		}
		i := r.IntN(k)
		copy(s, ss.all[i*ss.n:(i+1)*ss.n])
		return s, nil
	}
	for ci := range ss.comps {
		sc := &ss.comps[ci]
		switch sc.mode {
		case modeList:
			k := len(sc.vars)
			i := r.IntN(len(sc.sols) / k)
			for j, v := range sc.vars {
				s[v] = sc.sols[i*k+j]
			}
		case modeReject:
			limit := int(1000/sc.accept) + 1
			for try := 0; ; try++ {
				if try&4095 == 4095 && ctx.Err() != nil {
					return nil, ctx.Err()
				}
				if try > limit {
					return nil, vigilerr.Internalf("explicit", "no start state in %d rejection draws at an estimated acceptance of %.2g", limit, sc.accept)
				}
				ss.point(sc, s, r)
				if holdsAll(sc.checks, s) {
					break
				}
			}
		}
	}
	return s, nil
}

// Count returns the number of start states (exact == true) or an estimate
// (NaN when unknown).
func (ss *StartSampler) Count() (n float64, exact bool) { return ss.count, ss.exact }

// Uniform says whether draws are uniform over all start states.
func (ss *StartSampler) Uniform() bool { return !math.IsNaN(ss.count) }

// Describe says how start states are drawn, for reports: "uniform over the
// 6 start states, enumerated", or by parts with each part's method.
func (ss *StartSampler) Describe() string { return ss.desc }

// plural returns "1 state" or "n states".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Enumerated calls f with each start state, in the order of Starts, when
// the sampler enumerated them all, until f returns false; it returns
// false without calling f when it did not. f must not modify the state
// it is passed; copy it to keep it.
func (ss *StartSampler) Enumerated(f func(s symbolic.State) bool) bool {
	if ss.init != nil {
		f(ss.init)
		return true
	}
	if ss.all == nil && ss.n > 0 {
		return false
	}
	if ss.n == 0 {
		f(symbolic.State{})
		return true
	}
	for i := 0; i+ss.n <= len(ss.all); i += ss.n {
		if !f(ss.all[i : i+ss.n]) {
			break
		}
	}
	return true
}
