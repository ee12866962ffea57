package explicit

import (
	"context"
	"fmt"

	"vigil/symbolic"
)

// Graph is the reachable transition system in compressed sparse row form,
// for algorithms that revisit states (safety deciders, fault analysis):
// row groups per label, as Storm stores nondeterministic models. State i
// (an id of Store) has the label groups GroupStart[i] .. GroupStart[i+1]-1;
// group k belongs to label GroupLabel[k] and has the distinct successors
// Succ[SuccStart[k] : SuccStart[k+1]], each produced by command and outcome
// Via[j]. Terminal states (Status Goal or Unsafe) have no groups; an Open
// state without groups is a deadlock or, under a policy, stuck.
type Graph struct {
	Store      *Store
	Status     []Status // per state
	GroupStart []uint32 // per state, plus a sentinel
	GroupLabel []symbolic.LabelID
	SuccStart  []uint32 // per group, plus a sentinel
	Succ       []uint32
	Via        []Succ
	Layers     []uint32 // Layers[d] is the first id of BFS depth d, plus a sentinel
}

// NumStates returns the number of states.
func (gr *Graph) NumStates() int { return len(gr.Status) }

// Groups returns the group range of state id.
func (gr *Graph) Groups(id uint32) (from, to uint32) { return gr.GroupStart[id], gr.GroupStart[id+1] }

// Successors returns the successor ids of group k.
func (gr *Graph) Successors(k uint32) []uint32 { return gr.Succ[gr.SuccStart[k]:gr.SuccStart[k+1]] }

// Transpose returns the predecessors of every state: state i's
// predecessors are pred[start[i]:start[i+1]] (with repetition when several
// labels lead to i), for backward algorithms such as Prop-U.
func (gr *Graph) Transpose() (start, pred []uint32) {
	n := gr.NumStates()
	start = make([]uint32, n+1)
	for _, t := range gr.Succ {
		start[t+1]++
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	pred = make([]uint32, len(gr.Succ))
	fill := append([]uint32(nil), start[:n]...)
	for s := 0; s < n; s++ {
		for k := gr.GroupStart[s]; k < gr.GroupStart[s+1]; k++ {
			for _, t := range gr.Successors(k) {
				pred[fill[t]] = uint32(s)
				fill[t]++
			}
		}
	}
	return start, pred
}

// BuildGraph explores breadth first from the start states like Search
// (opt.Policy restricts the labels; StopAtUnsafe is ignored) and keeps
// every transition. A state limit or cancellation is an error here: a
// partial graph would mislead the algorithms that use it.
func BuildGraph(ctx context.Context, g *Generator, opt Options) (*Graph, error) {
	st := NewStoreFor(g.L, opt.SizeHint)
	gr := &Graph{Store: st, GroupStart: []uint32{0}, SuccStart: []uint32{0}, Layers: []uint32{0}}
	buf := make([]uint64, g.L.W)
	var ierr error
	err := g.StartsContext(ctx, func(s symbolic.State) bool {
		g.L.Pack(s, buf)
		_, _, ierr = st.Intern(buf)
		return ierr == nil
	})
	if err == nil {
		err = ierr
	}
	if err != nil {
		return nil, err
	}
	var cache *Cache
	if opt.Policy != nil {
		cache = NewCache(opt.Policy)
	}
	s := make(symbolic.State, len(g.M.Vars))
	x := &Expansion{}
	layerEnd := uint32(st.Len())
	for id := uint32(0); id < uint32(st.Len()); id++ {
		if id == layerEnd {
			gr.Layers = append(gr.Layers, id)
			layerEnd = uint32(st.Len())
		}
		if id&0xffff == 0xffff && ctx.Err() != nil {
			return nil, fmt.Errorf("explicit: building the transition graph: %w", context.Cause(ctx))
		}
		src := st.Get(id)
		g.L.Unpack(src, s)
		status := g.Status(s)
		gr.Status = append(gr.Status, status)
		if status == Open {
			g.Applicable(s, x)
			labels := x.Labels
			if cache != nil && len(labels) > 0 {
				l, err := cache.Decide(id, s, x.App)
				if err != nil {
					return nil, err
				}
				labels = labels[:0:0]
				if l != symbolic.NoLabel {
					labels = []symbolic.LabelID{l}
				}
			}
			for _, l := range labels {
				if err := g.Successors(src, s, l, x); err != nil {
					return nil, err
				}
			}
			for _, grp := range x.Groups {
				gr.GroupLabel = append(gr.GroupLabel, grp.Label)
				for i := grp.From; i < grp.To; i++ {
					t, _, err := st.Intern(x.Target(i))
					if err != nil {
						return nil, err
					}
					gr.Succ = append(gr.Succ, t)
					gr.Via = append(gr.Via, x.Succs[i])
				}
				gr.SuccStart = append(gr.SuccStart, uint32(len(gr.Succ)))
			}
		}
		gr.GroupStart = append(gr.GroupStart, uint32(len(gr.GroupLabel)))
		if opt.MaxStates > 0 && st.Len() > opt.MaxStates {
			return nil, fmt.Errorf("explicit: building the transition graph: more than %d states", opt.MaxStates)
		}
	}
	gr.Layers = append(gr.Layers, uint32(st.Len()))
	return gr, nil
}
