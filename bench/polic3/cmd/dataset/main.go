// Command dataset is the planner of the PolIC3 benchmark suite: it explores
// an instance with vigil's explicit engine and computes, for every explored
// state, the action a careful planner takes there. train.py imitates it.
//
//	dataset [-D NAME=VALUE]... [-max-states N] [-max-starts N] [-rows N] [-seed S] -o FILE.csv SPEC
//	dataset [-D NAME=VALUE]... -check POLICY[,POLICY...]|all SPEC
//
// The planner works on the transition system over all labels, explored
// breadth first from the start states (a seeded sample of them when there
// are more than -max-starts) until -max-states states are stored; states
// beyond that are the frontier. On that graph it computes
//
//   - the losing states: unsafe states, and states where every applicable
//     label has an outcome that is losing (the attractor of the unsafe
//     states; a frontier state counts as winning, an optimistic guess);
//   - the expected number of steps to the goal, every outcome of a command
//     equally likely, using only safe labels (those whose outcomes are all
//     winning), by value iteration (a frontier state is worth the distance
//     of its values to the goal condition's comparisons, a state that cannot
//     reach the goal 10^4);
//   - per state, the planner's label: the safe label of least expected
//     distance (ties: the earliest label), and the risky labels: applicable
//     labels with a losing outcome.
//
// The CSV has one row per explored non-terminal state with an applicable
// label: the values of all variables (model order), "label", "applicable"
// and "risky" (label names joined by "|"), "winning" (0/1) and "value".
// A safe policy imitates "label"; train.py makes unsafe policies by
// replacing some labels of states with risky labels.
//
// With -check, dataset loads the spec with its learned policies and reports,
// per policy, how often its choice is one of the planner's best labels and
// how often it takes a risky label in a winning state.
//
// Learned (nn, trees) policy declarations are removed from the text before
// loading when the planner runs, so that it works before their files exist.
package main

import (
	"bufio"
	"container/heap"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"vigil/lang"
	_ "vigil/nn" // nn policies for -check
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	_ "vigil/trees" // trees policies for -check
)

const noGoal = 1e4 // the value of a state that cannot reach the goal

type defines map[string]string

func (d defines) String() string { return fmt.Sprint(map[string]string(d)) }

func (d defines) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	d[name] = val
	return nil
}

func main() {
	defs := defines{}
	flag.Var(defs, "D", "override a constant: -D NAME=VALUE (repeatable)")
	prop := flag.String("property", "", "property (default: the only one)")
	maxStates := flag.Int("max-states", 3_000_000, "stop expanding after storing this many states")
	maxStarts := flag.Int("max-starts", 20_000, "explore from at most this many start states (a seeded sample)")
	rows := flag.Int("rows", 0, "write at most this many rows (a seeded sample that keeps states with risky labels first); 0: all")
	seed := flag.Uint64("seed", 1, "seed of the samples")
	out := flag.String("o", "", "write the CSV to this file")
	check := flag.String("check", "", "compare these learned policies (comma-separated, or all) with the planner instead of writing a CSV")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: dataset [flags] SPEC\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || (*out == "") == (*check == "") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), defs, *prop, *maxStates, *maxStarts, *rows, *seed, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "dataset:", err)
		os.Exit(1)
	}
}

var learnedPolicy = regexp.MustCompile(`(?s)\bpolicy\s+(nn|trees)\s+[A-Za-z_][A-Za-z0-9_-]*\s+"[^"]*"\s*\{[^}]*\}`)

func load(path string, defs defines, learned bool) (*symbolic.Model, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !learned {
		src = learnedPolicy.ReplaceAll(src, nil)
	}
	m, diags := lang.LoadSource(path, src, lang.Options{Defines: defs})
	if diags.HasErrors() {
		return nil, diags.Err()
	}
	return m, nil
}

func run(path string, defs defines, propName string, maxStates, maxStarts, rows int, seed uint64, out, check string) error {
	begin := time.Now()
	m, err := load(path, defs, check != "")
	if err != nil {
		return err
	}
	prop, err := pickProperty(m, propName)
	if err != nil {
		return err
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x706f6c696333))
	starts, nstarts, err := sampleStarts(g, maxStarts, rng)
	if err != nil {
		return err
	}
	gr, err := explore(g, starts, maxStates)
	if err != nil {
		return err
	}
	pl := plan(g, gr)
	winStarts := 0
	for i := range starts {
		if !pl.lose[i] {
			winStarts++
		}
	}
	fmt.Fprintf(os.Stderr, "dataset: %s: %s start states (%d explored, %d winning), %d states stored, %d expanded, %d losing, %d winning states with a risky label, %.1fs\n",
		path, nstarts, len(starts), winStarts, gr.st.Len(), gr.nexp, pl.nlose, pl.ncritical, time.Since(begin).Seconds())
	if winStarts < len(starts) {
		fmt.Fprintf(os.Stderr, "dataset: warning: %d start states are losing: every policy is unsafe from them\n", len(starts)-winStarts)
	}
	if check != "" {
		return checkPolicies(m, g, gr, pl, check)
	}
	info := meta{Starts: nstarts, Explored: len(starts), Winning: winStarts, States: gr.st.Len(), Expanded: gr.nexp,
		Losing: pl.nlose, Critical: pl.ncritical, Seconds: time.Since(begin).Seconds()}
	return writeCSV(out, m, g, gr, pl, rows, rng, info)
}

func pickProperty(m *symbolic.Model, name string) (*symbolic.Property, error) {
	for _, p := range m.Properties {
		if p.Name == name || (name == "" && len(m.Properties) == 1) {
			return p, nil
		}
	}
	if name == "" {
		return nil, fmt.Errorf("model %s has %d properties: choose one with -property", m.Name, len(m.Properties))
	}
	return nil, fmt.Errorf("model %s has no property %s", m.Name, name)
}

// sampleStarts returns the start states, or a seeded sample of k of them
// when there are more, and a description of how many there are. The
// enumeration runs in lexicographic order; when it would take too long,
// rejection sampling in the box of the start condition's bounds replaces it.
func sampleStarts(g *explicit.Generator, k int, rng *rand.Rand) ([]symbolic.State, string, error) {
	const enumPer = 200 // enumerate at most enumPer*k start states
	var res []symbolic.State
	n := 0
	err := g.Starts(func(s symbolic.State) bool {
		n++
		if len(res) < k {
			res = append(res, append(symbolic.State(nil), s...))
		} else if j := rng.IntN(n); j < k {
			copy(res[j], s)
		}
		return n < enumPer*k
	})
	if err != nil {
		return nil, "", err
	}
	if n < enumPer*k {
		if n <= k {
			return res, fmt.Sprint(n), nil
		}
		return res, fmt.Sprintf("%d sampled from %d", k, n), nil
	}
	// Too many to enumerate: rejection sampling in the box of the bounds,
	// then (when start states are too rare in the box) a randomised
	// depth-first search.
	lo, hi, _ := g.StartBounds()
	seen := map[string]bool{}
	var got []symbolic.State
	add := func(s symbolic.State) {
		if key := fmt.Sprint(s); !seen[key] {
			seen[key] = true
			got = append(got, append(symbolic.State(nil), s...))
		}
	}
	s := make(symbolic.State, len(lo))
	for tries := 0; tries < 2_000_000 && len(got) < k; tries++ {
		for i := range s {
			s[i] = lo[i] + rng.IntN(hi[i]-lo[i]+1)
		}
		if g.Prop.Start.Holds(s) {
			add(s)
		}
	}
	how := "uniformly"
	if len(got) < k {
		how = "by randomised search"
		rs := newRandomSearch(g.Prop.Start, lo, hi)
		for tries := 0; tries < 20*k && len(got) < k; tries++ {
			if rs.sample(rng, s) {
				add(s)
			}
		}
	}
	if len(got) < k {
		fmt.Fprintf(os.Stderr, "dataset: warning: sampling found %d start states; adding the first ones in lexicographic order\n", len(got))
		for _, r := range res {
			if len(got) == k {
				break
			}
			add(r)
		}
	}
	return got, fmt.Sprintf("%d sampled %s from more than %d", len(got), how, n), nil
}

// randomSearch draws start states by a depth-first search that assigns the
// variables in order, tries each variable's values in a random order and
// checks every conjunct of the start condition as soon as its last variable
// is assigned (as explicit.Starts does in lexicographic order). Its samples
// are not uniform, but they are spread over the whole start set.
type randomSearch struct {
	lo, hi []int
	checks [][]*symbolic.Cond // per variable: the conjuncts whose last variable it is
	budget int
}

func newRandomSearch(start *symbolic.Cond, lo, hi []int) *randomSearch {
	rs := &randomSearch{lo: lo, hi: hi, checks: make([][]*symbolic.Cond, len(lo))}
	for _, c := range conjuncts(start, nil) {
		last := 0
		c.Vars(func(v symbolic.VarID) { last = max(last, int(v)) })
		rs.checks[last] = append(rs.checks[last], c)
	}
	return rs
}

// conjuncts appends to out the conjuncts of c, nested conjunctions
// flattened, in order.
func conjuncts(c *symbolic.Cond, out []*symbolic.Cond) []*symbolic.Cond {
	if c.Op != symbolic.CAnd {
		return append(out, c)
	}
	for _, a := range c.Args {
		out = conjuncts(a, out)
	}
	return out
}

func (rs *randomSearch) sample(rng *rand.Rand, s symbolic.State) bool {
	rs.budget = 100_000
	return rs.assign(rng, s, 0)
}

func (rs *randomSearch) assign(rng *rand.Rand, s symbolic.State, k int) bool {
	if k == len(s) {
		return true
	}
	n := rs.hi[k] - rs.lo[k] + 1
	for _, j := range rng.Perm(n) {
		if rs.budget--; rs.budget < 0 {
			return false
		}
		s[k] = rs.lo[k] + j
		ok := true
		for _, c := range rs.checks[k] {
			if !c.Holds(s) {
				ok = false
				break
			}
		}
		if ok && rs.assign(rng, s, k+1) {
			return true
		}
	}
	return false
}

// graph is the explored transition system over all labels. States have the
// ids of st; those below nexp are expanded (their groups are known), the
// others are the frontier.
type graph struct {
	st         *explicit.Store
	nexp       int
	status     []explicit.Status // per stored state
	groupStart []uint32          // per expanded state, plus a sentinel
	groupLabel []symbolic.LabelID
	succStart  []uint32 // per group, plus a sentinel
	succ       []uint32
}

func (gr *graph) groups(s int) (uint32, uint32) { return gr.groupStart[s], gr.groupStart[s+1] }

func (gr *graph) successors(k uint32) []uint32 { return gr.succ[gr.succStart[k]:gr.succStart[k+1]] }

func explore(g *explicit.Generator, starts []symbolic.State, maxStates int) (*graph, error) {
	st := explicit.NewStoreFor(g.L, min(maxStates, 1<<20))
	gr := &graph{st: st, groupStart: []uint32{0}, succStart: []uint32{0}}
	buf := make([]uint64, g.L.W)
	for _, s := range starts {
		g.L.Pack(s, buf)
		if _, _, err := st.Intern(buf); err != nil {
			return nil, err
		}
	}
	s := make(symbolic.State, len(g.M.Vars))
	x := &explicit.Expansion{}
	id := 0
	for ; id < st.Len() && st.Len() <= maxStates; id++ {
		src := st.Get(uint32(id))
		g.L.Unpack(src, s)
		status := g.Status(s)
		gr.status = append(gr.status, status)
		if status == explicit.Open {
			if err := g.Expand(src, s, x); err != nil {
				return nil, err
			}
			for _, grp := range x.Groups {
				gr.groupLabel = append(gr.groupLabel, grp.Label)
				for i := grp.From; i < grp.To; i++ {
					t, _, err := st.Intern(x.Target(i))
					if err != nil {
						return nil, err
					}
					gr.succ = append(gr.succ, t)
				}
				gr.succStart = append(gr.succStart, uint32(len(gr.succ)))
			}
		}
		gr.groupStart = append(gr.groupStart, uint32(len(gr.groupLabel)))
	}
	gr.nexp = id
	for ; id < st.Len(); id++ {
		g.L.Unpack(st.Get(uint32(id)), s)
		gr.status = append(gr.status, g.Status(s))
	}
	return gr, nil
}

// planner is what plan computes.
type planner struct {
	lose      []bool    // per state
	bad       []bool    // per group: some outcome is losing
	value     []float64 // per state: expected steps to the goal
	label     []symbolic.LabelID
	nlose     int
	ncritical int // winning expanded states with a risky label
}

// plan computes, over the explored graph, the states from which the unsafe
// states cannot be avoided, the expected number of steps to the goal
// under the best safe labels, and the label the planner takes in each
// expanded state.
func plan(g *explicit.Generator, gr *graph) *planner {
	n := gr.st.Len()
	pl := &planner{lose: make([]bool, n), bad: make([]bool, len(gr.groupLabel)), value: make([]float64, n), label: make([]symbolic.LabelID, gr.nexp)}
	rev := reverse(gr)
	pl.attractor(gr, rev)
	order := pl.sweepOrder(g, gr, rev)
	pl.iterate(gr, order)
	pl.chooseLabels(gr)
	return pl
}

// reversed is the graph's edges backwards: the groups that lead to each
// state, and the expanded state that owns each group.
type reversed struct {
	owner []uint32 // per group
	start []uint32 // per state, plus a sentinel: where its groups start in group
	group []uint32
}

// preds returns the groups with an outcome t.
func (rv *reversed) preds(t uint32) []uint32 { return rv.group[rv.start[t]:rv.start[t+1]] }

// reverse builds the predecessor groups of every state and the owner of
// every group.
func reverse(gr *graph) *reversed {
	n, ng := gr.st.Len(), len(gr.groupLabel)
	rv := &reversed{owner: make([]uint32, ng), start: make([]uint32, n+1), group: make([]uint32, len(gr.succ))}
	for s := 0; s < gr.nexp; s++ {
		from, to := gr.groups(s)
		for k := from; k < to; k++ {
			rv.owner[k] = uint32(s)
		}
	}
	for _, t := range gr.succ {
		rv.start[t+1]++
	}
	for i := 0; i < n; i++ {
		rv.start[i+1] += rv.start[i]
	}
	fill := append([]uint32(nil), rv.start[:n]...)
	for k := 0; k < ng; k++ {
		for _, t := range gr.successors(uint32(k)) {
			rv.group[fill[t]] = uint32(k)
			fill[t]++
		}
	}
	return rv
}

// attractor marks the losing states, those from which every label may
// lead to an unsafe state (the attractor of the unsafe states), and the
// bad groups, those with a losing outcome.
func (pl *planner) attractor(gr *graph, rv *reversed) {
	live := make([]int32, gr.nexp) // groups without a losing outcome
	var queue []uint32
	for s := range pl.lose {
		if gr.status[s] == explicit.Unsafe {
			pl.lose[s] = true
			queue = append(queue, uint32(s))
		} else if s < gr.nexp {
			from, to := gr.groups(s)
			live[s] = int32(to - from)
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, k := range rv.preds(t) {
			if pl.bad[k] {
				continue
			}
			pl.bad[k] = true
			s := rv.owner[k]
			live[s]--
			if live[s] == 0 && !pl.lose[s] {
				pl.lose[s] = true
				queue = append(queue, s)
			}
		}
	}
	for s := range pl.lose {
		if pl.lose[s] {
			pl.nlose++
		}
	}
}

// sweepOrder computes optimistic distances (Dijkstra over safe groups
// from the goal and the frontier, whose states start at goalDistance's
// estimate) and returns the open expanded states nearest first, the
// order of the value-iteration sweeps. It sets the values of the goal and
// frontier states.
func (pl *planner) sweepOrder(g *explicit.Generator, gr *graph, rv *reversed) []uint32 {
	n := len(pl.lose)
	h := goalDistance(g)
	dist := make([]float64, n)
	pq := &distQueue{}
	sv := make(symbolic.State, len(g.M.Vars))
	for s := 0; s < n; s++ {
		dist[s] = math.Inf(1)
		switch {
		case pl.lose[s]:
		case gr.status[s] == explicit.Goal:
			dist[s] = 0
		case s >= gr.nexp:
			g.L.Unpack(gr.st.Get(uint32(s)), sv)
			dist[s] = h(sv)
		default:
			continue
		}
		pl.value[s] = dist[s]
		if !math.IsInf(dist[s], 1) {
			heap.Push(pq, distItem{uint32(s), dist[s]})
		}
	}
	var order []uint32
	for pq.Len() > 0 {
		it := heap.Pop(pq).(distItem)
		if it.d > dist[it.s] {
			continue
		}
		if int(it.s) < gr.nexp && gr.status[it.s] == explicit.Open {
			order = append(order, it.s)
		}
		for _, k := range rv.preds(it.s) {
			if pl.bad[k] {
				continue
			}
			s := rv.owner[k]
			if d := it.d + 1; d < dist[s] {
				dist[s] = d
				heap.Push(pq, distItem{s, d})
			}
		}
	}
	return order
}

// iterate runs value iteration from above (Gauss-Seidel in order, for at
// most 10,000 sweeps or two minutes); states the goal cannot be reached
// from keep noGoal.
func (pl *planner) iterate(gr *graph, order []uint32) {
	for s := 0; s < gr.nexp; s++ {
		if gr.status[s] == explicit.Open && !pl.lose[s] {
			pl.value[s] = noGoal
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for sweep := 0; sweep < 10_000 && time.Now().Before(deadline); sweep++ {
		delta := 0.0
		for _, s := range order {
			best := noGoal - 1
			from, to := gr.groups(int(s))
			for k := from; k < to; k++ {
				if !pl.bad[k] {
					best = min(best, pl.q(gr, k))
				}
			}
			v := min(noGoal, 1+best)
			delta = max(delta, math.Abs(v-pl.value[s]))
			pl.value[s] = v
		}
		if delta < 1e-6 {
			break
		}
	}
}

// q is the expected value after taking group k: the mean of its outcomes'
// values.
func (pl *planner) q(gr *graph, k uint32) float64 {
	sum := 0.0
	ts := gr.successors(k)
	for _, t := range ts {
		sum += pl.value[t]
	}
	return sum / float64(len(ts))
}

// chooseLabels sets the planner's label in every open expanded state with
// a label: the safe label of least value, or, in a losing state, the one
// with the fewest losing outcomes.
func (pl *planner) chooseLabels(gr *graph) {
	for s := 0; s < gr.nexp; s++ {
		pl.label[s] = symbolic.NoLabel
		from, to := gr.groups(s)
		if gr.status[s] != explicit.Open || from == to {
			continue
		}
		best, bestQ := symbolic.NoLabel, math.Inf(1)
		if !pl.lose[s] {
			risky := false
			for k := from; k < to; k++ {
				if pl.bad[k] {
					risky = true
				} else if v := pl.q(gr, k); v < bestQ-1e-9 {
					best, bestQ = gr.groupLabel[k], v
				}
			}
			if risky {
				pl.ncritical++
			}
		} else {
			for k := from; k < to; k++ {
				nl := 0
				ts := gr.successors(k)
				for _, t := range ts {
					if pl.lose[t] {
						nl++
					}
				}
				if v := float64(nl) / float64(len(ts)); v < bestQ-1e-9 {
					best, bestQ = gr.groupLabel[k], v
				}
			}
		}
		pl.label[s] = best
	}
}

// goalDistance returns a function that measures how far a state is from
// the goal condition: the sum, over the goal's conjuncts, of how much each
// violated comparison misses by (1 for other violated conjuncts).
func goalDistance(g *explicit.Generator) func(symbolic.State) float64 {
	if g.Prop == nil || g.Prop.Goal == nil {
		return func(symbolic.State) float64 { return noGoal }
	}
	conj := conjuncts(g.Prop.Goal, nil)
	return func(s symbolic.State) float64 {
		d := 0.0
		for _, c := range conj {
			if c.Holds(s) {
				continue
			}
			if c.Op == symbolic.CCmp {
				d += math.Max(1, math.Abs(float64(c.L.Eval(s)-c.R.Eval(s))))
			} else {
				d++
			}
		}
		return d
	}
}

type distItem struct {
	s uint32
	d float64
}

type distQueue []distItem

func (q distQueue) Len() int { return len(q) }
func (q distQueue) Less(i, j int) bool {
	return q[i].d < q[j].d || (q[i].d == q[j].d && q[i].s < q[j].s)
}
func (q distQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *distQueue) Push(x any)   { *q = append(*q, x.(distItem)) }
func (q *distQueue) Pop() any     { x := (*q)[len(*q)-1]; *q = (*q)[:len(*q)-1]; return x }

// rowStates lists the states that get a CSV row: expanded, not terminal,
// with an applicable label.
func rowStates(gr *graph) []uint32 {
	var ids []uint32
	for s := 0; s < gr.nexp; s++ {
		if from, to := gr.groups(s); gr.status[s] == explicit.Open && from < to {
			ids = append(ids, uint32(s))
		}
	}
	return ids
}

func (pl *planner) risky(gr *graph, s uint32) bool {
	from, to := gr.groups(int(s))
	for k := from; k < to; k++ {
		if pl.bad[k] {
			return true
		}
	}
	return false
}

func writeCSV(path string, m *symbolic.Model, g *explicit.Generator, gr *graph, pl *planner, rows int, rng *rand.Rand, info meta) error {
	ids := rowStates(gr)
	if rows > 0 && len(ids) > rows {
		// Keep states with a risky label first (at most half the rows),
		// then a uniform sample of the others; write them in id order.
		var crit, rest []uint32
		for _, s := range ids {
			if !pl.lose[s] && pl.risky(gr, s) {
				crit = append(crit, s)
			} else {
				rest = append(rest, s)
			}
		}
		rng.Shuffle(len(crit), func(i, j int) { crit[i], crit[j] = crit[j], crit[i] })
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		crit = crit[:min(len(crit), rows/2)]
		ids = append(crit, rest[:min(len(rest), rows-len(crit))]...)
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	}
	info.Rows = len(ids)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, v := range m.Vars {
		fmt.Fprintf(w, "%s,", v.Name)
	}
	fmt.Fprintln(w, "label,applicable,risky,winning,value")
	s := make(symbolic.State, len(m.Vars))
	var app, risky []string
	for _, id := range ids {
		g.L.Unpack(gr.st.Get(id), s)
		for _, v := range s {
			fmt.Fprintf(w, "%d,", v)
		}
		app, risky = app[:0], risky[:0]
		from, to := gr.groups(int(id))
		for k := from; k < to; k++ {
			name := m.Labels[gr.groupLabel[k]].Name
			app = append(app, name)
			if pl.bad[k] && !pl.lose[id] {
				risky = append(risky, name)
			}
		}
		win := 1
		if pl.lose[id] {
			win = 0
		}
		fmt.Fprintf(w, "%s,%s,%s,%d,%.4g\n", m.Labels[pl.label[id]].Name, strings.Join(app, "|"), strings.Join(risky, "|"), win, pl.value[id])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "dataset: wrote %d rows to %s\n", len(ids), path)
	return writeMeta(path+".meta.json", m, g, info)
}

// meta describes a dataset for train.py: the variables with their ranges
// and the labels, in model order, and what the planner found.
type meta struct {
	Model    string    `json:"model"`
	Property string    `json:"property"`
	Vars     []metaVar `json:"vars"`
	Labels   []string  `json:"labels"`
	Starts   string    `json:"starts"`
	Explored int       `json:"explored_starts"`
	Winning  int       `json:"winning_starts"`
	States   int       `json:"states"`
	Expanded int       `json:"expanded"`
	Losing   int       `json:"losing"`
	Critical int       `json:"critical"`
	Rows     int       `json:"rows"`
	Seconds  float64   `json:"seconds"`
}

type metaVar struct {
	Name string `json:"name"`
	Lo   int    `json:"lo"`
	Hi   int    `json:"hi"`
}

func writeMeta(path string, m *symbolic.Model, g *explicit.Generator, info meta) error {
	info.Model, info.Property = m.Name, g.Prop.Name
	for _, v := range m.Vars {
		info.Vars = append(info.Vars, metaVar{v.Name, v.Lo, v.Hi})
	}
	for _, l := range m.Labels {
		info.Labels = append(info.Labels, l.Name)
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// checkPolicies compares learned policies with the planner on the winning
// explored states.
func checkPolicies(m *symbolic.Model, g *explicit.Generator, gr *graph, pl *planner, names string) error {
	var decls []*symbolic.PolicyDecl
	for _, d := range m.Policies {
		if d.Kind != symbolic.KindNN && d.Kind != symbolic.KindTrees {
			continue
		}
		if names == "all" || contains(strings.Split(names, ","), d.Name) {
			decls = append(decls, d)
		}
	}
	if len(decls) == 0 {
		return fmt.Errorf("no learned policy named %s", names)
	}
	ids := rowStates(gr)
	s := make(symbolic.State, len(m.Vars))
	x := &explicit.Expansion{}
	for _, d := range decls {
		dec, err := explicit.NewDecider(m, d)
		if err != nil {
			return err
		}
		var n, best, risky, stuck int
		for _, id := range ids {
			if pl.lose[id] {
				continue
			}
			g.L.Unpack(gr.st.Get(id), s)
			g.Applicable(s, x)
			l, err := dec.Decide(s, x.App)
			if err != nil {
				return err
			}
			n++
			if l == symbolic.NoLabel {
				stuck++
				continue
			}
			from, to := gr.groups(int(id))
			bq, lq := math.Inf(1), math.Inf(1)
			for k := from; k < to; k++ {
				if pl.bad[k] {
					if gr.groupLabel[k] == l {
						risky++
					}
					continue
				}
				v := 0.0
				ts := gr.successors(k)
				for _, t := range ts {
					v += pl.value[t]
				}
				v /= float64(len(ts))
				bq = min(bq, v)
				if gr.groupLabel[k] == l {
					lq = v
				}
			}
			if lq <= bq+1e-9 {
				best++
			}
		}
		fmt.Printf("%s\t%s\twinning states %d\tbest label %.1f%%\trisky label %d\tstuck %d\n",
			d.Name, d.Kind, n, 100*float64(best)/float64(max(n, 1)), risky, stuck)
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
