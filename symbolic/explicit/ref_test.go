package explicit_test

import (
	"errors"
	"fmt"

	"vigil/symbolic"
)

// ref is a deliberately simple reference interpreter: plain []int states,
// Go maps keyed by the formatted state, the IR's own Eval/Holds, the full
// product of ranges for start states, and policies through
// symbolic.Instantiate and symbolic.Decide. It is slow and obviously right;
// the packed engine must agree with it.
type ref struct {
	m      *symbolic.Model
	p      *symbolic.Property
	policy symbolic.Policy // nil: all labels
}

var errRefRange = errors.New("ref: range error")

func key(s symbolic.State) string { return fmt.Sprint([]int(s)) }

func (r *ref) starts() []symbolic.State {
	if r.p.Start == nil {
		s, err := r.m.InitialState()
		if err != nil {
			return nil
		}
		return []symbolic.State{s}
	}
	var out []symbolic.State
	s := make(symbolic.State, len(r.m.Vars))
	var rec func(i int)
	rec = func(i int) {
		if i == len(s) {
			if r.p.Start.Holds(s) {
				out = append(out, append(symbolic.State(nil), s...))
			}
			return
		}
		v := &r.m.Vars[i]
		if v.Size() > 1<<20 { // a pinned padding variable (see pad)
			s[i] = v.Init
			rec(i + 1)
			return
		}
		for x := v.Lo; x <= v.Hi; x++ {
			s[i] = x
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

func (r *ref) status(s symbolic.State) string {
	if r.p.Unsafe.Holds(s) {
		return "unsafe"
	}
	if r.p.Goal != nil && r.p.Goal.Holds(s) {
		return "goal"
	}
	return ""
}

// labels returns the labels to follow in s ("" status only), and whether
// some label is applicable at all.
func (r *ref) labels(s symbolic.State) (ls []symbolic.LabelID, anyApp bool) {
	app := make([]bool, len(r.m.Labels))
	r.m.Applicable(s, app)
	for l, ok := range app {
		if ok {
			anyApp = true
			if r.policy == nil {
				ls = append(ls, symbolic.LabelID(l))
			}
		}
	}
	if r.policy != nil && anyApp {
		l, err := symbolic.Decide(r.policy, s, func(l symbolic.LabelID) bool { return app[l] }, nil)
		if err == nil && l != symbolic.NoLabel {
			ls = []symbolic.LabelID{l}
		}
	}
	return ls, anyApp
}

// succ returns the distinct successors of label l.
func (r *ref) succ(s symbolic.State, l symbolic.LabelID) ([]symbolic.State, error) {
	seen := map[string]bool{}
	var out []symbolic.State
	for _, c := range r.m.Commands {
		if c.Label != l || !c.Guard.Holds(s) {
			continue
		}
		for _, o := range c.Outcomes {
			t := append(symbolic.State(nil), s...)
			for _, a := range o.Assigns {
				t[a.Var] = a.Value.Eval(s)
			}
			if r.m.InRange(t) >= 0 {
				return nil, errRefRange
			}
			if k := key(t); !seen[k] {
				seen[k] = true
				out = append(out, t)
			}
		}
	}
	return out, nil
}

type refResult struct {
	states, transitions, depth     int
	unsafe, goal, deadlocks, stuck int
	reached                        map[string]bool
	firstUnsafeDepth               int // -1 if none
}

// explore runs BFS over everything reachable.
func (r *ref) explore() (*refResult, error) {
	res := &refResult{reached: map[string]bool{}, firstUnsafeDepth: -1}
	depth := map[string]int{}
	var queue []symbolic.State
	for _, s := range r.starts() {
		if k := key(s); !res.reached[k] {
			res.reached[k] = true
			depth[k] = 0
			queue = append(queue, s)
		}
	}
	if len(queue) == 0 {
		return nil, errors.New("ref: no start state")
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d := depth[key(s)]
		res.depth = max(res.depth, d)
		switch r.status(s) {
		case "unsafe":
			res.unsafe++
			if res.firstUnsafeDepth < 0 {
				res.firstUnsafeDepth = d
			}
			continue
		case "goal":
			res.goal++
			continue
		}
		ls, anyApp := r.labels(s)
		if !anyApp {
			res.deadlocks++
			continue
		}
		if len(ls) == 0 {
			res.stuck++
			continue
		}
		for _, l := range ls {
			ts, err := r.succ(s, l)
			if err != nil {
				return nil, err
			}
			res.transitions += len(ts)
			for _, t := range ts {
				if k := key(t); !res.reached[k] {
					res.reached[k] = true
					depth[k] = d + 1
					queue = append(queue, t)
				}
			}
		}
	}
	res.states = len(res.reached)
	return res, nil
}
