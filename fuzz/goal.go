package fuzz

// Goal-reaching policy testing (papers 001 and 003): the semantics every
// part of it shares.
//
// A run's cost is the sum of its commands' costs (`action ... cost EXPR`,
// 1 by default: then its number of steps; the bound counts steps). Non-determinism is
// adversarial, as everywhere in vigil: the value V^pi(s) of a policy in s is
// the largest number of steps any run of pi from s needs to reach the goal,
// and infinite when some run never does (it loops, meets an unsafe state, a
// deadlock, or a state where the policy is stuck). On deterministic models
// this is exactly the cost of pi's unique run, as in the papers. A state s
// is a *bug* when some policy does better: V*(s) < V^pi(s).
//
// Evidence is a *patch*: a finite set of overrides "in state t take label
// a instead of pi's". The patched policy pi' is pi elsewhere; a bug is
// confirmed by evaluating pi' and pi from s in the explicit semantics
// (GoalConfirm): pi' reaches the goal on every run within c steps, while
// pi needs more than c (or never gets there). On a deterministic model the
// run of pi' is the better plan. Nothing is reported unconfirmed.
//
// With GoalTask.Fair, outcomes are fair instead (goal_fair.go): the
// objective is reaching the goal with probability 1, and the same patches
// and confirmation apply.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// GoalTask is one goal-reaching test problem: a model, a property with a
// goal condition, and the policy under test. It is not safe for concurrent
// use.
type GoalTask struct {
	M          *symbolic.Model
	Prop       *symbolic.Property
	Gen        *explicit.Generator
	Policy     explicit.Decider
	PolicyName string
	// Fair makes outcomes fair rather than adversarial (goal_fair.go): a
	// policy succeeds when it reaches the goal with probability 1, and only
	// failures are bugs. An outcome of probability 0 (weight 0, or no
	// weight beside weights that sum to 1) never happens then.
	Fair bool
	// Sampler draws the pool's start states; Fuzz builds it when nil.
	Sampler *explicit.StartSampler

	x     explicit.Expansion
	src   []uint64
	dst   symbolic.State
	cache map[string]symbolic.LabelID // policy decisions by state key
	// weights are the outcome probabilities fair outcomes read (built on
	// first use).
	weights *prob.Weights
}

// NewGoalTask checks that prop has a goal and compiles the model.
func NewGoalTask(m *symbolic.Model, prop *symbolic.Property, policy explicit.Decider, policyName string) (*GoalTask, error) {
	if prop == nil {
		return nil, fmt.Errorf("fuzz: goal testing needs a property with a goal condition; model %s has none selected", m.Name)
	}
	if prop.Goal == nil {
		return nil, fmt.Errorf("fuzz: %s: property %s has no goal condition; goal-mode testing needs `goal COND` in the property (or use --mode safety)", prop.Pos, prop.Name)
	}
	if policy == nil {
		return nil, fmt.Errorf("fuzz: goal testing needs a policy")
	}
	for ci := range m.Commands {
		// Costs are summed along runs in int (capped at goalInf): a
		// cost beyond int64 saturates (two costs look equal although
		// they differ) and sums of large ones wrap around.
		c := &m.Commands[ci]
		if c.Cost == nil {
			continue
		}
		if _, hi := m.Bounds(c.Cost); hi > MaxGoalCost {
			return nil, fmt.Errorf("fuzz: %s: the cost of action %s may be %s over the variables' ranges; goal testing sums costs along runs in 64-bit integers and takes costs up to %d: scale the costs down", c.Pos, m.Labels[c.Label].Name, costText(hi), MaxGoalCost)
		}
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, err
	}
	return &GoalTask{M: m, Prop: prop, Gen: g, Policy: policy, PolicyName: policyName,
		src: make([]uint64, g.Words()), dst: make(symbolic.State, len(m.Vars)), cache: map[string]symbolic.LabelID{}}, nil
}

// MaxGoalCost is the largest cost of a command goal testing takes: a run
// of up to 2^29 steps of that cost stays below goalInf.
const MaxGoalCost = 1<<32 - 1

// costText writes a cost bound, saying when it saturated int64.
func costText(hi int) string {
	if hi == math.MaxInt64 {
		return "at least 2^63 - 1"
	}
	return strconv.Itoa(hi)
}

// goalKey is a map key for a state.
func goalKey(s symbolic.State) string {
	b := make([]byte, 0, 4*len(s))
	for _, v := range s {
		b = binary.AppendVarint(b, int64(v))
	}
	return string(b)
}

// goalEdge is one successor of a label: the state and the command and
// outcome that produce it.
type goalEdge struct {
	s        symbolic.State
	cmd, out int
}

// applicable returns the applicable labels of s (in LabelID order).
func (t *GoalTask) applicable(s symbolic.State) []symbolic.LabelID {
	t.Gen.Applicable(s, &t.x)
	return append([]symbolic.LabelID(nil), t.x.Labels...)
}

// succs returns the distinct successors of label l in s (none when l is
// not applicable).
func (t *GoalTask) succs(s symbolic.State, l symbolic.LabelID) ([]goalEdge, error) {
	out, err := labelSuccs(t.Gen, &t.x, t.src, s, l)
	if !t.Fair {
		return out, err
	}
	var re *explicit.RangeError
	if errors.As(err, &re) && !re.Prob {
		// An outcome of probability 0 never happens under fair
		// outcomes, so its range error does not either (vigil prob
		// gives it no transition): the successors are those of the
		// outcomes of positive probability.
		return t.positiveSuccs(s, l)
	}
	if err != nil {
		return out, err
	}
	return t.possible(s, l, out)
}

// loadWeights builds the outcome probabilities fair outcomes read, once.
func (t *GoalTask) loadWeights() error {
	if t.weights != nil {
		return nil
	}
	w, err := prob.NewWeights(t.M)
	if err != nil {
		return fmt.Errorf("fuzz: fair outcomes: %w", err)
	}
	t.weights = w
	return nil
}

// positiveSuccs returns l's distinct successors of s by the outcomes of
// positive probability only, each edge naming the first command and
// outcome that leads there; the range error of one of those outcomes is
// returned as the explicit engine gives it.
func (t *GoalTask) positiveSuccs(s symbolic.State, l symbolic.LabelID) ([]goalEdge, error) {
	if err := t.loadWeights(); err != nil {
		return nil, err
	}
	var out []goalEdge
	for ci := range t.M.Commands {
		c := &t.M.Commands[ci]
		if c.Label != l || !t.Gen.Guard(s, ci) {
			continue
		}
		p, err := t.weights.At(ci, s, nil)
		if err != nil {
			return nil, fmt.Errorf("fuzz: fair outcomes: %w", err)
		}
		for oi := range c.Outcomes {
			if p[oi] <= 0 {
				continue
			}
			u, err := t.Gen.Apply(s, ci, oi)
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(out, func(e goalEdge) bool { return slices.Equal(e.s, u) }) {
				out = append(out, goalEdge{s: u, cmd: ci, out: oi})
			}
		}
	}
	if err := costliest(t.Gen, s, l, out, t.positive(s)); err != nil {
		return nil, err
	}
	return out, nil
}

// positive says, for the commands of s, whether outcome oi of command ci
// has positive probability there (fair outcomes: one of probability 0
// never happens).
func (t *GoalTask) positive(s symbolic.State) func(ci, oi int) (bool, error) {
	ps := map[int][]float64{}
	return func(ci, oi int) (bool, error) {
		p, ok := ps[ci]
		if !ok {
			var err error
			if p, err = t.weights.At(ci, s, nil); err != nil {
				return false, fmt.Errorf("fuzz: fair outcomes: %w", err)
			}
			ps[ci] = p
		}
		return p[oi] > 0, nil
	}
}

// possible keeps, of l's distinct successors out of s, those that an
// outcome of positive probability makes: under fair outcomes an outcome of
// probability 0 never happens (lang/spec.md, "Outcomes": weights matter
// for simulation and sampling; vigil prob gives it no transition), while
// every other outcome may. An edge whose recorded outcome has probability
// 0 is kept, naming another outcome, when one of positive probability
// leads to the same state (the successor list keeps the first outcome
// only).
func (t *GoalTask) possible(s symbolic.State, l symbolic.LabelID, out []goalEdge) ([]goalEdge, error) {
	if err := t.loadWeights(); err != nil {
		return nil, err
	}
	// the probabilities of the commands of l enabled in s, by command
	ps := map[int][]float64{}
	probs := func(ci int) ([]float64, error) {
		if p, ok := ps[ci]; ok {
			return p, nil
		}
		p, err := t.weights.At(ci, s, nil)
		if err != nil {
			return nil, fmt.Errorf("fuzz: fair outcomes: %w", err)
		}
		ps[ci] = p
		return p, nil
	}
	kept := out[:0]
	for _, e := range out {
		p, err := probs(e.cmd)
		if err != nil {
			return nil, err
		}
		if p[e.out] > 0 {
			kept = append(kept, e)
			continue
		}
		found := false
		for ci := range t.M.Commands {
			c := &t.M.Commands[ci]
			if found || c.Label != l || !t.Gen.Guard(s, ci) {
				continue
			}
			p, err := probs(ci)
			if err != nil {
				return nil, err
			}
			for oi := range c.Outcomes {
				if p[oi] <= 0 {
					continue
				}
				u, err := t.Gen.Apply(s, ci, oi)
				if err != nil {
					return nil, err
				}
				if slices.Equal(u, e.s) {
					e.cmd, e.out, found = ci, oi, true
					break
				}
			}
		}
		if found {
			kept = append(kept, e)
		}
	}
	// labelSuccs named each successor by the costliest command leading
	// there, through an outcome of probability 0 too: renamed above to
	// the first outcome that may happen, a successor that a costlier
	// command makes as well cost what the cheaper one does
	if err := costliest(t.Gen, s, l, kept, t.positive(s)); err != nil {
		return nil, err
	}
	return kept, nil
}

// labelSuccs returns the distinct successors of label l in s (none when l
// is not applicable), with the command and outcome that make each, using
// the expansion x and the packing buffer src of the caller's task.
func labelSuccs(g *explicit.Generator, x *explicit.Expansion, src []uint64, s symbolic.State, l symbolic.LabelID) ([]goalEdge, error) {
	g.Applicable(s, x)
	g.L.Pack(s, src)
	if err := g.Successors(src, s, l, x); err != nil {
		return nil, err
	}
	gr := x.Groups[len(x.Groups)-1]
	out := make([]goalEdge, 0, gr.To-gr.From)
	for i := gr.From; i < gr.To; i++ {
		ns := make(symbolic.State, len(s))
		g.L.Unpack(x.Target(i), ns)
		out = append(out, goalEdge{s: ns, cmd: int(x.Succs[i].Cmd), out: int(x.Succs[i].Outcome)})
	}
	if err := costliest(g, s, l, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// costliest makes each edge of out (l's distinct successors of s) name
// the costliest of the commands of l that lead there: outcomes are
// adversarial, so a successor two commands make (one costing 1, one 10)
// costs what the costlier does, where the successor list keeps the first
// command only (a plan through it looked cheaper than it is, and a policy
// that takes it did too). live, when not nil, says which outcomes may
// happen (fair outcomes: those of positive probability); the others are
// not applied (the range error of an outcome of probability 0 stopped
// fair testing where two commands of the label have costs).
func costliest(g *explicit.Generator, s symbolic.State, l symbolic.LabelID, out []goalEdge, live func(ci, oi int) (bool, error)) error {
	m := g.M
	n, costs := 0, false
	for ci := range m.Commands {
		if m.Commands[ci].Label == l {
			n++
			costs = costs || m.Commands[ci].Cost != nil
		}
	}
	if n < 2 || !costs {
		return nil
	}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != l || !g.Guard(s, ci) {
			continue
		}
		k := c.CostIn(s)
		for oi := range c.Outcomes {
			if live != nil {
				ok, err := live(ci, oi)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
			}
			t, err := g.Apply(s, ci, oi)
			if err != nil {
				return err
			}
			for j := range out {
				if e := &out[j]; e.cmd != ci && k > m.Commands[e.cmd].CostIn(s) && slices.Equal(e.s, t) {
					e.cmd, e.out = ci, oi
				}
			}
		}
	}
	return nil
}

// decide returns the policy's label in s (NoLabel: stuck), or an error
// naming the state when the policy cannot be evaluated there.
func (t *GoalTask) decide(s symbolic.State) (symbolic.LabelID, error) {
	k := goalKey(s)
	if l, ok := t.cache[k]; ok {
		return l, nil
	}
	t.Gen.Applicable(s, &t.x)
	l, err := t.Policy.Decide(s, t.x.App)
	if err != nil {
		return symbolic.NoLabel, fmt.Errorf("fuzz: policy %s cannot be evaluated in state %s: %v", t.PolicyName, t.M.FormatState(s), err)
	}
	if len(t.cache) < 1<<20 {
		t.cache[k] = l
	}
	return l, nil
}

// GoalOverride is one decision of a patch: in State take Label.
type GoalOverride struct {
	State symbolic.State
	Label symbolic.LabelID
}

// goalPatch is a set of overrides by state key.
type goalPatch map[string]GoalOverride

func (p goalPatch) set(s symbolic.State, l symbolic.LabelID) {
	p[goalKey(s)] = GoalOverride{State: append(symbolic.State(nil), s...), Label: l}
}

// list returns the overrides in a deterministic order: those of the
// states in order first (in that order), then the rest by state.
func (p goalPatch) list(order []symbolic.State) []GoalOverride {
	var out []GoalOverride
	seen := map[string]bool{}
	for _, s := range order {
		k := goalKey(s)
		if o, ok := p[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	var rest []string
	for k := range p {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, p[k])
	}
	return out
}

func goalPatchOf(os []GoalOverride) goalPatch {
	p := goalPatch{}
	for _, o := range os {
		p[goalKey(o.State)] = o
	}
	return p
}

// GoalOutcome classifies a policy's value in a state.
type GoalOutcome uint8

const (
	// GoalReached: every run reaches the goal; Cost is the worst case.
	GoalReached GoalOutcome = iota
	// GoalFails: some run never reaches the goal; Why says how, Run shows it.
	GoalFails
	// GoalBeyond: some run takes more than Cost steps without reaching the
	// goal (Run shows one); the value is larger than Cost.
	GoalBeyond
	// GoalUnknown: the evaluation hit its state budget.
	GoalUnknown
)

func (o GoalOutcome) String() string {
	return [...]string{"reached", "fails", "beyond", "unknown"}[o]
}

// Reasons a run fails to reach the goal.
const (
	GoalFailLoop     = "loop"     // the run revisits a state
	GoalFailUnsafe   = "unsafe"   // the run ends in an unsafe state
	GoalFailDeadlock = "deadlock" // no label is applicable
	GoalFailStuck    = "stuck"    // the policy chooses no applicable label
)

// StuckWhy says why the policy chose no label in the last state of v's
// run when v is a failure of kind GoalFailStuck, as vigil run says it
// (explicit.StuckReason: under argmax all the label the policy chose, its
// score, and that it is not applicable; under argmax applicable that no
// output label is applicable); "" for any other value.
func (t *GoalTask) StuckWhy(v GoalValue) (string, error) {
	if v.Outcome != GoalFails || v.Why != GoalFailStuck || len(v.Run) == 0 {
		return "", nil
	}
	return explicit.StuckReason(t.Gen, t.Policy, t.PolicyName, v.Run[len(v.Run)-1].State)
}

// GoalValue is a policy's value in a state, with a run that shows it: for
// GoalReached a longest run (on a deterministic model, the run), for
// GoalFails a run ending in the failure (for a loop, its last state repeats
// an earlier one), for GoalBeyond a run of Cost steps ending in a state
// that is not a goal (so every continuation takes more than Cost).
// The last step of Run has Label NoLabel.
type GoalValue struct {
	Outcome GoalOutcome
	Cost    int
	Why     string
	Run     []explicit.Step
	// Fair: evaluated with fair outcomes; a reached value's Cost is then
	// the length of a shortest run (Run), and only a failure can be beaten.
	Fair bool
	// reached holds the keys of the states a reached value's runs visit
	// (nil otherwise): a patch's overrides elsewhere change nothing.
	reached map[string]bool
}

// Better reports whether a value of cost c is strictly better than v.
func (v GoalValue) Better(c int) bool {
	switch v.Outcome {
	case GoalReached:
		return !v.Fair && c < v.Cost
	case GoalFails:
		return true
	case GoalBeyond:
		return c <= v.Cost
	}
	return false
}

func (v GoalValue) String() string {
	switch v.Outcome {
	case GoalReached:
		if v.Fair {
			return fmt.Sprintf("reaches the goal with probability 1 (fair outcomes; the shortest run takes %s)", steps(v.Cost))
		}
		return "reaches the goal " + CostPhrase(v.Cost, v.Run)
	case GoalFails:
		if v.Why == GoalFailTrap {
			return fmt.Sprintf("fails (trap: from the run's states the goal is unreachable under the policy; it repeats a state after %s)", steps(len(v.Run)-1))
		}
		return fmt.Sprintf("fails (%s after %s)", v.Why, steps(len(v.Run)-1))
	case GoalBeyond:
		return fmt.Sprintf("takes more than %s", steps(v.Cost))
	}
	return "unknown (state budget)"
}

// goalEval evaluates one (possibly patched) policy from one state.
type goalEval struct {
	t         *GoalTask
	patch     goalPatch
	bound     int
	maxStates int
	color     map[string]uint8 // 1 on stack, 2 done
	cost      map[string]int   // the worst-case cost to the goal (commands' costs summed)
	steps     map[string]int   // the most steps to the goal, for the bound
	longest   map[string]int   // index into succ choice for the costliest run
	path      []explicit.Step
	res       *GoalValue
	err       error
}

// label is the patched policy's label in s; an override that is not
// applicable is an error (bad evidence).
func (e *goalEval) label(s symbolic.State) (symbolic.LabelID, error) {
	if o, ok := e.patch[goalKey(s)]; ok {
		l := o.Label
		for _, a := range e.t.applicable(s) {
			if a == l {
				return l, nil
			}
		}
		return symbolic.NoLabel, fmt.Errorf("fuzz: patch takes %s in state %s where it is not applicable", e.t.M.Labels[l].Name, e.t.M.FormatState(s))
	}
	return e.t.decide(s)
}

// GoalValueOf evaluates the policy, with the overrides of patch, from s:
// depth-first over the policy's graph, up to bound steps along any run and
// maxStates distinct states.
func (t *GoalTask) GoalValueOf(s symbolic.State, patch []GoalOverride, bound, maxStates int) (GoalValue, error) {
	return t.value(s, goalPatchOf(patch), bound, maxStates)
}

func (t *GoalTask) value(s symbolic.State, patch goalPatch, bound, maxStates int) (GoalValue, error) {
	if t.Fair {
		return t.fairValue(s, patch, maxStates)
	}
	e := &goalEval{t: t, patch: patch, bound: bound, maxStates: maxStates,
		color: map[string]uint8{}, cost: map[string]int{}, steps: map[string]int{}, longest: map[string]int{}}
	c := e.visit(s, 0)
	if e.err != nil {
		return GoalValue{}, e.err
	}
	if e.res != nil {
		return *e.res, nil
	}
	run, err := e.longestRun(s)
	if err != nil {
		return GoalValue{}, err
	}
	reached := make(map[string]bool, len(e.color))
	for k := range e.color {
		reached[k] = true
	}
	return GoalValue{Outcome: GoalReached, Cost: c, Run: run, reached: reached}, nil
}

func (e *goalEval) stop(v GoalValue, last symbolic.State) int {
	run := append([]explicit.Step(nil), e.path...)
	run = append(run, explicit.Step{State: last, Label: symbolic.NoLabel, Cmd: -1})
	v.Run = run
	e.res = &v
	return -1
}

// visit returns the worst-case cost from s, or -1 after recording a
// failure, a bound overrun or an error.
func (e *goalEval) visit(s symbolic.State, depth int) int {
	switch e.t.Gen.Status(s) {
	case explicit.Goal:
		return 0
	case explicit.Unsafe:
		return e.stop(GoalValue{Outcome: GoalFails, Why: GoalFailUnsafe, Cost: -1}, s)
	}
	k := goalKey(s)
	switch e.color[k] {
	case 1:
		return e.stop(GoalValue{Outcome: GoalFails, Why: GoalFailLoop, Cost: -1}, s)
	case 2:
		if depth+e.steps[k] > e.bound {
			// Only reachable when this state was first met closer to s;
			// its longest run from here overruns the bound.
			return e.overrun(s, k)
		}
		return e.cost[k]
	}
	if depth >= e.bound {
		return e.stop(GoalValue{Outcome: GoalBeyond, Cost: e.bound}, s)
	}
	if len(e.color) >= e.maxStates {
		e.res = &GoalValue{Outcome: GoalUnknown, Cost: -1}
		return -1
	}
	l, err := e.label(s)
	if err != nil {
		e.err = err
		return -1
	}
	if l == symbolic.NoLabel {
		why := GoalFailStuck
		if len(e.t.applicable(s)) == 0 {
			why = GoalFailDeadlock
		}
		return e.stop(GoalValue{Outcome: GoalFails, Why: why, Cost: -1}, s)
	}
	succ, err := e.t.succs(s, l)
	if err != nil {
		e.err = err
		return -1
	}
	e.color[k] = 1
	worst, steps, arg := -1, 0, 0
	for i, ed := range succ {
		e.path = append(e.path, explicit.Step{State: s, Label: l, Cmd: ed.cmd, Outcome: ed.out})
		c := e.visit(ed.s, depth+1)
		e.path = e.path[:len(e.path)-1]
		if c < 0 {
			return -1
		}
		c += e.t.M.Commands[ed.cmd].CostIn(s) // 1 unless the action says `cost`
		steps = max(steps, e.steps[goalKey(ed.s)]+1)
		if c > worst {
			worst, arg = c, i
		}
	}
	e.color[k] = 2
	e.cost[k], e.steps[k] = worst, steps
	e.longest[k] = arg
	return worst
}

// overrun records a run through the finished state s (key k) that goes
// beyond the bound: the current path, then s's longest run.
func (e *goalEval) overrun(s symbolic.State, k string) int {
	tail, err := e.longestRun(s)
	if err != nil {
		e.err = err
		return -1
	}
	// The run has more than bound steps and reaches the goal only at its
	// end: its first bound steps end in a state that is no goal.
	run := append([]explicit.Step(nil), e.path...)
	run = append(run, tail...)
	run = run[:e.bound+1]
	run[e.bound].Label, run[e.bound].Cmd, run[e.bound].Outcome = symbolic.NoLabel, -1, 0
	e.res = &GoalValue{Outcome: GoalBeyond, Cost: e.bound, Run: run}
	return -1
}

// longestRun follows the recorded worst successors from s to the goal.
func (e *goalEval) longestRun(s symbolic.State) ([]explicit.Step, error) {
	var run []explicit.Step
	for e.t.Gen.Status(s) != explicit.Goal {
		k := goalKey(s)
		l, err := e.label(s)
		if err != nil {
			return nil, err
		}
		succ, err := e.t.succs(s, l)
		if err != nil {
			return nil, err
		}
		ed := succ[e.longest[k]]
		run = append(run, explicit.Step{State: s, Label: l, Cmd: ed.cmd, Outcome: ed.out})
		s = ed.s
	}
	return append(run, explicit.Step{State: s, Label: symbolic.NoLabel, Cmd: -1}), nil
}

// GoalBug is a confirmed bug: in State the policy does worse than the
// patched policy Patch, which reaches the goal on every run within Cost
// steps. Policy is the tested policy's value (with the run that shows its
// failure or its cost); Plan is a longest run of the patched policy (on a
// deterministic model, the better plan).
type GoalBug struct {
	State  symbolic.State
	Oracle string
	Policy GoalValue
	Patch  []GoalOverride
	Cost   int
	Plan   []explicit.Step
	// Qualitative: the policy never reaches the goal (some run fails).
	Qualitative bool
	// PoolIndex is the bug state's index in the fuzzer's pool (-1 when
	// the state was given directly); At is when bug confirmation found it
	// (since Confirm began).
	PoolIndex int
	At        time.Duration
}

// GoalFault is one decision a bug's better plan changes: in State the
// policy takes Policy (NoLabel: it is stuck), the patch takes Better.
type GoalFault struct {
	State          symbolic.State
	Policy, Better symbolic.LabelID
}

// Faults lists the decisions a bug's patch changes, with the policy's own
// label in each of those states.
func (t *GoalTask) Faults(b *GoalBug) ([]GoalFault, error) {
	var out []GoalFault
	for _, o := range b.Patch {
		l, err := t.decide(o.State)
		if err != nil {
			return nil, err
		}
		out = append(out, GoalFault{State: o.State, Policy: l, Better: o.Label})
	}
	return out, nil
}

// GoalConfirm re-checks a bug's evidence in the explicit semantics: the
// patched policy reaches the goal from the bug state on every run within
// bug.Cost steps, and the policy itself does not. It returns nil when the
// bug stands.
func (t *GoalTask) GoalConfirm(b *GoalBug, maxStates int) error {
	if st := t.Gen.Status(b.State); st != explicit.Open {
		return fmt.Errorf("fuzz: bug state %s is %s, not a test state", t.M.FormatState(b.State), st)
	}
	pv, err := t.value(b.State, goalPatchOf(b.Patch), b.Cost, maxStates)
	if err != nil {
		return err
	}
	if pv.Outcome != GoalReached || pv.Cost > b.Cost {
		return fmt.Errorf("fuzz: the patched policy does not reach the goal within %d steps from %s: it %s", b.Cost, t.M.FormatState(b.State), pv)
	}
	v, err := t.value(b.State, nil, pv.Cost, maxStates)
	if err != nil {
		return err
	}
	if !v.Better(pv.Cost) {
		return fmt.Errorf("fuzz: the policy %s from %s, no worse than the patch's %d steps", v, t.M.FormatState(b.State), pv.Cost)
	}
	return nil
}

// newBug evaluates a candidate patch from s against the policy's value pv
// and returns a bug when the patch does strictly better.
func (t *GoalTask) newBug(s symbolic.State, oracle string, pv GoalValue, patch goalPatch, order []symbolic.State, maxStates int) (*GoalBug, error) {
	bound := pv.Cost - 1
	if pv.Outcome == GoalFails || pv.Outcome == GoalBeyond {
		bound = max(pv.Cost, 0)
		if pv.Outcome == GoalFails {
			bound = maxStates
		}
	}
	if bound < 0 {
		return nil, nil
	}
	// Overrides that agree with the policy change nothing: drop them, so
	// that the patch lists exactly the decisions the evidence changes.
	for k, o := range patch {
		l, err := t.decide(o.State)
		if err != nil {
			return nil, err
		}
		if l == o.Label {
			delete(patch, k)
		}
	}
	v, err := t.value(s, patch, bound, maxStates)
	if err != nil || v.Outcome != GoalReached || !pv.Better(v.Cost) {
		return nil, err
	}
	// Overrides in states the patched policy never visits from s change
	// nothing either: the bug lists only the decisions its plan takes.
	for k := range patch {
		if !v.reached[k] {
			delete(patch, k)
		}
	}
	b := &GoalBug{State: s, Oracle: oracle, Policy: pv, Patch: patch.list(goalRunStates(v.Run, order)), Cost: v.Cost, Plan: v.Run,
		Qualitative: pv.Outcome == GoalFails}
	return b, nil
}

func goalRunStates(run []explicit.Step, extra []symbolic.State) []symbolic.State {
	out := make([]symbolic.State, 0, len(run)+len(extra))
	for _, st := range run {
		out = append(out, st.State)
	}
	return append(out, extra...)
}

// steps is "1 step" or "n steps".
// CostPhrase says what a run to the goal of worst-case cost c takes: "in
// N steps" where that is its cost (no command of the model says `cost`),
// else "at cost C (N steps)", N the steps of run, its costliest run.
func CostPhrase(c int, run []explicit.Step) string {
	if len(run) == 0 || len(run)-1 == c {
		return "in " + steps(c)
	}
	return fmt.Sprintf("at cost %d (%s)", c, steps(len(run)-1))
}

func steps(n int) string {
	if n == 1 {
		return "1 step"
	}
	return strconv.Itoa(n) + " steps"
}
