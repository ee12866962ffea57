package prob

import (
	"encoding/csv"
	"fmt"
	"io"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Queries returns the queries vigil prob computes for a property: the
// JANI query of a property read from a JANI model (PropertyQuery), else
// Pmax and Pmin of reaching its unsafe states and, when it has a goal, of
// reaching the goal (avoiding the unsafe states until then, unless they
// are none).
func Queries(p *symbolic.Property) ([]Query, error) {
	if p.Query != nil {
		q, err := PropertyQuery(p)
		if err != nil {
			return nil, err
		}
		return []Query{q}, nil
	}
	var qs []Query
	for _, t := range []explicit.Status{explicit.Unsafe, explicit.Goal} {
		if t == explicit.Goal && p.Goal == nil {
			continue
		}
		for _, max := range []bool{true, false} {
			qs = append(qs, Query{Name: p.Name, Target: t, Max: max, Until: t == explicit.Goal && p.Unsafe.Op != symbolic.CFalse})
		}
	}
	return qs, nil
}

// WriteScheduler writes the scheduler of r as a table policy (CSV): a
// header of the variables' names and "label", then one row per state
// with a choice, its values and the label the scheduler takes.
func WriteScheduler(w io.Writer, pm *Model, r *Result) error {
	m := pm.G.M
	cw := csv.NewWriter(w)
	head := make([]string, 0, len(m.Vars)+1)
	for _, v := range m.Vars {
		head = append(head, v.Name)
	}
	cw.Write(append(head, "label"))
	labels := pm.Schedule(r)
	row := make([]string, len(m.Vars)+1)
	for s, l := range labels {
		if l == symbolic.NoLabel {
			continue
		}
		st := pm.StateOf(uint32(s))
		for i, v := range st {
			row[i] = fmt.Sprint(v)
		}
		row[len(m.Vars)] = m.Labels[l].Name
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// OpenChoices returns the states (ids, ascending) where the scheduler of r
// takes a command whose label has another command with a choice in the
// same state. A table policy names labels, not commands: there it leaves
// the choice between the label's commands open (every one of them may be
// taken, lang/spec.md, "Semantics"), so the table WriteScheduler writes
// need not attain r's value, and vigil verify may find it unsafe although
// Pmin(F unsafe) is 0.
func OpenChoices(pm *Model, r *Result) []uint32 {
	var open []uint32
	for s, c := range r.Sched {
		if c < 0 {
			continue
		}
		from, to := pm.Choices(uint32(s))
		for o := from; o < to; o++ {
			if int32(o) != c && pm.Label[o] == pm.Label[c] && pm.Cmd[o] != pm.Cmd[c] {
				open = append(open, uint32(s))
				break
			}
		}
	}
	return open
}
