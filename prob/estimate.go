package prob

import (
	"math"

	"vigil/symbolic/explicit"
)

// Estimate bounds, before Build runs, the memory the model will hold: at
// most Bound states (the product of the variables' ranges, or
// Options.MaxStates when smaller), each at most BytesPerState bytes (its
// packed words in the store and the store's hash table at its lowest
// load, its status and row index, and at most MaxChoices choices of at
// most MaxEntries entries each, as Model.Bytes counts them). The product
// of ranges is usually far above the reachable states, so Bytes is an
// upper bound for deciding whether to start, not a forecast; Build's
// Progress reports the measured figure as it goes.
type Estimate struct {
	Log2Bound     float64 // log2 of the state bound
	Bound         float64 // the state bound (+Inf beyond float64)
	MaxChoices    int     // choices per state: commands of one label under a policy, all commands without
	MaxEntries    int     // entries per choice: the most outcomes of a command
	BytesPerState float64
	Bytes         float64 // Bound * BytesPerState
}

// EstimateMemory computes the Estimate of Build(ctx, g, opt) from g's
// variables and commands alone (no state is expanded).
func EstimateMemory(g *explicit.Generator, opt Options) Estimate {
	var e Estimate
	for _, v := range g.M.Vars {
		e.Log2Bound += math.Log2(float64(v.Hi) - float64(v.Lo) + 1)
	}
	if opt.MaxStates > 0 && float64(opt.MaxStates) < math.Exp2(e.Log2Bound) {
		e.Log2Bound = math.Log2(float64(opt.MaxStates))
	}
	e.Bound = math.Exp2(e.Log2Bound)
	perLabel := make([]int, len(g.M.Labels))
	for _, c := range g.M.Commands {
		if int(c.Label) >= 0 && int(c.Label) < len(perLabel) {
			perLabel[c.Label]++
		}
		e.MaxEntries = max(e.MaxEntries, len(c.Outcomes))
	}
	if opt.Policy != nil {
		for _, n := range perLabel {
			e.MaxChoices = max(e.MaxChoices, n)
		}
	} else {
		e.MaxChoices = len(g.M.Commands)
	}
	// The store: W words, and a table slot of 8 bytes in a table that
	// doubles beyond 75% load, so at least 3/8 full: at most 8/(3/8)
	// bytes per state. (Slices that grow by append may hold up to twice
	// their length; like Model.Bytes, the estimate counts the length.)
	perState := 8*float64(g.L.W) + 8/(3.0/8) + 1 + 4 // + status, row start
	if opt.Policy != nil {
		perState += 4 // the chosen label
	}
	perEntry := 12.0 // successor and float64 probability
	if opt.Exact {
		perEntry += 64 // a rational
	}
	perState += float64(e.MaxChoices) * (8 + 4 + float64(e.MaxEntries)*perEntry)
	e.BytesPerState = perState
	e.Bytes = e.Bound * perState
	return e
}
