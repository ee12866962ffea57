package fuzz

// Bug oracles for goal-reaching testing. Each proposes a patch (overrides
// of the policy's decisions) that it believes does better than the policy
// from a pool state; newBug evaluates the patched policy exactly, and
// GoalConfirm re-checks every bug before it is reported, so an oracle's
// guess can cost time but never produce a false bug (paper 001, section
// 4: bug confirmation needs a pessimistic bound better than the policy,
// i.e. a better solution; these oracles are ways to find one).
//
//   - lookahead (paper 001): an AND-OR lookahead of depth d over all labels
//     (and, adversarially, all outcomes), running the policy at the leaves.
//   - undo (paper 001's UndoQual/InvQuant, generalised): walk the fuzzer's
//     ancestry of the state backwards with labels that deterministically
//     undo each step, then let the policy finish from the ancestor.
//   - optimal: the explicit engine's optimal strong plan on the states
//     reachable from the test state, when there are few enough of them.
//   - relax (ours): greedy best-first search guided by the interval
//     relaxation of the goal's linear conditions (h_add), pruning with its
//     admissible h_max against the policy's cost; the path found is the
//     patch.

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Oracle names.
const (
	OracleLookahead = "lookahead"
	OracleUndo      = "undo"
	OracleOptimal   = "optimal"
	OracleRelax     = "relax"
)

// OracleNames lists the valid oracle names, in the order they run.
var OracleNames = []string{OracleUndo, OracleLookahead, OracleRelax, OracleOptimal}

// OracleOptions configure bug confirmation. Zero fields take defaults;
// negative ones are errors.
type OracleOptions struct {
	Oracles       []string // names from OracleNames (default: all)
	Depth         int      // lookahead depth (default 2)
	Bound         int      // steps a policy run may take (default 10,000)
	MaxStates     int      // states one policy evaluation may visit (default 100,000)
	OptimalStates int      // the optimal oracle applies when at most this many states are reachable (default 20,000)
	Expansions    int      // relax oracle's search budget (default 5,000)
	UndoDepth     int      // undo oracle's longest undo path (default 50)
	// All runs every oracle on every state (for recall figures) rather
	// than stopping at the first that confirms a bug.
	All bool
	// Progress, if set, is called after each pool state with the states
	// done, the pool size and the bugs confirmed so far (from one
	// goroutine at a time).
	Progress func(done, total, bugs int)
	// ctx, set by Confirm and GoalTest, ends an oracle's search early
	// (errOracleStopped): the relax oracle's 5,000 expansions took four
	// minutes on a model of 40 variables, deaf to --timeout and Ctrl-C.
	ctx context.Context
}

// errOracleStopped: ctx ended while an oracle searched; the pool state
// counts as not checked.
var errOracleStopped = errors.New("fuzz: oracle stopped")

// DefaultGoalMaxStates is the states one evaluation of the policy may
// visit by default (OracleOptions.MaxStates).
const DefaultGoalMaxStates = 100_000

// stopped reports whether the options' context has ended.
func (o OracleOptions) stopped() bool { return o.ctx != nil && o.ctx.Err() != nil }

func (o OracleOptions) withDefaults() (OracleOptions, error) {
	if err := goalDefaults([]goalOption{
		{"lookahead depth", &o.Depth, 2}, {"bound", &o.Bound, 10_000}, {"state budget", &o.MaxStates, DefaultGoalMaxStates},
		{"optimal state budget", &o.OptimalStates, 20_000}, {"expansion budget", &o.Expansions, 5_000}, {"undo depth", &o.UndoDepth, 50}}); err != nil {
		return o, err
	}
	if len(o.Oracles) == 0 {
		o.Oracles = OracleNames
	}
	for i, n := range o.Oracles {
		if slices.Contains(o.Oracles[:i], n) {
			return o, fmt.Errorf("fuzz: oracle %q given twice", n) // it would run again to find nothing new
		}
		ok := false
		for _, v := range OracleNames {
			ok = ok || n == v
		}
		if !ok {
			return o, fmt.Errorf("fuzz: unknown oracle %q%s; valid oracles: %s", n, symbolic.Suggest(n, OracleNames), strings.Join(OracleNames, ", "))
		}
	}
	return o, nil
}

// GoalResult is what bug confirmation found on a pool.
type GoalResult struct {
	Bugs []*GoalBug // confirmed, in pool order
	// Every is, with OracleOptions.All, every oracle's confirmed bug (a
	// state can appear once per oracle).
	Every []*GoalBug
	// Found[oracle] lists the pool indices where that oracle confirmed a
	// bug (with All, every oracle on every state).
	Found map[string][]int
	// Values are the policy's values on the pool states (GoalUnknown for
	// states not checked); Checked counts the states the oracles ran on.
	Values  []GoalValue
	Checked int
	// Undecided lists the checked pool states where the policy's value
	// is unknown: its evaluation met the state budget (MaxStates), so no
	// oracle could compare a plan with it. Such a state is no bug found,
	// and no state shown bug-free either.
	Undecided []int
	Elapsed   map[string]time.Duration // per oracle, and "policy" for evaluating the policy on the pool states (summed over GoalTest's workers)
	// Confirming is the wall-clock time in which some worker of GoalTest
	// confirmed a state.
	Confirming time.Duration
}

// Confirm runs the oracles on every pool state and returns the confirmed
// bugs. ctx cancellation keeps what was found so far.
func (t *GoalTask) Confirm(ctx context.Context, pool *Pool, opt OracleOptions) (*GoalResult, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	res := newGoalResult()
	start := time.Now()
	opt.ctx = ctx
	for i := range pool.Entries {
		if ctx.Err() != nil {
			break
		}
		c, err := t.confirmOne(pool, i, opt, start)
		if errors.Is(err, errOracleStopped) {
			break
		}
		if err != nil {
			return nil, err
		}
		res.add(i, c)
		res.Checked++
		if opt.Progress != nil {
			opt.Progress(i+1, len(pool.Entries), len(res.Bugs))
		}
	}
	return res, nil
}

func newGoalResult() *GoalResult {
	return &GoalResult{Found: map[string][]int{}, Elapsed: map[string]time.Duration{}}
}

// stateResult is what the oracles found on one pool state.
type goalStateResult struct {
	value   GoalValue
	bug     *GoalBug   // the first oracle's
	every   []*GoalBug // every oracle's (with All)
	found   []string   // every oracle that confirmed a bug
	elapsed map[string]time.Duration
	stopped bool // the context ended before the oracles were done
}

func (r *GoalResult) add(i int, c goalStateResult) {
	r.Values = append(r.Values, c.value)
	if c.value.Outcome == GoalUnknown {
		r.Undecided = append(r.Undecided, i)
	}
	for _, o := range c.found {
		r.Found[o] = append(r.Found[o], i)
	}
	for o, d := range c.elapsed {
		r.Elapsed[o] += d
	}
	if c.bug != nil {
		r.Bugs = append(r.Bugs, c.bug)
	}
	r.Every = append(r.Every, c.every...)
}

// confirmOne runs the oracles on pool state i.
func (t *GoalTask) confirmOne(pool *Pool, i int, opt OracleOptions, start time.Time) (goalStateResult, error) {
	c := goalStateResult{elapsed: map[string]time.Duration{}}
	began := time.Now()
	pv, err := t.value(pool.Entries[i].State, nil, opt.Bound, opt.MaxStates)
	c.elapsed["policy"] = time.Since(began)
	if err != nil {
		return c, err
	}
	c.value = pv
	if pv.Outcome == GoalUnknown || (pv.Outcome == GoalReached && (pv.Cost <= 1 || t.Fair)) {
		return c, nil // a one-step plan cannot be beaten, nor success under fair outcomes
	}
	for _, name := range opt.Oracles {
		if opt.stopped() {
			return c, errOracleStopped
		}
		began := time.Now()
		b, err := t.runOracle(name, pool, i, pv, opt)
		c.elapsed[name] += time.Since(began)
		if err != nil {
			return c, err
		}
		if b == nil {
			continue
		}
		if err := t.GoalConfirm(b, opt.MaxStates); err != nil {
			return c, vigilerr.Internalf("fuzz", "oracle %s proposed a bug its evidence does not confirm: %w", name, err)
		}
		b.PoolIndex, b.At = i, time.Since(start)
		c.found = append(c.found, name)
		if c.bug == nil {
			c.bug = b
		}
		if !opt.All {
			break
		}
		c.every = append(c.every, b)
	}
	return c, nil
}

func (t *GoalTask) runOracle(name string, pool *Pool, i int, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	s := pool.Entries[i].State
	switch name {
	case OracleLookahead:
		return t.lookahead(s, pv, opt)
	case OracleUndo:
		return t.undo(pool, i, pv, opt)
	case OracleOptimal:
		return t.optimalOracle(s, pv, opt)
	case OracleRelax:
		return t.relaxOracle(s, pv, opt)
	}
	return nil, fmt.Errorf("fuzz: unknown oracle %q", name)
}

// bound is how many steps a patch may take to beat pv.
func goalBugBound(pv GoalValue, opt OracleOptions) int {
	switch pv.Outcome {
	case GoalReached:
		return pv.Cost - 1
	case GoalBeyond:
		return pv.Cost
	}
	return opt.Bound
}

// lookahead is paper 001's Lookahead oracle, AND-OR for our adversarial
// outcomes: the value of t at depth k is the policy's value from t or, if
// better, the worst over the best label's outcomes of the command's cost
// plus the successor's value at depth k-1.
func (t *GoalTask) lookahead(s symbolic.State, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	bound := goalBugBound(pv, opt)
	memo := map[string]int{}
	leaf := func(u symbolic.State) (int, error) {
		k := goalKey(u)
		if c, ok := memo[k]; ok {
			return c, nil
		}
		v, err := t.value(u, nil, bound, opt.MaxStates)
		if err != nil {
			return 0, err
		}
		c := goalInf
		if v.Outcome == GoalReached {
			c = v.Cost
		}
		memo[k] = c
		return c, nil
	}
	patch := goalPatch{}
	// The AND-OR tree has (labels x outcomes)^depth nodes: a --depth of
	// 2^62 recursed until the stack overflowed. Its expansions count
	// against the state budget; beyond it the oracle gives up (no bug).
	expanded, over := 0, false
	var best func(u symbolic.State, k int, top bool) (int, goalPatch, error)
	best = func(u symbolic.State, k int, top bool) (int, goalPatch, error) {
		if over {
			return goalInf, nil, nil
		}
		if expanded++; expanded > opt.MaxStates {
			over = true
			return goalInf, nil, nil
		}
		switch t.Gen.Status(u) {
		case explicit.Goal:
			return 0, nil, nil
		case explicit.Unsafe:
			return goalInf, nil, nil
		}
		c := goalInf
		if !top {
			var err error
			if c, err = leaf(u); err != nil {
				return 0, nil, err
			}
		}
		var bp goalPatch
		if k == 0 {
			return c, nil, nil
		}
		for _, l := range t.applicable(u) {
			succ, err := t.succs(u, l)
			if err != nil {
				return 0, nil, err
			}
			worst, sub := 0, goalPatch{}
			for _, e := range succ {
				v, p, err := best(e.s, k-1, false)
				if err != nil {
					return 0, nil, err
				}
				// The step costs what its command costs (1 unless it says `cost`).
				worst = max(worst, min(v+t.M.Commands[e.cmd].CostIn(u), goalInf))
				if worst >= c || worst >= goalInf {
					break
				}
				for key, o := range p {
					if _, ok := sub[key]; !ok {
						sub[key] = o
					}
				}
			}
			if worst < goalInf && worst < c {
				c = worst
				bp = sub
				bp.set(u, l)
			}
		}
		return c, bp, nil
	}
	c, p, err := best(s, opt.Depth, true)
	if err != nil || over || p == nil || c > bound {
		return nil, err
	}
	for k, o := range p {
		patch[k] = o
	}
	return t.newBug(s, OracleLookahead, pv, patch, nil, opt.MaxStates)
}

// undo generalises paper 001's UndoQual and InvQuant oracles: the fuzzer
// reached s from ancestors in its pool; if labels lead back along that
// walk deterministically (each has the previous walk state as its only
// successor) to an ancestor a the policy solves, going back and letting
// the policy run from a is a plan of cost (steps back) + V^pi(a).
func (t *GoalTask) undo(pool *Pool, i int, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	bound := goalBugBound(pv, opt)
	// The ancestry of entry i, newest first: s, then the walk states back
	// to the pool's start states.
	var chain []symbolic.State
	for j := i; j >= 0 && len(chain) <= opt.UndoDepth; j = pool.Entries[j].Parent {
		w := pool.Entries[j].Walk
		if len(w) == 0 {
			if len(chain) == 0 {
				chain = append(chain, pool.Entries[j].State)
			}
			continue
		}
		for k := len(w) - 1; k >= 0; k-- {
			if len(chain) > 0 && k == len(w)-1 {
				continue // the walk's last state is the chain's last
			}
			chain = append(chain, w[k].State)
		}
	}
	patch := goalPatch{}
	var bestPatch goalPatch
	bestCost := bound + 1
	spent := 0 // what the undo steps so far cost
	for k := 0; k+1 < len(chain) && k < opt.UndoDepth && spent+1 < bestCost; k++ {
		from, to := chain[k], chain[k+1]
		if t.Gen.Status(from) != explicit.Open {
			break
		}
		back, cost := symbolic.NoLabel, 0
		for _, l := range t.applicable(from) {
			succ, err := t.succs(from, l)
			if err != nil {
				return nil, err
			}
			if len(succ) == 1 && goalKey(succ[0].s) == goalKey(to) {
				back, cost = l, t.M.Commands[succ[0].cmd].CostIn(from)
				break
			}
		}
		if back == symbolic.NoLabel {
			break
		}
		if spent = min(spent+cost, goalInf); spent >= bestCost {
			break
		}
		patch.set(from, back)
		if _, ok := patch[goalKey(to)]; ok {
			break // the walk went through the same state twice
		}
		// The run from to costs at least its number of steps, so a run
		// that beats bestCost takes fewer than bestCost - spent steps.
		v, err := t.value(to, nil, bestCost-spent-1, opt.MaxStates)
		if err != nil {
			return nil, err
		}
		if v.Outcome == GoalReached && spent+v.Cost < bestCost {
			bestCost = spent + v.Cost
			bestPatch = goalPatch{}
			for key, o := range patch {
				bestPatch[key] = o
			}
		}
	}
	if bestPatch == nil {
		return nil, nil
	}
	return t.newBug(chain[0], OracleUndo, pv, bestPatch, chain, opt.MaxStates)
}

// goalSpace is the explicit state space reachable from one state over all
// labels, with the optimal strong (adversarial) plan costs.
type goalSpace struct {
	states []symbolic.State
	ids    map[string]int
	groups [][]goalGroup // per state; terminal states have none
	value  []int         // optimal worst-case cost to the goal, commands' costs summed (goalInf: none)
	choice []symbolic.LabelID
}

type goalGroup struct {
	label symbolic.LabelID
	succ  []int
	cost  []int // cost[k]: what the command making succ[k] costs
}

// GoalOptimal computes V*(s), the optimal worst-case cost to the goal from s
// over all policies (the number of steps where no command says `cost`), with the explicit engine: exploration of
// every state reachable from s (at most maxStates, else ok is false) and a
// backward Dijkstra-style pass over the AND-OR graph (Knuth's
// generalisation: a state's value is fixed by the first label all of whose
// successors have values). solvable is false when no policy reaches the
// goal on every run. With t.Fair, cost is 0 where some policy reaches the
// goal with probability 1 (fairSolve), and solvable says whether one does.
func (t *GoalTask) GoalOptimal(s symbolic.State, maxStates int) (cost int, solvable, ok bool, err error) {
	sp, ok, err := t.space(s, maxStates)
	if err != nil || !ok {
		return 0, false, ok, err
	}
	v := sp.value[0]
	return v, v < goalInf, true, nil
}

func (t *GoalTask) space(s symbolic.State, maxStates int) (*goalSpace, bool, error) {
	sp := &goalSpace{ids: map[string]int{}}
	intern := func(u symbolic.State) int {
		k := goalKey(u)
		if id, ok := sp.ids[k]; ok {
			return id
		}
		sp.ids[k] = len(sp.states)
		sp.states = append(sp.states, u)
		sp.groups = append(sp.groups, nil)
		return len(sp.states) - 1
	}
	intern(s)
	for i := 0; i < len(sp.states); i++ {
		if len(sp.states) > maxStates {
			return nil, false, nil
		}
		u := sp.states[i]
		if t.Gen.Status(u) != explicit.Open {
			continue
		}
		for _, l := range t.applicable(u) {
			succ, err := t.succs(u, l)
			if err != nil {
				return nil, false, err
			}
			g := goalGroup{label: l}
			for _, e := range succ {
				g.succ = append(g.succ, intern(e.s))
				g.cost = append(g.cost, t.M.Commands[e.cmd].CostIn(u))
			}
			sp.groups[i] = append(sp.groups[i], g)
		}
	}
	n := len(sp.states)
	type ref struct{ state, group, edge int }
	pred := make([][]ref, n)
	left := make([][]int, n)
	worst := make([][]int, n) // per group: the largest cost + value over its final successors
	for i := range sp.groups {
		left[i] = make([]int, len(sp.groups[i]))
		worst[i] = make([]int, len(sp.groups[i]))
		for gi, g := range sp.groups[i] {
			left[i][gi] = len(g.succ)
			for k, j := range g.succ {
				pred[j] = append(pred[j], ref{i, gi, k})
			}
		}
	}
	sp.value = make([]int, n)
	sp.choice = make([]symbolic.LabelID, n)
	final := make([]bool, n)
	var q spaceQueue
	for i := range sp.value {
		sp.value[i] = goalInf
		sp.choice[i] = symbolic.NoLabel
		if t.Gen.Status(sp.states[i]) == explicit.Goal {
			sp.value[i] = 0
			heap.Push(&q, spaceItem{0, i})
		}
	}
	// Commands cost at least 1, so values are fixed in increasing order:
	// a state's value is final when it leaves the queue, and a group's
	// (the worst over its outcomes of the command's cost plus the
	// successor's value) is known once all its successors are final.
	for q.Len() > 0 {
		it := heap.Pop(&q).(spaceItem)
		j := it.state
		if final[j] || it.value != sp.value[j] {
			continue
		}
		final[j] = true
		for _, r := range pred[j] {
			if final[r.state] {
				continue
			}
			c := sp.groups[r.state][r.group].cost[r.edge]
			worst[r.state][r.group] = max(worst[r.state][r.group], min(c+sp.value[j], goalInf))
			left[r.state][r.group]--
			if w := worst[r.state][r.group]; left[r.state][r.group] == 0 && w < sp.value[r.state] {
				sp.value[r.state] = w
				sp.choice[r.state] = sp.groups[r.state][r.group].label
				heap.Push(&q, spaceItem{w, r.state})
			}
		}
	}
	if t.Fair {
		fairSolve(t, sp)
	}
	return sp, true, nil
}

// spaceItem is a state of the optimal-plan pass and its value when queued.
type spaceItem struct{ value, state int }

// spaceQueue is a min-heap of spaceItems by value.
type spaceQueue []spaceItem

func (q spaceQueue) Len() int           { return len(q) }
func (q spaceQueue) Less(i, j int) bool { return q[i].value < q[j].value }
func (q spaceQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *spaceQueue) Push(x any)        { *q = append(*q, x.(spaceItem)) }
func (q *spaceQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// optimalOracle proposes the optimal plan from s when the space is small.
func (t *GoalTask) optimalOracle(s symbolic.State, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	sp, ok, err := t.space(s, opt.OptimalStates)
	if err != nil || !ok || sp.value[0] > goalBugBound(pv, opt) {
		return nil, err
	}
	patch := goalPatch{}
	seen := map[int]bool{0: true}
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if sp.choice[i] == symbolic.NoLabel {
			continue
		}
		patch.set(sp.states[i], sp.choice[i])
		for _, g := range sp.groups[i] {
			if g.label != sp.choice[i] {
				continue
			}
			for _, j := range g.succ {
				if !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
		}
	}
	return t.newBug(s, OracleOptimal, pv, patch, nil, opt.MaxStates)
}

// relaxNode is a node of the relax oracle's search.
type goalNode struct {
	s      symbolic.State
	g, h   int
	parent *goalNode
	label  symbolic.LabelID
	index  int
}

type goalQueue []*goalNode

func (q goalQueue) Len() int { return len(q) }
func (q goalQueue) Less(i, j int) bool {
	if q[i].h != q[j].h {
		return q[i].h < q[j].h
	}
	if q[i].g != q[j].g {
		return q[i].g < q[j].g
	}
	return q[i].index < q[j].index
}
func (q goalQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *goalQueue) Push(x any)   { *q = append(*q, x.(*goalNode)) }
func (q *goalQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}

// relaxOracle is ours: greedy best-first search on h_add of the interval
// relaxation, over labels with a single successor (so that the path is a
// plan whatever the outcomes), pruning nodes whose g + h_max cannot beat
// the policy.
func (t *GoalTask) relaxOracle(s symbolic.State, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	bound := goalBugBound(pv, opt)
	relax := newGoalRelax(t.M, t.Prop.Goal)
	hm, ha := relax.goalDist(s)
	if hm > bound {
		return nil, nil
	}
	q := &goalQueue{}
	heap.Push(q, &goalNode{s: s, h: ha, label: symbolic.NoLabel})
	closed := map[string]int{}
	count := 0
	for q.Len() > 0 && count < opt.Expansions {
		if opt.stopped() {
			return nil, errOracleStopped
		}
		n := heap.Pop(q).(*goalNode)
		k := goalKey(n.s)
		if g, ok := closed[k]; ok && g <= n.g {
			continue
		}
		closed[k] = n.g
		count++
		if t.Gen.Status(n.s) == explicit.Goal {
			return t.pathBug(s, n, pv, opt)
		}
		for _, l := range t.applicable(n.s) {
			succ, err := t.succs(n.s, l)
			if err != nil {
				return nil, err
			}
			if len(succ) != 1 || t.Gen.Status(succ[0].s) == explicit.Unsafe {
				continue
			}
			cost := t.M.Commands[succ[0].cmd].CostIn(n.s) // 1 unless the action says `cost`
			c := &goalNode{s: succ[0].s, g: min(n.g+cost, goalInf), parent: n, label: l, index: count}
			hm, ha := relax.goalDist(c.s)
			if hm >= goalInf || c.g+hm > bound {
				continue
			}
			c.h = ha
			heap.Push(q, c)
		}
	}
	return nil, nil
}

// pathBug turns a search path from s to the goal into a candidate bug.
func (t *GoalTask) pathBug(s symbolic.State, n *goalNode, pv GoalValue, opt OracleOptions) (*GoalBug, error) {
	patch := goalPatch{}
	var order []symbolic.State
	for ; n.parent != nil; n = n.parent {
		patch.set(n.parent.s, n.label)
		order = append([]symbolic.State{n.parent.s}, order...)
	}
	return t.newBug(s, OracleRelax, pv, patch, order, opt.MaxStates)
}

// CheckOracles reports the first unknown goal-mode oracle name among names,
// with the list of valid ones.
func CheckOracles(names []string) error {
	_, err := OracleOptions{Oracles: names}.withDefaults()
	return err
}
