package cert

// Design note. An invariant certificate is a set R of states (the entries).
// checkInvariant indexes R by key, enumerates the property's start states
// itself (depth-first over the variables' ranges, narrowed by the start
// condition's own bounds (startbox.go), in declaration order,
// testing each top-level conjunct of the start condition as soon as the
// last variable it reads is assigned: nothing of the explicit engine's
// propagation is used), and checks
//
//	init:        every start state is in R
//	closure:     every successor of a state of R under the policy is in R
//	safety:      no state of R is unsafe, and no successor leaves a range
//
// so R over-approximates the reachable states and none is unsafe. Goal
// states, deadlocks and states where the policy chooses nothing are
// terminal, as in vigil verify: they need no successors in R.

import (
	"errors"
	"fmt"
	"strings"

	"vigil/symbolic"
)

// MaxStartWork bounds the partial assignments checkInvariant visits while
// enumerating the start states; a start condition that leaves more is
// not enumerated for hours: Check returns an error for which
// IsTooMuchStartWork holds, a limit of the checker's, no verdict on the
// certificate.
var MaxStartWork = 1 << 31

var errTooMuchStartWork = errors.New("too many start states to enumerate")

// IsTooMuchStartWork reports whether err is Check's refusal to enumerate
// more than MaxStartWork partial start states: the certificate is
// neither valid nor invalid.
func IsTooMuchStartWork(err error) bool { return errors.Is(err, errTooMuchStartWork) }

// showBox prints the box lo .. hi as "x in 3..4, y in 0..7".
func (ch *checker) showBox(lo, hi []int) string {
	var b strings.Builder
	for i, v := range ch.m.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s in %d..%d", v.Name, lo[i], hi[i])
	}
	return b.String()
}

// checkInvariant checks an invariant certificate; it returns the number of
// start states it enumerated.
func (ch *checker) checkInvariant(c *Certificate) (int, error) {
	in := make(map[string]bool, len(c.Entries))
	for _, e := range c.Entries {
		in[key(e.S)] = true
	}
	ch.states = len(in)

	starts := 0
	var bad error
	err := ch.starts(func(s []int) bool {
		starts++
		if !in[key(s)] {
			bad = errorf("the start state %s is not in the invariant", ch.show(s))
			return false
		}
		return true
	})
	if err != nil {
		return starts, err
	}
	if bad != nil {
		return starts, bad
	}

	for i, e := range c.Entries {
		at := func(format string, args ...any) error {
			return errorf("entries[%d] (%s): %s", i, ch.show(e.S), fmt.Sprintf(format, args...))
		}
		switch ch.classify(e.S) {
		case unsafe:
			return starts, at("the state is unsafe")
		case goal, deadlock:
			continue
		}
		app := ch.applicable(e.S)
		var labels []symbolic.LabelID
		if ch.pi != nil {
			l, err := symbolic.Decide(ch.pi, e.S, func(l symbolic.LabelID) bool { return l >= 0 && int(l) < len(app) && app[l] }, nil)
			if err != nil {
				return starts, at("policy %s: %v", ch.piName, err)
			}
			if l != symbolic.NoLabel {
				labels = append(labels, l)
			}
		} else {
			for a, ok := range app {
				if ok {
					labels = append(labels, symbolic.LabelID(a))
				}
			}
		}
		for _, a := range labels {
			next, err := ch.succ(e.S, a)
			if err != nil {
				return starts, at("%v", err)
			}
			for _, t := range next {
				if ch.classify(t) == unsafe {
					return starts, at("label %s may lead to the unsafe state %s", ch.m.Labels[a].Name, ch.show(t))
				}
				if !in[key(t)] {
					return starts, at("label %s may lead to %s, which is not in the invariant", ch.m.Labels[a].Name, ch.show(t))
				}
			}
		}
	}
	return starts, nil
}

// starts calls f with every start state of the property (the variables'
// initial values when it has no start condition) until f returns false.
func (ch *checker) starts(f func(s []int) bool) error {
	m := ch.m
	if ch.prop.Start == nil {
		s := make([]int, len(m.Vars))
		for i, v := range m.Vars {
			if !v.HasInit {
				return errorf("variable %s has no initial value and property %s no start condition", v.Name, ch.prop.Name)
			}
			s[i] = v.Init
		}
		if err := ch.inRange(s); err != nil {
			return errorf("the initial state: %v", err)
		}
		f(s)
		return nil
	}
	// Each conjunct is tested at the level of the last variable it reads.
	var flat func(c *symbolic.Cond, out []*symbolic.Cond) []*symbolic.Cond
	flat = func(c *symbolic.Cond, out []*symbolic.Cond) []*symbolic.Cond {
		if c.Op == symbolic.CAnd {
			for _, a := range c.Args {
				out = flat(a, out)
			}
			return out
		}
		return append(out, c)
	}
	at := make([][]*symbolic.Cond, len(m.Vars)+1) // at[0]: read no variable
	for _, c := range flat(ch.prop.Start, nil) {
		last := -1
		c.Vars(func(v symbolic.VarID) { last = max(last, int(v)) })
		at[last+1] = append(at[last+1], c)
	}
	s := make([]int, len(m.Vars))
	for _, c := range at[0] {
		if !c.Holds(s) {
			return nil
		}
	}
	// The variables' ranges narrowed by the start condition (startbox.go):
	// values outside lo .. hi satisfy no conjunct set, so they hold no
	// start state.
	lo, hi, some := startBox(m, ch.prop.Start)
	if !some {
		return nil
	}
	work, stop := 0, false
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(m.Vars) {
			if !f(append([]int(nil), s...)) {
				stop = true
			}
			return nil
		}
		for x := lo[i]; !stop; x++ {
			if work++; work > MaxStartWork {
				return &Error{Msg: fmt.Sprintf("the start condition of property %s leaves more than %d partial states to enumerate (ranges narrowed by it to %s); the checker does not enumerate start sets this large", ch.prop.Name, MaxStartWork, ch.showBox(lo, hi)), Err: errTooMuchStartWork}
			}
			s[i] = x
			ok := true
			for _, c := range at[i+1] {
				if !c.Holds(s) {
					ok = false
					break
				}
			}
			if ok {
				if err := rec(i + 1); err != nil {
					return err
				}
			}
			if x == hi[i] { // x++ past hi could leave int64
				break
			}
		}
		s[i] = 0
		return nil
	}
	return rec(0)
}
