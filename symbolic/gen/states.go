package gen

import "vigil/symbolic"

// EachState calls f on every state of the product of m's variable ranges
// (reusing one slice: copy it to keep it). Generated models are small
// enough for tests to check a property of all of them.
func EachState(m *symbolic.Model, f func(symbolic.State)) {
	s := make(symbolic.State, len(m.Vars))
	var rec func(i int)
	rec = func(i int) {
		if i == len(m.Vars) {
			f(s)
			return
		}
		for v := m.Vars[i].Lo; v <= m.Vars[i].Hi; v++ {
			s[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// BoxStates lists the states of the box lo..hi (lo[i] <= s[i] <= hi[i]),
// the first variable innermost: the reference that box searches and
// evaluators are tested against.
func BoxStates(lo, hi []int) []symbolic.State {
	var out []symbolic.State
	s := append(symbolic.State(nil), lo...)
	for {
		out = append(out, append(symbolic.State(nil), s...))
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return out
		}
		s[v]++
	}
}

// States lists every state of the product of m's variable ranges, in
// EachState's order, each its own slice.
func States(m *symbolic.Model) []symbolic.State {
	var out []symbolic.State
	EachState(m, func(s symbolic.State) { out = append(out, append(symbolic.State(nil), s...)) })
	return out
}
