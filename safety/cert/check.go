package cert

// Design note. Check first matches the certificate against the model
// (names, variables, state lengths and ranges, labels), then indexes the
// entries by state — a map keyed by the state's values — so that every
// successor is looked up once: for a safe certificate the least budget of
// the state's entries, for an unsafe one the least rank among entries of at
// least a given budget. Each entry is then checked on its own against the
// conditions in the package documentation, with successors computed here
// from the commands' guards and assignments and nothing else: no decider's
// or explicit engine's code is trusted.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"vigil/smt"
	"vigil/symbolic"
)

// Report summarises a checked certificate.
type Report struct {
	Kind       Kind
	Radius     int // >= 0, or Inf
	Entries    int // entries in the file
	States     int // distinct states among the entries
	Successors int // successor states computed and checked
	Starts     int // invariant certificates: start states enumerated and found
}

func (r Report) String() string {
	return fmt.Sprintf("%s certificate, radius %s: %d entries, %d states, %d successors checked",
		r.Kind, RadiusString(r.Radius), r.Entries, r.States, r.Successors)
}

// Check reports whether c holds for model m, property prop and tested
// policy pol (pol may be nil when the radius is Inf). The error explains the
// first violation found; the Report's Kind, Radius and Entries are filled in
// even then.
func Check(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, c *Certificate) (Report, error) {
	rep := Report{Kind: c.Kind, Radius: c.Radius, Entries: len(c.Entries)}
	if err := validate(c); err != nil {
		return rep, err
	}
	ch, err := newChecker(m, prop, pol, c)
	if err != nil {
		return rep, err
	}
	switch c.Kind {
	case Safe:
		err = ch.checkSafe(c)
	case Unsafe:
		err = ch.checkUnsafe(c)
	case Invariant:
		rep.Starts, err = ch.checkInvariant(c)
	case Starts:
		rep.Starts, err = ch.checkStarts(c)
	}
	rep.States = ch.states
	rep.Successors = ch.successors
	return rep, err
}

// class is what a state is, for the certificate's semantics.
type class uint8

const (
	open     class = iota // neither terminal nor a deadlock
	unsafe                // the unsafe condition holds
	goal                  // the goal condition holds (and unsafe does not)
	deadlock              // no label is applicable
)

func (c class) String() string {
	return [...]string{"not terminal", "unsafe", "a goal", "a deadlock"}[c]
}

type checker struct {
	m      *symbolic.Model
	prop   *symbolic.Property
	pi     symbolic.Policy // nil when the radius is Inf
	piName string
	inf    bool
	radius int
	// pos maps an index into the entries being checked to its index in
	// the file (nil: the same), for messages.
	pos        []int
	cmds       [][]int // command indices by label
	states     int
	successors int
	scoped     map[string]int // checkScope: state -> largest budget taken
	errFree    bool           // checkScope: Z3 proves the model free of range errors (noRangeErrors)
}

func newChecker(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, c *Certificate) (*checker, error) {
	if prop == nil {
		return nil, errorf("no property given (the certificate is about property %q)", c.Property)
	}
	if err := m.CheckRanges(); err != nil { // Eval saturates beyond int64: no range may contain those values
		return nil, errorf("%v", err)
	}
	if c.Model != "" && c.Model != m.Name {
		return nil, errorf("the certificate is about model %q, not %q", c.Model, m.Name)
	}
	if c.Property != "" && c.Property != prop.Name {
		return nil, errorf("the certificate is about property %+q, not %+q", c.Property, prop.Name)
	}
	ch := &checker{m: m, prop: prop, inf: c.Radius == Inf, radius: c.Radius, cmds: make([][]int, len(m.Labels))}
	if !ch.inf || (c.Kind == Invariant && c.Policy != "") {
		if pol == nil && c.Kind == Invariant {
			return nil, errorf("the invariant is closed under policy %+q's choices, which is not loaded", c.Policy)
		}
		if pol == nil {
			return nil, errorf("radius %d needs the tested policy %+q", c.Radius, c.Policy)
		}
		if pol.Name != c.Policy {
			return nil, errorf("the certificate tests policy %+q, not %+q", c.Policy, pol.Name)
		}
		if c.PolicySHA256 != "" {
			h, err := symbolic.PolicyFilesHash(pol)
			if err != nil {
				return nil, errorf("%v", err)
			}
			if h != c.PolicySHA256 {
				if h == "" {
					h = "(no file)"
				}
				return nil, errorf("the certificate was made for another policy file: its policy_sha256 is %.16s..., policy %s's files hash to %s (was the network, ensemble or table retrained or replaced?)", c.PolicySHA256, pol.Name, h)
			}
		}
		pi, err := symbolic.Instantiate(m, pol)
		if err != nil {
			return nil, errorf("policy %s: %v", pol.Name, err)
		}
		ch.pi, ch.piName = pi, pol.Name
	}
	if !slices.Equal(c.Vars, varNames(m)) {
		return nil, errorf("vars [%s] do not match model %s's variables [%s] (names and order must agree)",
			strings.Join(c.Vars, " "), m.Name, strings.Join(varNames(m), " "))
	}
	for i := range m.Commands {
		l := m.Commands[i].Label
		ch.cmds[l] = append(ch.cmds[l], i)
	}
	for _, r := range c.roots() {
		if err := ch.inRange(r); err != nil {
			return nil, errorf("state %s: %v", ch.show(r), err)
		}
	}
	if c.Kind == Invariant && c.Policy == "" && pol != nil {
		return nil, errorf("the certificate is about every label (no policy), not policy %+q", pol.Name)
	}
	for i, e := range c.Entries {
		if err := ch.inRange(e.S); err != nil {
			return nil, errorf("entries[%d] (%s): %v", i, ch.show(e.S), err)
		}
		if (c.Kind == Safe || e.Label != "") && m.LabelIndex(e.Label) == symbolic.NoLabel {
			return nil, errorf("entries[%d] (%s): unknown label %+q%s", i, ch.show(e.S), e.Label, symbolic.Suggest(e.Label, labelNames(m)))
		}
	}
	return ch, nil
}

func varNames(m *symbolic.Model) []string {
	names := make([]string, len(m.Vars))
	for i, v := range m.Vars {
		names[i] = v.Name
	}
	return names
}

func labelNames(m *symbolic.Model) []string {
	names := make([]string, len(m.Labels))
	for i, l := range m.Labels {
		names[i] = l.Name
	}
	return names
}

// inRange checks a state's length and values against the model.
func (ch *checker) inRange(s []int) error {
	if len(s) != len(ch.m.Vars) {
		return fmt.Errorf("has %d values, want %d (one per variable)", len(s), len(ch.m.Vars))
	}
	for i, v := range ch.m.Vars {
		if s[i] < v.Lo || s[i] > v.Hi {
			return fmt.Errorf("%s=%d is outside its range %d..%d", v.Name, s[i], v.Lo, v.Hi)
		}
	}
	return nil
}

// show prints a state as `x=1 y=2`, or raw when it does not fit the model.
func (ch *checker) show(s []int) string {
	if ch.inRange(s) == nil {
		return ch.m.FormatState(s)
	}
	if len(s) != len(ch.m.Vars) {
		return fmt.Sprint(s)
	}
	parts := make([]string, len(s))
	for i, v := range ch.m.Vars {
		parts[i] = fmt.Sprintf("%s=%d", v.Name, s[i])
	}
	return strings.Join(parts, " ")
}

// key is a map key for a state's values (varints are prefix-free, so
// distinct states give distinct keys).
func key(s []int) string {
	b := make([]byte, 0, 2*len(s))
	for _, x := range s {
		b = binary.AppendVarint(b, int64(x))
	}
	return string(b)
}

// applicable returns, per label, whether some command of it has a true guard in s.
func (ch *checker) applicable(s []int) []bool {
	app := make([]bool, len(ch.m.Labels))
	for i := range ch.m.Commands {
		c := &ch.m.Commands[i]
		if !app[c.Label] && c.Guard.Holds(s) {
			app[c.Label] = true
		}
	}
	return app
}

// classify says whether s is unsafe, a goal, a deadlock, or open.
func (ch *checker) classify(s []int) class {
	if ch.prop.Unsafe.Holds(s) {
		return unsafe
	}
	if ch.prop.Goal != nil && ch.prop.Goal.Holds(s) {
		return goal
	}
	if !slices.Contains(ch.applicable(s), true) {
		return deadlock
	}
	return open
}

// choice returns π(s) (NoLabel when π is stuck); with radius Inf it is not
// needed and returns NoLabel.
func (ch *checker) choice(s []int, app []bool) (symbolic.LabelID, error) {
	if ch.inf {
		return symbolic.NoLabel, nil
	}
	l, err := symbolic.Decide(ch.pi, s, func(l symbolic.LabelID) bool { return l >= 0 && int(l) < len(app) && app[l] }, nil)
	if err != nil {
		return symbolic.NoLabel, fmt.Errorf("policy %s: %v", ch.piName, err)
	}
	return l, nil
}

// cost is C(s,a): 0 for radius Inf, else 1 unless π chose a.
func (ch *checker) cost(pi, a symbolic.LabelID) int {
	if ch.inf || pi == a {
		return 0
	}
	return 1
}

// describe says what π does, for messages about a deviation.
func (ch *checker) describe(pi symbolic.LabelID) string {
	if pi == symbolic.NoLabel {
		return fmt.Sprintf("policy %s is stuck", ch.piName)
	}
	return fmt.Sprintf("policy %s chooses %s", ch.piName, ch.m.Labels[pi].Name)
}

// succ returns every outcome of every command of label a whose guard holds
// in s. An outcome that leaves a variable's range is an error.
func (ch *checker) succ(s []int, a symbolic.LabelID) ([][]int, error) {
	var out [][]int
	for _, ci := range ch.cmds[a] {
		c := &ch.m.Commands[ci]
		if !c.Guard.Holds(s) {
			continue
		}
		for oi := range c.Outcomes {
			if p, bad := badFactor(&c.Outcomes[oi], s); bad {
				return nil, fmt.Errorf("label %s, command at %s, outcome %d of %d has probability %s: the model has a probability error",
					ch.m.Labels[a].Name, c.Pos, oi+1, len(c.Outcomes), p)
			}
			next := slices.Clone(s)
			for _, as := range c.Outcomes[oi].Assigns {
				next[as.Var] = as.Value.Eval(s) // right-hand sides read the old state
			}
			for vi, v := range ch.m.Vars {
				if next[vi] < v.Lo || next[vi] > v.Hi {
					return nil, fmt.Errorf("label %s, command at %s, outcome %d of %d sets %s to %d, outside its range %d..%d: the model has a range error",
						ch.m.Labels[a].Name, c.Pos, oi+1, len(c.Outcomes), v.Name, next[vi], v.Lo, v.Hi)
				}
			}
			out = append(out, next)
		}
	}
	ch.successors += len(out)
	return out, nil
}

// budget is an entry's budget as the check uses it: 0 for radius Inf.
func (ch *checker) budget(e Entry) int {
	if ch.inf {
		return 0
	}
	return e.B
}

// roots returns the states a certificate makes claims about.
func (c *Certificate) roots() [][]int {
	switch c.Kind {
	case Invariant:
		return nil
	case Starts:
		return append(append([][]int(nil), c.SafeStates...), c.UnsafeStates...)
	}
	return [][]int{c.State}
}

// checkScope checks that no range error lies in the scope of the claims
// about roots (lang/spec.md, "Range errors"): every non-terminal state
// reachable from a root with at most the radius's deviations from the
// tested policy (any number for radius inf; a deviation is a label other
// than the policy's, every label where the policy is stuck), each command
// applicable there. A range error there (or a probability error, or the
// policy failing) is the answer to the question, so no claim of safe or
// not safe about the root holds. States are taken fewest deviations first,
// each with the largest budget any path leaves it; a state taken for an
// earlier root with at least that budget is not taken again. A model that
// Z3 proves free of range and probability errors (noRangeErrors) has
// none to find.
func (ch *checker) checkScope(roots [][]int) error {
	b0 := 0
	if !ch.inf {
		b0 = min(ch.radius, BudgetCap(ch.m, ch.radius))
	}
	if ch.scoped == nil {
		ch.scoped = map[string]int{}
		ch.errFree = noRangeErrors(ch.m)
	}
	if ch.errFree {
		return nil
	}
	type item struct {
		s []int
		b int
	}
	for _, root := range roots {
		best := map[string]int{key(root): b0}
		cur, next := []item{{root, b0}}, []item(nil)
		for len(cur) > 0 {
			for i := 0; i < len(cur); i++ {
				it := cur[i]
				k := key(it.s)
				if best[k] != it.b {
					continue // met again with a larger budget
				}
				if old, ok := ch.scoped[k]; ok && old >= it.b {
					continue
				}
				ch.scoped[k] = it.b
				if ch.classify(it.s) != open {
					continue
				}
				app := ch.applicable(it.s)
				pi, err := ch.choice(it.s, app)
				if err != nil {
					return errorf("state %s, reachable from %s within the radius: %v", ch.show(it.s), ch.show(root), err)
				}
				for a, ok := range app {
					if !ok {
						continue
					}
					succ, err := ch.succ(it.s, symbolic.LabelID(a))
					if err != nil {
						return errorf("state %s, reachable from %s within the radius: %v, which is the answer for %s (neither safe nor not safe)", ch.show(it.s), ch.show(root), err, ch.show(root))
					}
					c := ch.cost(pi, symbolic.LabelID(a))
					if it.b-c < 0 {
						continue
					}
					for _, t := range succ {
						tk := key(t)
						if old, ok := best[tk]; ok && old >= it.b-c {
							continue
						}
						best[tk] = it.b - c
						if c == 0 {
							cur = append(cur, item{t, it.b})
						} else {
							next = append(next, item{t, it.b - c})
						}
					}
				}
			}
			cur, next = next, nil
		}
	}
	return nil
}

// checkSafe checks a safe certificate.
func (ch *checker) checkSafe(c *Certificate) error {
	return ch.checkSafeRoots([][]int{c.State}, c.Entries)
}

// checkSafeRoots checks that the safe entries (all of entries) are closed
// and that each root is safe by them.
func (ch *checker) checkSafeRoots(roots [][]int, entries []Entry) error {
	if err := ch.checkScope(roots); err != nil {
		return err
	}
	least := map[string]int{} // state -> least budget among its entries
	for _, e := range entries {
		k, b := key(e.S), ch.budget(e)
		if old, ok := least[k]; !ok || b < old {
			least[k] = b
		}
	}
	ch.states += len(least)

	for _, root := range roots {
		switch ch.classify(root) {
		case unsafe:
			return errorf("state %s is unsafe, so no safe certificate can be about it", ch.show(root))
		case open:
			b, ok := least[key(root)]
			if !ok {
				return errorf("state %s has no entry", ch.show(root))
			}
			if !ch.inf && b > ch.radius {
				return errorf("state %s has entries only with budget %d or more, above the radius %d", ch.show(root), b, ch.radius)
			}
		}
	}

	for i, e := range entries {
		i := ch.index(i)
		at := func(format string, args ...any) error {
			return errorf("entries[%d] (%s): %s", i, ch.show(e.S), fmt.Sprintf(format, args...))
		}
		switch ch.classify(e.S) {
		case unsafe:
			return at("the state is unsafe")
		case goal, deadlock:
			continue // terminal and safe: the entry is vacuous
		}
		a := ch.m.LabelIndex(e.Label)
		app := ch.applicable(e.S)
		if !app[a] {
			return at("label %s is not applicable", e.Label)
		}
		pi, err := ch.choice(e.S, app)
		if err != nil {
			return at("%v", err)
		}
		b := ch.budget(e) - ch.cost(pi, a)
		if b < 0 {
			return at("budget %d runs out: label %s deviates (%s)", e.B, e.Label, ch.describe(pi))
		}
		next, err := ch.succ(e.S, a)
		if err != nil {
			return at("%v", err)
		}
		for _, t := range next {
			switch ch.classify(t) {
			case unsafe:
				return at("label %s may lead to the unsafe state %s", e.Label, ch.show(t))
			case goal, deadlock:
				continue
			}
			bt, ok := least[key(t)]
			if !ok {
				return at("label %s may lead to %s, which has no entry", e.Label, ch.show(t))
			}
			if bt > b {
				return at("label %s may lead to %s with budget %d left, but its entries need budget %d or more", e.Label, ch.show(t), b, bt)
			}
		}
	}
	return nil
}

// ranked is one budget of a state in an unsafe certificate, with the least
// rank among the state's entries of at least that budget.
type ranked struct{ b, rank int }

// checkUnsafe checks an unsafe certificate.
func (ch *checker) checkUnsafe(c *Certificate) error {
	return ch.checkUnsafeRoots([][]int{c.State}, c.Entries)
}

// checkUnsafeRoots checks that the unsafe entries (all of entries) are
// well ranked and that each root is not safe by them.
func (ch *checker) checkUnsafeRoots(roots [][]int, entries []Entry) error {
	if err := ch.checkScope(roots); err != nil {
		return err
	}
	least := map[string]map[int]int{} // state -> budget -> least rank
	for _, e := range entries {
		k, b := key(e.S), ch.budget(e)
		if least[k] == nil {
			least[k] = map[int]int{}
		}
		if old, ok := least[k][b]; !ok || e.Rank < old {
			least[k][b] = e.Rank
		}
	}
	ch.states += len(least)
	index := make(map[string][]ranked, len(least))
	for k, byB := range least {
		rs := make([]ranked, 0, len(byB))
		for b, r := range byB {
			rs = append(rs, ranked{b, r})
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].b < rs[j].b })
		for i := len(rs) - 2; i >= 0; i-- { // suffix minimum: least rank at budget >= b
			rs[i].rank = min(rs[i].rank, rs[i+1].rank)
		}
		index[k] = rs
	}
	// best returns the least rank among the entries of s with budget >= b.
	best := func(s []int, b int) (int, bool) {
		rs := index[key(s)]
		i := sort.Search(len(rs), func(i int) bool { return rs[i].b >= b })
		if i == len(rs) {
			return 0, false
		}
		return rs[i].rank, true
	}

	root := 0
	if !ch.inf {
		// A state unsafe with budget n (the number of states) is unsafe
		// with any larger budget (BudgetCap).
		root = min(ch.radius, BudgetCap(ch.m, ch.radius))
	}
	for _, s := range roots {
		if _, ok := best(s, root); !ok {
			if ch.inf {
				return errorf("state %s has no entry", ch.show(s))
			}
			if root < ch.radius {
				return errorf("state %s has no entry with budget %d (the radius %d, or the model's %d states, which bound the deviations any run needs)", ch.show(s), root, ch.radius, root)
			}
			return errorf("state %s has no entry with budget %d (the radius)", ch.show(s), ch.radius)
		}
	}

	for i, e := range entries {
		i := ch.index(i)
		at := func(format string, args ...any) error {
			return errorf("entries[%d] (%s): %s", i, ch.show(e.S), fmt.Sprintf(format, args...))
		}
		cls := ch.classify(e.S)
		switch {
		case cls == unsafe:
			continue // unsafe with any rank
		case e.Rank == 0:
			return at("rank 0 claims the state is unsafe, but the unsafe condition does not hold")
		case cls == goal || cls == deadlock:
			return at("the state is %s, which is safe, yet has rank %d", cls, e.Rank)
		}
		app := ch.applicable(e.S)
		pi, err := ch.choice(e.S, app)
		if err != nil {
			return at("%v", err)
		}
		for a := range app {
			if !app[a] {
				continue
			}
			l := symbolic.LabelID(a)
			b := ch.budget(e) - ch.cost(pi, l)
			if b < 0 {
				continue // unavailable: the budget does not allow this deviation
			}
			next, err := ch.succ(e.S, l)
			if err != nil {
				return at("%v", err)
			}
			if !slices.ContainsFunc(next, func(t []int) bool {
				if ch.classify(t) == unsafe {
					return true
				}
				r, ok := best(t, b)
				return ok && r < e.Rank
			}) {
				if ch.inf {
					return at("label %s has no successor that is unsafe or has an entry with rank < %d; successors: %s",
						ch.m.Labels[a].Name, e.Rank, ch.list(next))
				}
				return at("label %s (budget %d left) has no successor that is unsafe or has an entry with budget >= %d and rank < %d; successors: %s",
					ch.m.Labels[a].Name, b, b, e.Rank, ch.list(next))
			}
		}
	}
	return nil
}

// index returns the file's index of entry i of the entries being checked.
func (ch *checker) index(i int) int {
	if ch.pos == nil {
		return i
	}
	return ch.pos[i]
}

// checkStarts checks a certificate of kind starts: its safe entries prove
// every state of SafeStates safe, its unsafe entries every state of
// UnsafeStates not safe, and each of them is a start state. It returns the
// number of start states the property has (-1 when too many to count).
func (ch *checker) checkStarts(c *Certificate) (int, error) {
	var safe, notSafe []Entry
	var safePos, notSafePos []int
	for i, e := range c.Entries {
		if e.Label != "" {
			safe, safePos = append(safe, e), append(safePos, i)
		} else {
			notSafe, notSafePos = append(notSafe, e), append(notSafePos, i)
		}
	}
	isStart := func(s []int) bool {
		if ch.prop.Start != nil {
			return ch.prop.Start.Holds(s)
		}
		for i, v := range ch.m.Vars {
			if s[i] != v.Init {
				return false
			}
		}
		return true
	}
	seen := map[string]bool{}
	for _, s := range c.roots() {
		if !isStart(s) {
			return 0, errorf("state %s is not a start state of property %s", ch.show(s), ch.prop.Name)
		}
		if seen[key(s)] {
			return 0, errorf("state %s is listed twice", ch.show(s))
		}
		seen[key(s)] = true
	}
	ch.pos = safePos
	if err := ch.checkSafeRoots(c.SafeStates, safe); err != nil {
		return 0, err
	}
	ch.pos = notSafePos
	if err := ch.checkUnsafeRoots(c.UnsafeStates, notSafe); err != nil {
		return 0, err
	}
	ch.pos = nil
	n := 0
	if err := ch.starts(func([]int) bool { n++; return true }); err != nil {
		return -1, nil
	}
	return n, nil
}

// list prints up to three states for a message.
func (ch *checker) list(ss [][]int) string {
	var parts []string
	for i, s := range ss {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ss)-3))
			break
		}
		parts = append(parts, "("+ch.show(s)+")")
	}
	return strings.Join(parts, ", ")
}

// BudgetCap returns the number of states of m (the product of its
// variables' range sizes), saturating at limit+1 (limit >= 0; at limit
// itself when limit+1 would leave int: a certificate's radius of 2^63-1
// wrapped it to -2^63, a budget cap below every entry's). It bounds
// the deviations any radius needs: a state that is r-safe for some finite
// r is n-safe for n = BudgetCap (a policy greedy on the least worst-case
// deviation count J* is memoryless and, its count being finite, never
// meets the state of one of its deviations twice along a run; paper 000,
// Theorem 1). So r-safety for r >= n is n-safety: the deciders search
// budgets up to min(r, n), and an unsafe certificate for such a radius
// proves its states unsafe with budget n.
func BudgetCap(m *symbolic.Model, limit int) int {
	if limit == math.MaxInt {
		limit-- // so that limit+1 below stays an int
	}
	n := 1
	for i := range m.Vars {
		lo, hi := m.Vars[i].Lo, m.Vars[i].Hi
		if hi < lo {
			return 0 // no states
		}
		// hi - lo + 1 may leave int64 (a range of 2^63 values or more):
		// compare before subtracting.
		if hi >= 0 && lo < 0 && hi > limit+lo {
			return limit + 1
		}
		size := hi - lo + 1
		if size <= 0 || size > limit || n > (limit+1)/size {
			return limit + 1
		}
		n *= size
		if n > limit {
			return limit + 1
		}
	}
	return n
}

// badFactor evaluates each factor of o's state-dependent probability in s
// exactly, by itself (not through the engines' Outcome.BadProb): the first
// one outside [0, 1] or dividing by zero, as text, and true; false when
// every factor is a probability.
func badFactor(o *symbolic.Outcome, s []int) (string, bool) {
	for i, f := range o.ProbFactors {
		which := ""
		if len(o.ProbFactors) > 1 {
			which = fmt.Sprintf(" (factor %d of a product over synchronised edges)", i+1)
		}
		num, den := f.Num.EvalBig(s), f.Den.EvalBig(s)
		if den.Sign() == 0 {
			return "undefined (division by zero)" + which, true
		}
		q := new(big.Rat).SetFrac(num, den)
		if q.Sign() < 0 || q.Cmp(big.NewRat(1, 1)) > 0 {
			return fmt.Sprintf("%s, outside [0, 1]%s", q.RatString(), which), true
		}
	}
	return "", false
}

// noRangeErrors reports whether Z3 proves (smt.CheckBounds, every query
// within 5 s, stopping at the first witness or undecided query) that no
// outcome of m leaves a variable's range or has a probability outside
// [0, 1] in any in-range state where its command is enabled. It is the checker's own proof, not the deciders' interval
// reasoning (safety.NoRangeErrors): false (search the scope) whenever Z3
// finds a witness, leaves a query undecided or stops before asking every query.
// The answer is kept per model (a loaded model is not changed), for the
// checkers of many certificates of one model.
func noRangeErrors(m *symbolic.Model) bool {
	if free, ok := errFreeModels.Load(m); ok {
		return free.(bool)
	}
	res, err := smt.CheckBounds(m, smt.CheckOptions{Limits: smt.Limits{Timeout: 5 * time.Second}, First: true})
	free := err == nil && !res.Stopped && len(res.Violations) == 0 && len(res.Undecided) == 0
	errFreeModels.Store(m, free)
	return free
}

var errFreeModels sync.Map // *symbolic.Model -> bool
