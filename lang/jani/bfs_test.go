package jani

import (
	"fmt"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// reachable counts the states reachable from the initial state: every
// outcome of every applicable command, no terminal states. It stops with an
// error at the first range violation or when more than limit states are seen.
// This is a test oracle, independent of the explicit-state engine.
func reachable(m *symbolic.Model, limit int) (int, error) {
	init, err := m.InitialState()
	if err != nil {
		return 0, err
	}
	key := func(s symbolic.State) string {
		var b strings.Builder
		for _, v := range s {
			b.WriteString(strconv.Itoa(v))
			b.WriteByte(',')
		}
		return b.String()
	}
	seen := map[string]bool{key(init): true}
	queue := []symbolic.State{init}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for ci := range m.Commands {
			c := &m.Commands[ci]
			if !c.Guard.Holds(s) {
				continue
			}
			for _, o := range c.Outcomes {
				t := append(symbolic.State(nil), s...)
				for _, a := range o.Assigns {
					t[a.Var] = a.Value.Eval(s)
				}
				if v := m.InRange(t); v >= 0 {
					return 0, fmt.Errorf("%s: %s leaves its range (%d) from %s", c.Pos, m.Vars[v].Name, t[v], m.FormatState(s))
				}
				k := key(t)
				if !seen[k] {
					seen[k] = true
					if len(seen) > limit {
						return 0, fmt.Errorf("more than %d states", limit)
					}
					queue = append(queue, t)
				}
			}
		}
	}
	return len(seen), nil
}
