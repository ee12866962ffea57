package safety

import (
	"context"
	"fmt"
	"slices"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Fault is a decision of the tested policy that leaves the (r-)safe region
// (paper 000, Definition 3): the state is r-safe, but the policy's label
// has an outcome that is not.
type Fault struct {
	Step    int              // index of the state in the run
	State   uint32           // the state
	Label   symbolic.LabelID // the policy's label
	Outcome uint32           // an outcome of Label that is not r-safe (the run's next state when it is one)
	Alt     symbolic.LabelID // a label that keeps the state r-safe
}

// FaultReport is the result of fault analysis on one run.
type FaultReport struct {
	States    []uint32 // the run's states
	Safe      []bool   // per state: r-safe (valid for Done states)
	Done      int      // states analysed, counted from the end of the run
	EndUnsafe bool     // the run ends in an unsafe state
	Bugs      []int    // steps whose state is r-safe although the policy's run from it reaches an unsafe state
	Faults    []Fault  // in run order
	Decisions int      // Decide calls (run states and outcomes)
	CacheHits int      // of them, answered from the caches
}

// RunStates interns a run's states and checks that each step takes the
// tested policy's label (fault analysis is about that policy's decisions).
func RunStates(sp *Space, steps []explicit.Step) ([]uint32, error) {
	ids := make([]uint32, len(steps))
	m := sp.G.M
	for i, st := range steps {
		id, err := sp.Intern(st.State)
		if err != nil {
			return nil, fmt.Errorf("run step %d: %w", i, err)
		}
		ids[i] = id
		if i == len(steps)-1 {
			break
		}
		if err := sp.Expand(id); err != nil {
			return nil, fmt.Errorf("run step %d: %w", i, err)
		}
		if sp.Status(id) != explicit.Open {
			return nil, fmt.Errorf("run step %d: %s is %s under property %s: a run ends there", i, m.FormatState(st.State), sp.Status(id), sp.G.Prop.Name)
		}
		if sp.pol != nil {
			pg := sp.PolicyGroup(id)
			if pg < 0 {
				return nil, fmt.Errorf("run step %d: the tested policy is stuck in %s, but the run takes %s", i, m.FormatState(st.State), m.Labels[st.Label].Name)
			}
			if l := sp.Label(uint32(pg)); l != st.Label {
				return nil, fmt.Errorf("run step %d: the run takes %s in %s, but the tested policy chooses %s; was the run recorded with another policy?", i, m.Labels[st.Label].Name, m.FormatState(st.State), m.Labels[l].Name)
			}
		}
	}
	return ids, nil
}

// Faults analyses the run (state ids from RunStates) backwards with d,
// whose caches carry over from state to state (paper 000, section 7: "a
// single cache ... continuously updated"). On an error (e.g. the context
// ends) the report holds what was decided so far.
func Faults(ctx context.Context, d Decider, run []uint32) (*FaultReport, error) {
	sp := d.Space()
	n := len(run)
	rep := &FaultReport{States: run, Safe: make([]bool, n)}
	rep.EndUnsafe = n > 0 && sp.Status(run[n-1]) == explicit.Unsafe
	decide := func(id uint32) (bool, error) {
		before := d.Stats().CacheHits
		ok, err := d.Decide(ctx, id)
		rep.Decisions++
		rep.CacheHits += d.Stats().CacheHits - before
		return ok, err
	}
	var faults []Fault
	for i := n - 1; i >= 0; i-- {
		s := run[i]
		ok, err := decide(s)
		if err != nil {
			return rep, err
		}
		rep.Safe[i] = ok
		rep.Done++
		if !ok {
			continue
		}
		if i == n-1 {
			// The run ends here without reaching a terminal state (a step
			// limit, or a loop back to an earlier state, analysed there):
			// the policy's label here is a decision of the run too.
			if sp.Status(s) != explicit.Open || slices.Contains(run[:i], s) {
				continue
			}
			if err := sp.Expand(s); err != nil {
				return rep, err
			}
		} else if rep.EndUnsafe {
			rep.Bugs = append(rep.Bugs, i)
		}
		pg := sp.PolicyGroup(s)
		if pg < 0 {
			continue
		}
		bad, found := uint32(0), false
		for _, t := range sp.Succ(uint32(pg)) {
			tok, err := decide(t)
			if err != nil {
				return rep, err
			}
			if !tok && (!found || (i+1 < n && t == run[i+1])) {
				bad, found = t, true
			}
		}
		if found {
			f := d.facts()
			alt := symbolic.NoLabel
			if f.yes[s] != noYes {
				alt = sp.Label(f.yesGroup[s])
			}
			faults = append(faults, Fault{Step: i, State: s, Label: sp.Label(uint32(pg)), Outcome: bad, Alt: alt})
		}
	}
	for i := len(faults) - 1; i >= 0; i-- {
		rep.Faults = append(rep.Faults, faults[i])
	}
	for i, j := 0, len(rep.Bugs)-1; i < j; i, j = i+1, j-1 {
		rep.Bugs[i], rep.Bugs[j] = rep.Bugs[j], rep.Bugs[i]
	}
	return rep, nil
}
