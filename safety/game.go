package safety

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"vigil/safety/cert"
	"vigil/symbolic/explicit"
)

// Radius bounds how often a policy may deviate from the tested policy along
// a run (paper 000, Definition 4). Inf lifts the bound: plain safety.
type Radius int

// Inf is the unbounded radius.
const Inf Radius = -1

// MaxRadius is the largest finite radius ParseRadius accepts.
const MaxRadius = 1 << 20

// ParseRadius reads "inf" (or "infinity") or a non-negative integer.
func ParseRadius(s string) (Radius, error) {
	switch s {
	case "inf", "infinity", "∞":
		return Inf, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("radius %q: want a non-negative integer or inf", s)
	}
	if n > MaxRadius {
		return 0, fmt.Errorf("radius %q: want inf or an integer from 0 to %d", s, MaxRadius)
	}
	return Radius(n), nil
}

func (r Radius) String() string {
	if r < 0 {
		return "inf"
	}
	return strconv.Itoa(int(r))
}

// Stats counts a decider's work.
type Stats struct {
	Calls     int // Decide calls
	CacheHits int // calls answered from the caches without search
	Expanded  int // node expansions by the algorithm (re-expansions count again)
	// Scope counts the states the search of the questions' scopes for
	// range errors (checkScope) expanded before the algorithm met them:
	// where that search did the work (a stop during it, the algorithm's
	// Expanded still 0), the figures say so.
	Scope   int
	Backups int // Bellman backups (value-based deciders)
	Iters   int // outer iterations (iPI, nPI), trials (LRTDP), passes (LAO*, VI)
}

// Decider decides r-safety of states of one Space for one radius, keeping
// its caches across calls.
type Decider interface {
	Name() string
	Radius() Radius
	Space() *Space
	// Decide reports whether state id is r-safe. An error is a range
	// error of the model, a policy error, or the context's cause; what
	// was decided before stays cached.
	Decide(ctx context.Context, id uint32) (bool, error)
	Stats() Stats
	// SetProgress installs f, called every 4096 expansions with the
	// statistics so far (for a progress line).
	SetProgress(f func(Stats))
	facts() *facts
	searched() Radius
}

const noYes = math.MaxInt32

// proof records that (state, budget) is not budget-safe: every label
// available with that budget has an outcome that is unsafe or was proven
// not safe earlier (with the remaining budget). A proof's index in
// facts.proofs is its time: index+1 is its rank in unsafe certificates.
// (A separate time field, always index+1, took 4 of 12 bytes a proof.)
type proof struct {
	b    int32
	next int32 // next proof of the same state, -1 ends
}

// facts are the sound results a decider has established: for each state the
// smallest budget with which it is known safe (and the group to take), and
// the proofs that it is not safe with a given budget. Budgets are 0 when the
// radius is infinite. Invariant (what certificates rely on): when yes[s] = y
// with group k, every successor s' of k is a goal, a deadlock, or has
// yes[s'] <= y - cost(s, k); yes only decreases.
type facts struct {
	yes      []int32 // noYes: not known safe
	yesGroup []uint32
	no       []int32 // largest budget known unsafe, -1: none
	head     []int32 // first proof of the state, -1: none
	proofs   []proof
	safeTime uint32 // counts the changes of yes (a search may retry what failed before)
}

func (f *facts) grow(n int) {
	for len(f.yes) < n {
		f.yes = append(f.yes, noYes)
		f.yesGroup = append(f.yesGroup, 0)
		f.no = append(f.no, -1)
		f.head = append(f.head, -1)
	}
}

func (f *facts) markSafe(s uint32, b int32, k uint32) {
	if b < f.yes[s] {
		f.yes[s], f.yesGroup[s] = b, k
		f.safeTime++
	}
}

func (f *facts) markUnsafe(s uint32, b int32) {
	if b <= f.no[s] {
		return
	}
	f.no[s] = b
	f.proofs = append(f.proofs, proof{b: b, next: f.head[s]})
	f.head[s] = int32(len(f.proofs) - 1)
}

// base holds what every decider has: the space, the radius and the facts.
type base struct {
	sp    *Space
	r     Radius // the radius searched: user, or less when that decides the same
	user  Radius // the radius asked for
	f     facts
	stats Stats
	name  string
	ticks int
	prog  func(Stats)
	held  func() int64 // the pairs the decider's records index (nil: none)
	// again counts the pairs this question's search visited again (iPI,
	// nPI; nil: none); heldWhat says what held and again count in the
	// error ("holds" when empty).
	again func() int64
	// work counts this question's expansions where they count beyond the
	// dense bound only (LRTDP; nil: none).
	work     func() int64
	heldWhat string

	sc scopeCheck
}

func newBase(sp *Space, r Radius, name string) base {
	return base{sp: sp, r: searchRadius(sp, r), user: r, name: name}
}

// MaxPairs bounds the (state, remaining budget) pairs a decider for a
// finite radius r >= 1 may hold: the pairs its records index (tarjan, ipi,
// npi and propu keep records only of the pairs they touch, see pairTable;
// a window budget counts half; Prop-U's region transitions count one
// each) plus the pairs its facts prove not safe (value iteration, LRTDP
// and LAO* prove one per increase of a state's value); iPI and nPI also
// count each pair an iteration of the question visits again (an
// iteration may mark one pair and walk many), and tarjan-path each pair
// it searches again (2^D times on the Fig. 1 family), so that their work
// on a question, not only their memory, stays within the bound. A radius of
// 10^6 on a model of 101 reachable states (among many more) reaches a
// hundred million pairs and died out of memory; such a question is
// refused with an error once the decider holds more than the bound, at
// about 2 GB (safety/FIGURES.md), but only when the states met times r+1
// exceed the bound too. Before the records followed the touched pairs,
// the bound was on states times r+1, and three million reachable states
// at radius 30 were refused before any answer, though the search reached
// each state with one budget; what that bound let through is still
// answered, with the memory it took then (records, a window budget and a
// proof for each of the pairs, up to 2^26: radius 300000 on the walker's
// 101 states, 2.2 GB for tarjan and ipi, 5.3 GB for Prop-U). Revisits
// beyond the bound are refused whatever the product.
const MaxPairs = 1 << 26

// maxPairs is MaxPairs; tests lower it.
var maxPairs int64 = MaxPairs

// searchRadius is the radius the deciders search with: r, or the number of
// the model's states when that is smaller, which decides the same
// (cert.BudgetCap). Without it a radius of 10^6 on a model of 21 states
// made every decider allocate (state, budget) pairs by the million.
func searchRadius(sp *Space, r Radius) Radius {
	if r < 0 {
		return r
	}
	return Radius(min(int(r), cert.BudgetCap(sp.G.M, int(r))))
}

func (d *base) Name() string   { return d.name }
func (d *base) Radius() Radius { return d.user }

// searched is the radius the budgets start from (see searchRadius).
func (d *base) searched() Radius { return d.r }
func (d *base) Space() *Space    { return d.sp }
func (d *base) Stats() Stats     { return d.stats }

// SetProgress installs f (see Decider).
func (d *base) SetProgress(f func(Stats)) { d.prog = f }
func (d *base) facts() *facts             { return &d.f }
func (d *base) budget() int32 {
	if d.r < 0 {
		return 0
	}
	return int32(d.r)
}

// cost is the deviation cost of group k in state s: 1 when the radius is
// finite and k is not the tested policy's choice (a stuck policy makes
// every label a deviation), else 0.
func (d *base) cost(s, k uint32) int32 {
	if d.r < 0 || d.sp.PolicyGroup(s) == int32(k) {
		return 0
	}
	return 1
}

// sync sizes the facts to the space.
func (d *base) sync() { d.f.grow(d.sp.Len()) }

// expand expands s in the space, keeps the facts sized, and polls the
// context now and then.
func (d *base) expand(ctx context.Context, s uint32) error {
	d.stats.Expanded++
	if err := d.sp.Expand(s); err != nil {
		return err
	}
	if err := d.checkPairs(); err != nil {
		return err
	}
	d.sync()
	d.ticks++
	if d.ticks&1023 == 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if d.prog != nil && d.ticks&4095 == 0 {
			d.prog(d.stats)
		}
	}
	return nil
}

// checkPairs refuses to go on when the decider holds more pairs than
// maxPairs (see MaxPairs).
func (d *base) checkPairs() error {
	if d.r <= 0 {
		return nil
	}
	n := int64(len(d.f.proofs))
	if d.held != nil {
		n += d.held()
	}
	var again int64
	if d.again != nil {
		again = d.again()
	}
	// What the dense tables of states times r+1 pairs allowed (they were
	// refused beyond maxPairs) is still answered: records, windows and
	// proofs may count up to about three times the pairs touched, and
	// tarjan, ipi and propu refused radius 300000 on the walker's 101
	// states (30 million pairs), which the dense tables answered in 7-13
	// s. Beyond that, what a decider holds and revisits counts; and
	// revisits alone never pass the bound (nPI's work).
	if d.work != nil {
		n += d.work()
	}
	dense := int64(d.sp.Len()) * (int64(d.r) + 1)
	if dense > maxPairs && n+again > maxPairs || again > maxPairs {
		what := d.heldWhat
		if what == "" {
			what = "holds"
		}
		return fmt.Errorf("radius %d: the search %s more than %d (state, remaining budget) pairs (%d states so far); use a smaller radius or --radius inf",
			d.user, what, maxPairs, d.sp.Len())
	}
	return nil
}

// knownUnsafe: s is an unsafe state or proven not b-safe.
func (d *base) knownUnsafe(s uint32, b int32) bool {
	return d.sp.status[s] == explicit.Unsafe || d.f.no[s] >= b
}

// knownSafe: s is a goal, a deadlock, or proven b-safe.
func (d *base) knownSafe(s uint32, b int32) bool {
	st := d.sp.status[s]
	if st == explicit.Goal {
		return true
	}
	if st == explicit.Unsafe {
		return false
	}
	return d.f.yes[s] <= b || (d.sp.IsExpanded(s) && d.sp.Deadlock(s))
}

// settle answers a search's question about (s, b) from the terminal
// status and the facts, expanding s when they do not: done reports
// whether the answer is final (then safe tells which, or err is set).
func (d *base) settle(ctx context.Context, s uint32, b int32) (safe, done bool, err error) {
	if d.knownUnsafe(s, b) {
		return false, true, nil
	}
	if d.knownSafe(s, b) {
		return true, true, nil
	}
	if err := d.expand(ctx, s); err != nil {
		return false, true, err
	}
	if d.sp.Deadlock(s) {
		return true, true, nil
	}
	return false, false, nil
}

// query handles what every Decide does first: sizing, the scope check
// (checkScope) and the cache. It returns (answer, true, nil) when the
// caches decide, and the scope's range error when there is one.
func (d *base) query(ctx context.Context, id uint32) (bool, bool, error) {
	d.stats.Calls++
	d.sync()
	if err := d.checkScope(ctx, id); err != nil {
		return false, true, err
	}
	b := d.budget()
	if d.knownUnsafe(id, b) {
		d.stats.CacheHits++
		return false, true, nil
	}
	if d.knownSafe(id, b) {
		d.stats.CacheHits++
		return true, true, nil
	}
	return false, false, nil
}

// scopeCheck is checkScope's memory: per state, 1 + the largest budget
// with which its scope is known clean (0: none), and the stamp and budget
// of the current question's search (12 bytes a state registered, no
// pairs: the bound of MaxPairs does not count it); the layers are reused.
type scopeCheck struct {
	clean     []int32
	at        []uint32
	b         []int32
	epoch     uint32
	cur, next []uint32
	taken     []uint32
}

// checkScope enforces the rule of lang/spec.md, "Range errors": the
// question "is id r-safe" has for scope every non-terminal state reachable
// from id with at most r deviations from the tested policy (any number for
// r = inf; a deviation is a label other than the policy's, every label
// where the policy is stuck), and the range error (or probability error,
// or policy error) of a command applicable in a state of the scope is the
// answer, whatever the decider would explore. The scope is searched before
// the decider searches, in layers: fewest deviations first (so each state
// is taken once, with the largest budget any path leaves it), and within a
// number of deviations breadth first by steps, each layer in the order its
// states were met; the first state whose expansion fails gives the error.
// So every decider reports the same error for the same sequence of
// questions (propu-bdd's explicit pass, bdd.Safety.explicitRegionError,
// takes the states in the same order at radius 0 and inf). A model that interval reasoning
// proves free of range errors (Space.rangeErrorFree, once per space) has
// no scope to search. A scope found clean is
// remembered per state with its budget (the scope of (s, b) contains that
// of (s, b') for b' <= b), and a later search does not enter a state
// whose scope is known clean with the budget it brings. A stop or an
// error leaves nothing remembered but the expansions.
func (d *base) checkScope(ctx context.Context, id uint32) error {
	sc := &d.sc
	b0 := d.budget()
	if d.sp.rangeErrorFree() || d.scopeClean(id) >= b0 {
		return nil
	}
	sc.epoch++
	if sc.epoch == 0 { // wrapped: old stamps could match
		clear(sc.at)
		sc.epoch = 1
	}
	d.scopeGrow()
	sc.cur, sc.next, sc.taken = append(sc.cur[:0], id), sc.next[:0], sc.taken[:0]
	sc.at[id], sc.b[id] = sc.epoch, b0
	for b := b0; len(sc.cur) > 0; b-- {
		for i := 0; i < len(sc.cur); i++ {
			s := sc.cur[i]
			if sc.b[s] != b {
				continue // met again with a larger budget, taken then
			}
			sc.taken = append(sc.taken, s)
			if d.sp.status[s] != explicit.Open || d.scopeClean(s) >= b {
				continue
			}
			fresh := !d.sp.IsExpanded(s)
			if err := d.sp.Expand(s); err != nil {
				return err
			}
			if fresh {
				d.stats.Scope++
			}
			d.ticks++
			if d.ticks&1023 == 0 {
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				if d.prog != nil && d.ticks&4095 == 0 {
					d.prog(d.stats)
				}
			}
			d.scopeGrow()
			first, end := d.sp.Groups(s)
			for k := first; k < end; k++ {
				c := d.cost(s, k)
				if c > b {
					continue
				}
				for _, t := range d.sp.Succ(k) {
					if sc.at[t] == sc.epoch && sc.b[t] >= b-c {
						continue
					}
					sc.at[t], sc.b[t] = sc.epoch, b-c
					if c == 0 {
						sc.cur = append(sc.cur, t)
					} else {
						sc.next = append(sc.next, t)
					}
				}
			}
		}
		sc.cur, sc.next = sc.next, sc.cur[:0]
	}
	for _, s := range sc.taken {
		sc.clean[s] = max(sc.clean[s], sc.b[s]+1)
	}
	d.sync()
	return nil
}

// scopeClean is the largest budget with which the scope of s is known
// clean, -1 when none.
func (d *base) scopeClean(s uint32) int32 {
	if int(s) >= len(d.sc.clean) {
		return -1
	}
	return d.sc.clean[s] - 1
}

// scopeGrow sizes checkScope's tables to the space.
func (d *base) scopeGrow() {
	sc := &d.sc
	n := d.sp.Len()
	if len(sc.clean) >= n {
		return
	}
	m := max(n, len(sc.clean)+len(sc.clean)/2)
	sc.clean = append(sc.clean, make([]int32, m-len(sc.clean))...)
	sc.b = append(sc.b, make([]int32, m-len(sc.b))...)
	sc.at = growU32(sc.at, m)
}

// Algorithms lists the deciders New makes.
var Algorithms = []string{"tarjan", "ipi", "npi", "propu", "vi", "lrtdp", "lao", "tarjan-path"}

// Order is iPI's action order (paper 002, section 3.3).
type Order uint8

const (
	OrderApp   Order = iota // the model's label order
	OrderLearn              // the tested policy's label first, then the model's order
	OrderRand               // a seeded random order per state
)

// ParseOrder reads app, learn or rand.
func ParseOrder(s string) (Order, error) {
	switch s {
	case "app":
		return OrderApp, nil
	case "learn":
		return OrderLearn, nil
	case "rand":
		return OrderRand, nil
	}
	return 0, fmt.Errorf("action order %q: want app, learn or rand", s)
}

func (o Order) String() string { return [...]string{"app", "learn", "rand"}[o] }

// Options configure New.
type Options struct {
	Order Order  // iPI's and nPI's action order
	Seed  uint64 // for OrderRand and LRTDP's outcome sampling
}

// New makes the decider algo (one of Algorithms) over sp for radius r.
func New(algo string, sp *Space, r Radius, opt Options) (Decider, error) {
	switch algo {
	case "tarjan":
		return NewTarjan(sp, r), nil
	case "tarjan-path":
		return NewTarjanPath(sp, r), nil
	case "ipi":
		return NewIPI(sp, r, opt), nil
	case "npi":
		return NewNPI(sp, r, opt), nil
	case "propu":
		return NewPropU(sp, r), nil
	case "vi":
		return NewVI(sp, r), nil
	case "lrtdp":
		return NewLRTDP(sp, r, opt), nil
	case "lao":
		return NewLAO(sp, r), nil
	}
	return nil, fmt.Errorf("unknown algorithm %q: want one of tarjan, ipi, npi, propu, vi, lrtdp, lao, tarjan-path", algo)
}
