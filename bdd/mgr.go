package bdd

// The manager wraps one rudd.BDD. Every operation goes through it so that
// three things are checked in one place after each call: a failed
// operation (rudd returns a nil Node and sets its error flag), the node
// budget, and the context. A failure unwinds the computation with a panic
// of type *stop, which the package's entry points recover and turn into an
// Unknown verdict (or an error); any other panic is re-raised.
//
// rudd facts this file relies on (github.com/dalzilio/rudd at the version
// go.mod pins):
//   - External references are Go pointers with finalizers that decrement a
//     node's reference count; rudd's own node garbage collection (run when
//     the table is full) frees only nodes whose references were finalized.
//     Go's collector runs those finalizers, so the manager calls
//     runtime.GC when many nodes were produced since the last time, before
//     rudd decides to grow its table instead of reusing dead nodes.
//   - With rudd's own limit (Maxnodesize), an operation that needs more
//     nodes does not stop: makenode returns -1, the recursion goes on with
//     it, may build nodes with a -1 child and collects the whole table once
//     per further node. So the budget is enforced here, after each
//     operation, against the size of the node table; rudd's limit is only
//     a hard ceiling (4x the budget) that no result is trusted beyond: an
//     operation after which the table has reached the ceiling counts as
//     failed, whatever it returned.
//   - Apply(a, b, OPdiff) returns b when a is False (it should return
//     False); the manager computes a∧¬b with OPless instead.
//   - The table size, the number of free nodes and the number of rudd
//     garbage collections are unexported; they are read by reflection
//     (read-only), and TestRuddInternals fails if a rudd upgrade moves them.
//   - An operation cannot be interrupted: rudd has no hook inside its
//     recursions, and one AndExist, Apply or Replace on large BDDs can
//     take seconds. So a computation whose context can end runs on a
//     goroutine of its own (space.run) while the caller waits for it or
//     for the context; the computation holds the manager's lock (mu)
//     except inside rudd calls (outside). When the context ends and the
//     computation has not returned within stopGrace, the caller takes the
//     lock, which it gets only while the computation is inside a rudd
//     call (or has ended), and abandons the manager: nothing may touch
//     rudd's tables again (they are not locked against a running
//     operation), neither operations nor the statistics read by
//     reflection nor the counts done after a stop, so every method that
//     reaches rudd checks m.abandoned first. The abandoned operation runs
//     on until it ends, bounded by the ceiling (a CLI run exits long
//     before), then finds the manager abandoned and unwinds without
//     touching anything the caller reads. rudd's finalizers take its
//     table lock and only decrement reference counts, as they do beside
//     any operation.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dalzilio/rudd"

	"vigil/internal/vigilerr"
)

// Node is a BDD node of the package's manager.
type Node = rudd.Node

// stop is the panic value that unwinds a computation: out of nodes, the
// context ended, or rudd reported an error.
type stop struct {
	reason string // "node limit 1000000", "timeout", "canceled", or rudd's error
	err    error  // set when the stop is an error rather than an Unknown
}

// ruddTable reads rudd's unexported table fields.
type ruddTable struct {
	nodes, freenum, produced, history reflect.Value
}

func newRuddTable(b *rudd.BDD) (*ruddTable, error) {
	v := reflect.ValueOf(b).Elem().FieldByName("tables")
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, errors.New("bdd: rudd's BDD has no tables field")
	}
	t := v.Elem()
	rt := &ruddTable{nodes: t.FieldByName("nodes"), freenum: t.FieldByName("freenum"), produced: t.FieldByName("produced")}
	if gs := t.FieldByName("gcstat"); gs.IsValid() {
		rt.history = gs.FieldByName("history")
	}
	if rt.nodes.Kind() != reflect.Slice || rt.freenum.Kind() != reflect.Int || rt.produced.Kind() != reflect.Int || rt.history.Kind() != reflect.Slice {
		return nil, errors.New("bdd: rudd's node table fields (nodes, freenum, produced, gcstat.history) are not where this package expects them")
	}
	return rt, nil
}

func (t *ruddTable) size() int      { return t.nodes.Len() }
func (t *ruddTable) free() int      { return int(t.freenum.Int()) }
func (t *ruddTable) produced_() int { return int(t.produced.Int()) }
func (t *ruddTable) gcs() int       { return t.history.Len() }

// MemStats are the manager's figures, sampled after operations.
type MemStats struct {
	TableNodes     int    // current node table size (allocated slots)
	PeakTableNodes int    // largest node table size
	Produced       int    // nodes ever created
	RuddGCs        int    // rudd node garbage collections
	Resizes        int    // node table growths
	GoGCs          int    // runtime.GC calls made to run rudd's finalizers
	PeakHeap       uint64 // largest Go heap in use (bytes), sampled at most every 50 ms of iterations and at the end
}

type mgr struct {
	b       *rudd.BDD
	t       *ruddTable
	ctx     context.Context
	budget  int // the node table may not exceed this many nodes
	ceiling int // rudd's hard limit
	ops     int
	lastGC  int // produced count at the last runtime.GC
	stats   MemStats
	lastTab int
	dead    string // set when the table can no longer be trusted: every operation stops
	// abandoned is set when an operation was left running on the
	// computation's goroutine (see space.run): rudd may no longer be
	// touched at all; abandonReason is the stop's reason then.
	abandoned     atomic.Bool
	abandonReason string
	// mu is held by the computation's goroutine, except inside rudd
	// calls, while guarded (see space.run and outside).
	mu      sync.Mutex
	guarded bool
	// stopCtx is the context the caller of run waits on (ctx before
	// relax), and graceLeft what is left of stopGrace after it ended
	// (graceUsed: it was started).
	stopCtx context.Context
	// large is set while the table has asyncTable slots or more: the
	// figures are then counted after each layer, and run abandons the
	// computation as soon as the context ends (no grace).
	large     atomic.Bool
	graceLeft time.Duration
	graceUsed bool
	// workLimit, when set, stops an attempt (see attempt) once work()
	// exceeds it.
	workLimit int
	// maxProduced, when set, stops a trial (see trial) once rudd has
	// made more nodes in all.
	maxProduced int
}

// Default sizes: the initial table, the largest single growth (at most an
// eighth of the budget, so that the last growth before the budget wastes
// little of it), and the free fraction rudd keeps after a collection
// before it grows the table.
const (
	initialNodes   = 1 << 14
	maxNodeGrowth  = 1 << 21
	minFreePercent = 25
	// DefaultMaxNodes is the default node budget: with rudd's map-based
	// table a node costs about 100 bytes, so about 2.5 GB.
	DefaultMaxNodes = 25_000_000
)

// newMgr makes a manager of nvars BDD variables whose initial table is
// sized for sizeVars of them (the bits of states; auxiliary bits, used only
// by some computations, do not count).
func newMgr(ctx context.Context, nvars, sizeVars, budget int) (*mgr, error) {
	if budget <= 0 {
		return nil, fmt.Errorf("bdd: node budget %d: want a positive number of nodes", budget)
	}
	ceiling := 4 * budget
	if ceiling < 4*initialNodes {
		ceiling = 4 * initialNodes
	}
	// Small models (most of the tests') start small; the table doubles
	// as needed.
	init := min(initialNodes, budget, 1024+256*sizeVars)
	init = max(init, 2*nvars+2)
	b, err := rudd.New(nvars,
		rudd.Nodesize(init),
		rudd.Maxnodesize(ceiling),
		rudd.Maxnodeincrease(min(max(budget/8, 4096), maxNodeGrowth)),
		rudd.Minfreenodes(minFreePercent),
		rudd.Cachesize(init),
		rudd.Cacheratio(25))
	if err != nil {
		return nil, fmt.Errorf("bdd: %v", err)
	}
	t, err := newRuddTable(b)
	if err != nil {
		return nil, err
	}
	m := &mgr{b: b, t: t, ctx: ctx, stopCtx: ctx, budget: budget, ceiling: ceiling}
	m.lastTab = t.size()
	m.stats.TableNodes = m.lastTab
	m.stats.PeakTableNodes = m.lastTab
	return m, nil
}

// asyncTable is the node table size from which the computations count
// their states after each layer, so that a stop that abandons an
// operation still reports them (see space.run). Below it a count costs
// more than it is worth and an operation takes milliseconds at most.
var asyncTable = 1 << 18

// opHook, when set (by tests), runs on the computation's goroutine before
// each operation on a table of asyncTable slots or more, outside the
// manager's lock (so that a test can end the context in any operation).
var opHook func()

// stopGrace is how long the caller of run waits, once the context has
// ended, for the computation to notice it (after its current operation)
// before it abandons the manager; the figures after a stop (counts of
// the states reached) share it. Small tables' operations take
// milliseconds, so the computation then stops on its own and reports the
// figures of a stop; only an operation that runs on longer is abandoned.
var stopGrace = 50 * time.Millisecond

// usable stops the computation when the manager was abandoned: rudd's
// tables may be in use by an abandoned operation.
func (m *mgr) usable() {
	if m.abandoned.Load() {
		panic(&stop{reason: m.abandonReason})
	}
}

// async says whether the computations count their figures after each
// layer (the table is large and the context can end, so an operation may
// be abandoned).
func (m *mgr) async() bool {
	return !m.abandoned.Load() && m.t.size() >= asyncTable && m.ctx.Done() != nil
}

// op runs one rudd operation f, outside the manager's lock when the
// computation is guarded (see space.run).
func (m *mgr) op(f func() Node) Node {
	m.usable()
	if !m.guarded {
		return f()
	}
	var r Node
	m.outside(func() {
		if opHook != nil && m.t.size() >= asyncTable {
			opHook()
		}
		r = f()
	})
	return r
}

// outside runs the rudd call f without the manager's lock, so that the
// caller of run can abandon the manager while f runs; when it did, the
// computation stops as soon as f returns, before it touches anything else.
func (m *mgr) outside(f func()) {
	if !m.guarded {
		f()
		return
	}
	m.mu.Unlock()
	func() {
		defer m.mu.Lock() // also when f panics: run's goroutine unlocks
		f()
	}()
	m.usable()
}

// check validates the result of one rudd operation.
func (m *mgr) check(r Node) Node {
	if m.dead != "" {
		panic(&stop{reason: m.dead})
	}
	if m.b.Errored() {
		m.dead = "bdd error"
		panic(&stop{reason: "bdd error", err: fmt.Errorf("bdd: rudd: %s", m.b.Error())})
	}
	size := m.t.size()
	if size != m.lastTab {
		m.large.Store(size >= asyncTable)
		if size > m.lastTab {
			m.stats.Resizes++
		}
		m.lastTab = size
		m.stats.TableNodes = size
		m.stats.PeakTableNodes = max(m.stats.PeakTableNodes, size)
	}
	if size >= m.ceiling || r == nil {
		// Either rudd ran out of nodes inside the operation (the result
		// cannot be trusted, nor can the table) or it returned nothing.
		m.dead = fmt.Sprintf("node limit %d", m.budget)
		panic(&stop{reason: m.dead})
	}
	if size > m.budget {
		panic(&stop{reason: fmt.Sprintf("node limit %d", m.budget)})
	}
	m.ops++
	// The context after every operation: one operation on a large BDD
	// can take a second (a sum of two 20-bit variables under a blocked
	// order), so checking every 32nd let --timeout 1s run for 19 s, and
	// ctx.Err costs nothing beside an operation.
	if err := m.ctx.Err(); err != nil {
		panic(&stop{reason: ctxReason(m.ctx)})
	}
	if m.maxProduced > 0 && m.t.produced_() > m.maxProduced {
		panic(&stop{reason: trialLimit})
	}
	if m.workLimit > 0 && m.work() > m.workLimit {
		panic(&stop{reason: workAllowance})
	}
	// When the free slots run low, rudd will soon collect its table; run
	// Go's collector first so that the nodes held only by dead references
	// are finalized by then and can be reused instead of growing the table.
	if free := m.t.free(); free < size/8 && m.t.produced_()-m.lastGC > size/2 {
		m.collect()
	}
	return r
}

// collect runs Go's collector (and so rudd's finalizers).
func (m *mgr) collect() {
	m.outside(runtime.GC) // a full collection of a large heap takes 0.1 s: abandonable
	m.stats.GoGCs++
	m.lastGC = m.t.produced_()
}

func ctxReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout"
	}
	return "canceled"
}

// sample records heap figures (called once per iteration). Once the
// manager is abandoned it returns the last figures with the heap's.
func (m *mgr) sample() MemStats {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.stats.PeakHeap = max(m.stats.PeakHeap, ms.HeapInuse)
	if m.abandoned.Load() {
		return m.stats
	}
	m.stats.Produced = m.t.produced_()
	m.stats.RuddGCs = m.t.gcs()
	m.stats.TableNodes = m.t.size()
	return m.stats
}

// live returns the table's used slots (live and not yet collected nodes).
func (m *mgr) used() int { m.usable(); return m.t.size() - m.t.free() }

func (m *mgr) tru() Node { return m.b.True() }
func (m *mgr) fls() Node { return m.b.False() }
func (m *mgr) from(v bool) Node {
	return m.b.From(v)
}
func (m *mgr) ithvar(i int) Node  { m.usable(); return m.check(m.b.Ithvar(i)) }
func (m *mgr) nithvar(i int) Node { m.usable(); return m.check(m.b.NIthvar(i)) }
func (m *mgr) not(a Node) Node    { return m.check(m.op(func() Node { return m.b.Not(a) })) }

func (m *mgr) and(a, b Node) Node {
	if m.isFalse(a) || m.isFalse(b) {
		return m.fls()
	}
	return m.apply(a, b, rudd.OPand)
}

func (m *mgr) or(a, b Node) Node {
	if m.isTrue(a) || m.isTrue(b) {
		return m.tru()
	}
	return m.apply(a, b, rudd.OPor)
}

func (m *mgr) apply(a, b Node, o rudd.Operator) Node {
	return m.check(m.op(func() Node { return m.b.Apply(a, b, o) }))
}

func (m *mgr) xor(a, b Node) Node { return m.apply(a, b, rudd.OPxor) }
func (m *mgr) iff(a, b Node) Node { return m.apply(a, b, rudd.OPbiimp) }
func (m *mgr) imp(a, b Node) Node { return m.apply(a, b, rudd.OPimp) }
func (m *mgr) ite(c, a, b Node) Node {
	return m.check(m.op(func() Node { return m.b.Ite(c, a, b) }))
}

// diff returns a ∧ ¬b (OPless computes ¬left ∧ right; see the note on
// OPdiff above).
func (m *mgr) diff(a, b Node) Node {
	if m.isFalse(a) || m.isTrue(b) {
		return m.fls()
	}
	return m.apply(b, a, rudd.OPless)
}

func (m *mgr) orAll(ns ...Node) Node {
	r := m.fls()
	for _, n := range ns {
		r = m.or(r, n)
	}
	return r
}

// relprod returns ∃vs. a ∧ b.
func (m *mgr) relprod(a, b, vs Node) Node {
	if m.isFalse(a) || m.isFalse(b) {
		return m.fls()
	}
	return m.check(m.op(func() Node { return m.b.AndExist(vs, a, b) }))
}

func (m *mgr) replace(a Node, r rudd.Replacer) Node {
	return m.check(m.op(func() Node { return m.b.Replace(a, r) }))
}

// set returns the cube of the given BDD variables (for quantification).
func (m *mgr) set(levels []int) Node {
	if len(levels) == 0 {
		return m.tru()
	}
	m.usable()
	// rudd's Makeset conjoins the variables in the order given, each
	// conjunction walking the cube built so far when the new variable is
	// below it: ascending levels cost quadratic time (0.5 s for 2,000
	// bits, inside the manager's lock, where a timeout cannot act).
	// Descending, each step adds a node at the top. The cube is the same.
	desc := slices.Clone(levels)
	slices.Sort(desc)
	slices.Reverse(desc)
	return m.check(m.b.Makeset(desc))
}

func (m *mgr) replacer(from, to []int) rudd.Replacer {
	m.usable()
	r, err := m.b.NewReplacer(from, to)
	if err != nil {
		panic(&stop{reason: "bdd error", err: vigilerr.Internalf("bdd", "replacer: %v", err)})
	}
	return r
}

func (m *mgr) isFalse(a Node) bool  { return *a == 0 }
func (m *mgr) isTrue(a Node) bool   { return *a == 1 }
func (m *mgr) equal(a, b Node) bool { return *a == *b }

// satcount counts the satisfying assignments of a over all BDD variables.
func (m *mgr) satcount(a Node) *big.Int {
	m.usable()
	var r *big.Int
	m.outside(func() { r = m.b.Satcount(a) })
	m.check(a)
	return r
}

// size returns the number of nodes of a (constants excluded).
func (m *mgr) size(ns ...Node) int {
	m.usable()
	n := 0
	var err error
	m.outside(func() { err = m.b.Allnodes(func(id, level, low, high int) error { n++; return nil }, ns...) })
	if err != nil {
		panic(&stop{reason: "bdd error", err: fmt.Errorf("bdd: %v", err)})
	}
	return n
}

// graph is a read-only copy of the nodes below some roots, for walks that
// would otherwise call rudd once per node (evaluation, path enumeration).
type graph struct {
	level     map[int]int32
	low, high map[int]int
}

func (m *mgr) graph(ns ...Node) *graph {
	m.usable()
	g := &graph{level: map[int]int32{}, low: map[int]int{}, high: map[int]int{}}
	var err error
	m.outside(func() {
		err = m.b.Allnodes(func(id, level, low, high int) error {
			g.level[id], g.low[id], g.high[id] = int32(level), low, high
			return nil
		}, ns...)
	})
	if err != nil {
		panic(&stop{reason: "bdd error", err: fmt.Errorf("bdd: %v", err)})
	}
	return g
}

// eval follows root under the assignment bit(level).
func (g *graph) eval(root int, bit func(level int32) bool) bool {
	n := root
	for n > 1 {
		if bit(g.level[n]) {
			n = g.high[n]
		} else {
			n = g.low[n]
		}
	}
	return n == 1
}

// recoverPanic turns a *stop panic into its value. A runtime error inside
// rudd once the table has reached its ceiling (rudd goes on with invalid
// nodes then) is a node limit too; other panics go on.
func (m *mgr) recoverPanic(r any) *stop {
	if s, ok := r.(*stop); ok {
		return s
	}
	if m.dead != "" || m.t.size() >= m.ceiling {
		if m.dead == "" {
			m.dead = fmt.Sprintf("node limit %d", m.budget)
		}
		return &stop{reason: m.dead}
	}
	panic(r)
}

// attemptResult says how an attempt ended.
type attemptResult uint8

const (
	attemptDone  attemptResult = iota
	attemptNodes               // the node allowance ran out
	attemptWork                // the work allowance ran out
)

// attempt runs f with the node table allowed to grow by at most extra
// nodes, and to at most half the budget (so that an operation that
// overshoots the allowance, by at most one table growth, an eighth of the
// budget, leaves the table within the budget), and until the deadline
// (zero: none; checked after operations, so one long operation can
// overshoot it). When f runs out of either, its unfinished work is
// garbage and the computation goes on without it. Any other stop (the
// context, a dead table, an error) goes on unwinding.
func (m *mgr) attempt(extra, workLimit int, f func()) (res attemptResult) {
	m.usable()
	saved := m.budget
	if m.t.size() >= saved/2 {
		return attemptNodes
	}
	m.budget = min(saved/2, m.t.size()+extra)
	m.workLimit = workLimit
	res = attemptNodes // until f returns
	defer func() {
		m.budget, m.workLimit = saved, 0
		if res == attemptDone {
			return
		}
		r := recover()
		if s, isStop := r.(*stop); isStop && s.err == nil && m.dead == "" {
			switch {
			case s.reason == workAllowance:
				res = attemptWork
				return
			case strings.HasPrefix(s.reason, "node limit"):
				return
			}
		}
		panic(r)
	}()
	f()
	return attemptDone
}

// trial runs f and says whether it ended before rudd made extra more
// nodes (counted by rudd's produced counter: nodes made, a dead node made
// again counting again) and within the node budget. When it did not, f's
// work is garbage; the caller drops the manager. Any other stop (the
// context, an error) goes on unwinding. A trial is checked after each
// operation, so it overshoots by at most one operation.
func (m *mgr) trial(extra int, f func()) (fit bool) {
	m.usable()
	m.maxProduced = m.t.produced_() + extra
	defer func() {
		m.maxProduced = 0
		if fit {
			return
		}
		r := recover()
		if s, isStop := r.(*stop); isStop && s.err == nil && (s.reason == trialLimit || strings.HasPrefix(s.reason, "node limit")) {
			return
		}
		panic(r)
	}()
	f()
	return true
}

// trialLimit is the stop reason of a trial out of nodes.
const trialLimit = "trial allowance"

// workAllowance is the stop reason of an attempt out of work.
const workAllowance = "work allowance"

// work is the manager's measure of work done: operations plus nodes made
// (rudd's produced count). Unlike elapsed time it does not depend on the
// machine's load, so squaring's allowance (closure.go) gives the same
// rounds on a busy machine as on an idle one (up to nodes made again
// after a collection, which depends on when Go ran rudd's finalizers).
func (m *mgr) work() int {
	m.usable()
	return opWork*m.ops + m.t.produced_()
}

// opWork is an operation's work beside the nodes it makes: its fixed
// cost (the manager's checks, rudd's caches) is that of making a few
// nodes. Measured on the squaring rows of FIGURES.md, 1 to 16 give the
// same rounds within 2x (session 19).
const opWork = 8

// relax lets a stopped computation finish its figures (counts, sizes):
// the budget rises to the ceiling and the context no longer stops
// operations. A table that can no longer be trusted stays dead.
func (m *mgr) relax() {
	if m.abandoned.Load() {
		return // the abandoned computation may still unwind through attempt
	}
	m.budget = m.ceiling - 1
	m.ctx = context.Background()
}
