package prob

// Blame: the probabilistic counterpart of fault analysis. Given the MDP
// of a model (all labels) and a policy, the policy's chain is the MDP with
// every state restricted to the commands of the label the policy takes
// there (where that label has several commands, the choice among them
// stays open and is resolved against safety: Pmax). A decision's cost is
// how much the probability of reaching an unsafe state from the start
// states drops when the policy takes, in that one state (at every visit),
// the label that looks best one step ahead: the label a minimising
// Q(s, a), the probability of reaching an unsafe state by taking a and
// following the policy afterwards. Candidates are the states the policy
// visits where some label has a smaller Q than the policy's; the most
// promising (largest Q gap) are re-solved, one chain each, and kept when
// the bounds prove a drop.

import (
	"context"
	"math"
	"math/big"
	"sort"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Decision is one costly decision of a policy.
type Decision struct {
	State         uint32
	Label, Better symbolic.LabelID
	// Gap is Q(s, policy's label) - Q(s, Better): the one-step estimate.
	Gap float64
	// Before and After are Pr(reach unsafe) from the start states (the
	// largest over them, and the average) with the policy, and with the
	// policy changed in State to take Better.
	BeforeMax, AfterMax float64
	BeforeAvg, AfterAvg float64
}

// BlameOptions configure Blame.
type BlameOptions struct {
	Candidates int // states re-solved exactly (0: 100)
	Top        int // decisions returned (0: 10)
	Solve      SolveOptions
}

// Blame ranks the decisions of policy dec on mdp (built without a policy)
// by how much changing each alone lowers the probability of reaching an
// unsafe state from the start states, largest drop (by the average over
// the start states) first.
func Blame(ctx context.Context, mdp *Model, dec explicit.Decider, opt BlameOptions) ([]Decision, error) {
	if opt.Candidates == 0 {
		opt.Candidates = 100
	}
	if opt.Top == 0 {
		opt.Top = 10
	}
	opt.Solve.Max = true
	n := mdp.NumStates()
	g := mdp.G
	// The policy's label in every state.
	pol := make([]symbolic.LabelID, n)
	s := make(symbolic.State, len(g.M.Vars))
	x := &explicit.Expansion{}
	for id := 0; id < n; id++ {
		pol[id] = symbolic.NoLabel
		if mdp.RowStart[id+1] == mdp.RowStart[id] {
			continue
		}
		mdp.G.L.Unpack(mdp.Store.Get(uint32(id)), s)
		g.Applicable(s, x)
		l, err := dec.Decide(s, x.App)
		if err != nil {
			return nil, err
		}
		pol[id] = l
	}
	unsafe := mdp.Target(explicit.Unsafe)
	solve := func(labels []symbolic.LabelID) (*Result, *Model, error) {
		chain := mdp.restrict(func(st uint32, c uint32) bool { return mdp.Label[c] == labels[st] })
		r, err := Solve(ctx, chain, unsafe, opt.Solve)
		return r, chain, err
	}
	base, chain, err := solve(pol)
	if err != nil {
		return nil, err
	}
	// startValues returns the largest and the average value over the start
	// states, and the average of the lower and of the upper bounds.
	startValues := func(r *Result) (mx, avg, lo, hi float64) {
		for i := 0; i < mdp.Starts; i++ {
			v := r.Value(uint32(i))
			mx = math.Max(mx, v)
			avg += v
			lo += r.Lower[i]
			hi += r.Upper[i]
		}
		k := float64(mdp.Starts)
		return mx, avg / k, lo / k, hi / k
	}
	bMax, bAvg, bLo, _ := startValues(base)
	visited := chain.reachable()
	// Q(s, a) = max over the commands of a of the expected value after
	// them, with the lower and with the upper bounds: a label is better
	// only when its upper Q is below the policy label's lower Q.
	var cands []Decision
	qlo := make([]float64, len(g.M.Labels))
	qhi := make([]float64, len(g.M.Labels))
	for id := 0; id < n; id++ {
		if !visited[id] || pol[id] == symbolic.NoLabel {
			continue
		}
		for l := range qlo {
			qlo[l], qhi[l] = math.NaN(), math.NaN()
		}
		for c := mdp.RowStart[id]; c < mdp.RowStart[id+1]; c++ {
			lo, hi := 0.0, 0.0
			for e := mdp.EntryStart[c]; e < mdp.EntryStart[c+1]; e++ {
				lo += mdp.P[e] * base.Lower[mdp.To[e]]
				hi += mdp.P[e] * base.Upper[mdp.To[e]]
			}
			if l := mdp.Label[c]; math.IsNaN(qlo[l]) || hi > qhi[l] {
				qlo[l], qhi[l] = lo, hi
			}
		}
		mine := qlo[pol[id]]
		best, bestQ := pol[id], mine
		for l, v := range qhi {
			if !math.IsNaN(v) && v < bestQ {
				best, bestQ = symbolic.LabelID(l), v
			}
		}
		if best != pol[id] {
			cands = append(cands, Decision{State: uint32(id), Label: pol[id], Better: best, Gap: mine - bestQ})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Gap > cands[j].Gap })
	if len(cands) > opt.Candidates {
		cands = cands[:opt.Candidates]
	}
	alt := append([]symbolic.LabelID(nil), pol...)
	kept := cands[:0]
	for _, d := range cands {
		alt[d.State] = d.Better
		r, _, err := solve(alt)
		alt[d.State] = pol[d.State]
		if err != nil {
			return nil, err
		}
		var aHi float64
		d.BeforeMax, d.BeforeAvg = bMax, bAvg
		d.AfterMax, d.AfterAvg, _, aHi = startValues(r)
		if aHi < bLo { // a drop the bounds prove
			kept = append(kept, d)
		}
	}
	cands = kept
	sort.SliceStable(cands, func(i, j int) bool {
		di, dj := cands[i].BeforeAvg-cands[i].AfterAvg, cands[j].BeforeAvg-cands[j].AfterAvg
		if di != dj {
			return di > dj
		}
		return cands[i].State < cands[j].State
	})
	if len(cands) > opt.Top {
		cands = cands[:opt.Top]
	}
	return cands, nil
}

// restrict returns the model with only the choices keep accepts (the
// entries are shared).
func (m *Model) restrict(keep func(s, c uint32) bool) *Model {
	r := *m
	r.RowStart = make([]uint32, 1, len(m.RowStart))
	r.Label, r.Cmd = nil, nil
	r.EntryStart = []uint32{0}
	r.To, r.P, r.Exact = nil, nil, nil
	if m.Exact != nil {
		r.Exact = []*big.Rat{}
	}
	for s := 0; s < m.NumStates(); s++ {
		for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
			if !keep(uint32(s), c) {
				continue
			}
			r.Label = append(r.Label, m.Label[c])
			r.Cmd = append(r.Cmd, m.Cmd[c])
			from, to := m.EntryStart[c], m.EntryStart[c+1]
			r.To = append(r.To, m.To[from:to]...)
			r.P = append(r.P, m.P[from:to]...)
			if m.Exact != nil {
				r.Exact = append(r.Exact, m.Exact[from:to]...)
			}
			r.EntryStart = append(r.EntryStart, uint32(len(r.To)))
		}
		r.RowStart = append(r.RowStart, uint32(len(r.Label)))
	}
	return &r
}

// reachable marks the states reachable from the start states.
func (m *Model) reachable() []bool {
	seen := make([]bool, m.NumStates())
	var stack []uint32
	for i := 0; i < m.Starts; i++ {
		seen[i] = true
		stack = append(stack, uint32(i))
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
			for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
				if t := m.To[e]; !seen[t] {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	return seen
}
