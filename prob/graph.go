package prob

// Graph precomputation. With T the target states:
//
//   - Prob0A (Pmax = 0): the states that cannot reach T at all, the
//     complement of T's backward closure.
//   - Prob1E (Pmax = 1): the greatest R such that from every state of R
//     some scheduler stays in R and reaches T: R shrinks to the states that
//     reach T by choices whose successors all lie in R, until it is stable
//     (Baier and Katoen, Algorithm 45). The choice that adds a state to the
//     last round is a scheduler attaining 1.
//   - Prob0E (Pmin = 0): the complement of the least A containing T and
//     every state (with a choice) all of whose choices may enter A; a
//     choice of a state outside A that never enters A keeps it at 0.
//   - Prob1A (Pmin = 1): the states that cannot reach Prob0E without
//     passing through T.
//
// Maximal end components (MECs) of a set of states are found by the usual
// refinement: strongly connected components of the graph of the choices
// that stay in the set, then choices that leave their component are
// dropped, and states left without choices leave the set, until nothing
// changes.

// preds is the transposed transition relation: the choices with an entry
// into state t are Choice[Start[t]:Start[t+1]].
type preds struct {
	Start  []uint32
	Choice []uint32
}

// owner returns, per choice, its state.
func (m *Model) owner() []uint32 {
	o := make([]uint32, m.NumChoices())
	for s := 0; s < m.NumStates(); s++ {
		for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
			o[c] = uint32(s)
		}
	}
	return o
}

func (m *Model) preds() preds {
	n := m.NumStates()
	p := preds{Start: make([]uint32, n+1), Choice: make([]uint32, len(m.To))}
	for _, t := range m.To {
		p.Start[t+1]++
	}
	for i := 0; i < n; i++ {
		p.Start[i+1] += p.Start[i]
	}
	fill := append([]uint32(nil), p.Start[:n]...)
	for c := 0; c < m.NumChoices(); c++ {
		for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
			t := m.To[e]
			p.Choice[fill[t]] = uint32(c)
			fill[t]++
		}
	}
	return p
}

// graph is the precomputation's working data for one model.
type graph struct {
	m     *Model
	owner []uint32
	pre   preds
}

func newGraph(m *Model) *graph { return &graph{m: m, owner: m.owner(), pre: m.preds()} }

// backward returns the states that reach a state of from through states
// allowed by through (nil: all), from included.
func (g *graph) backward(from []bool, through []bool) []bool {
	return g.backwardBy(from, func(s uint32, _ int) bool { return through == nil || through[s] })
}

// backwardBy returns the states that reach a state of from by the choices
// c of states s for which step(s, c) holds, from included.
func (g *graph) backwardBy(from []bool, step func(s uint32, c int) bool) []bool {
	in := append([]bool(nil), from...)
	var queue []uint32
	for s, ok := range from {
		if ok {
			queue = append(queue, uint32(s))
		}
	}
	for len(queue) > 0 {
		t := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, c := range g.pre.Choice[g.pre.Start[t]:g.pre.Start[t+1]] {
			s := g.owner[c]
			if !in[s] && step(s, int(c)) {
				in[s] = true
				queue = append(queue, s)
			}
		}
	}
	return in
}

// prob0A returns the states with Pmax = 0.
func (g *graph) prob0A(target []bool) []bool {
	reach := g.backward(target, nil)
	for s := range reach {
		reach[s] = !reach[s]
	}
	return reach
}

// prob1E returns the states with Pmax = 1 and, per state of that set (not
// in target), a choice of a scheduler that reaches target with probability
// 1 (-1 elsewhere). It computes the greatest fixpoint with worklists: a
// removed state (Pmax < 1) kills the choices that may enter it, a state
// whose choices are all dead is removed, and the states that cannot reach
// target by live choices are removed, until nothing changes. The last
// backward search gives the scheduler: each state takes the live choice
// by which the search found it, one step closer to target.
func (g *graph) prob1E(target []bool) ([]bool, []int32) {
	m := g.m
	n := m.NumStates()
	removed := g.prob0A(target)
	live := make([]bool, m.NumChoices())
	left := make([]int, n)
	for c := range live {
		live[c] = true
		left[g.owner[c]]++
	}
	var queue []uint32
	for s, r := range removed {
		if r {
			queue = append(queue, uint32(s))
		}
	}
	sched := make([]int32, n)
	in := make([]bool, n)
	for {
		for len(queue) > 0 {
			t := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, c := range g.pre.Choice[g.pre.Start[t]:g.pre.Start[t+1]] {
				if !live[c] {
					continue
				}
				live[c] = false
				s := g.owner[c]
				left[s]--
				if left[s] == 0 && !removed[s] && !target[s] {
					removed[s] = true
					queue = append(queue, s)
				}
			}
		}
		// Backward search from target by live choices.
		var bfs []uint32
		for s := 0; s < n; s++ {
			sched[s] = -1
			in[s] = target[s]
			if target[s] {
				bfs = append(bfs, uint32(s))
			}
		}
		for i := 0; i < len(bfs); i++ {
			t := bfs[i]
			for _, c := range g.pre.Choice[g.pre.Start[t]:g.pre.Start[t+1]] {
				s := g.owner[c]
				if live[c] && !in[s] && !removed[s] {
					in[s] = true
					sched[s] = int32(c)
					bfs = append(bfs, s)
				}
			}
		}
		for s := 0; s < n; s++ {
			if !in[s] && !removed[s] {
				removed[s] = true
				queue = append(queue, uint32(s))
			}
		}
		if len(queue) == 0 {
			return in, sched
		}
	}
}

// prob0E returns the states with Pmin = 0 and, per such state that has a
// choice, a choice that keeps it there (-1 elsewhere).
func (g *graph) prob0E(target []bool) ([]bool, []int32) {
	m := g.m
	n := m.NumStates()
	a := append([]bool(nil), target...)
	left := make([]int, n) // choices not yet known to enter a
	for s := 0; s < n; s++ {
		left[s] = int(m.RowStart[s+1] - m.RowStart[s])
	}
	hit := make([]bool, m.NumChoices())
	var queue []uint32
	for s, ok := range target {
		if ok {
			queue = append(queue, uint32(s))
		}
	}
	for len(queue) > 0 {
		t := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, c := range g.pre.Choice[g.pre.Start[t]:g.pre.Start[t+1]] {
			if hit[c] {
				continue
			}
			hit[c] = true
			s := g.owner[c]
			left[s]--
			if left[s] == 0 && !a[s] {
				a[s] = true
				queue = append(queue, s)
			}
		}
	}
	sched := make([]int32, n)
	for s := 0; s < n; s++ {
		sched[s] = -1
		a[s] = !a[s]
		if !a[s] {
			continue
		}
		for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
			if !hit[c] {
				sched[s] = int32(c)
				break
			}
		}
	}
	return a, sched
}

// prob1A returns the states with Pmin = 1, given zero = prob0E(target).
func (g *graph) prob1A(target, zero []bool) []bool {
	through := make([]bool, len(target))
	for s := range through {
		through[s] = !target[s]
	}
	r := g.backward(zero, through)
	for s := range r {
		r[s] = !r[s]
	}
	return r
}

// mecs returns the maximal end components within the states of in: per
// state its component (-1 outside every one) and the number of components.
// A choice is internal to a component when all its successors lie in it;
// internal[c] says so.
func (g *graph) mecs(in []bool) (comp []int32, count int, internal []bool) {
	return g.mecsOf(in, nil)
}

// mecsOf is mecs of the sub-model of the choices keep accepts (nil: all).
func (g *graph) mecsOf(in []bool, keep func(c uint32) bool) (comp []int32, count int, internal []bool) {
	m := g.m
	n := m.NumStates()
	cand := append([]bool(nil), in...)
	allowed := make([]bool, m.NumChoices())
	left := make([]int, n) // allowed choices per candidate
	var queue []uint32     // candidates left without a choice
	drop := func(c uint32) {
		allowed[c] = false
		s := g.owner[c]
		left[s]--
		if left[s] == 0 && cand[s] {
			cand[s] = false
			queue = append(queue, s)
		}
	}
	// settle removes the queued states and, transitively, the choices
	// that enter them and the states left without a choice.
	settle := func() {
		for len(queue) > 0 {
			t := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, c := range g.pre.Choice[g.pre.Start[t]:g.pre.Start[t+1]] {
				if allowed[c] {
					drop(c)
				}
			}
		}
	}
	for s := 0; s < n; s++ {
		if !cand[s] {
			continue
		}
		for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
			if keep == nil || keep(c) {
				allowed[c] = true
				left[s]++
			}
		}
		if left[s] == 0 {
			cand[s] = false
		}
	}
	for c := range allowed {
		if !allowed[c] {
			continue
		}
		for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
			if !cand[m.To[e]] {
				drop(uint32(c))
				break
			}
		}
	}
	settle()
	scc := make([]int32, n)
	for {
		k := g.sccs(cand, allowed, scc)
		changed := false
		for c := range allowed {
			if !allowed[c] {
				continue
			}
			s := g.owner[c]
			for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
				if scc[m.To[e]] != scc[s] {
					drop(uint32(c))
					changed = true
					break
				}
			}
		}
		settle()
		if !changed {
			comp = make([]int32, n)
			for s := range comp {
				comp[s] = -1
				if cand[s] {
					comp[s] = scc[s]
				}
			}
			// Renumber densely.
			ids := make([]int32, k)
			for i := range ids {
				ids[i] = -1
			}
			for s := range comp {
				if c := comp[s]; c >= 0 {
					if ids[c] < 0 {
						ids[c] = int32(count)
						count++
					}
					comp[s] = ids[c]
				}
			}
			return comp, count, allowed
		}
	}
}

// sccs numbers the strongly connected components of the graph on the
// states of cand whose edges are the entries of the allowed choices
// (Tarjan's algorithm, iterative). It returns the number of components.
func (g *graph) sccs(cand, allowed []bool, scc []int32) int {
	m := g.m
	n := m.NumStates()
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for s := range index {
		index[s] = -1
		scc[s] = -1
	}
	var stack []uint32
	type frame struct {
		s    uint32
		c, e uint32 // next choice and entry to look at
	}
	var call []frame
	next, count := int32(0), 0
	for root := 0; root < n; root++ {
		if !cand[root] || index[root] >= 0 {
			continue
		}
		push := func(s uint32) {
			index[s], low[s] = next, next
			next++
			stack = append(stack, s)
			on[s] = true
			c := m.RowStart[s]
			e := uint32(0)
			if c < m.RowStart[s+1] {
				e = m.EntryStart[c]
			}
			call = append(call, frame{s: s, c: c, e: e})
		}
		push(uint32(root))
		for len(call) > 0 {
			f := &call[len(call)-1]
			s := f.s
			descended := false
			for f.c < m.RowStart[s+1] {
				if !allowed[f.c] || f.e >= m.EntryStart[f.c+1] {
					f.c++
					if f.c < m.RowStart[s+1] {
						f.e = m.EntryStart[f.c]
					}
					continue
				}
				t := m.To[f.e]
				f.e++
				if !cand[t] {
					continue
				}
				if index[t] < 0 {
					push(t)
					descended = true
					break
				}
				if on[t] && index[t] < low[s] {
					low[s] = index[t]
				}
			}
			if descended {
				continue
			}
			if low[s] == index[s] {
				for {
					t := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[t] = false
					scc[t] = int32(count)
					if t == s {
						break
					}
				}
				count++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].s
				if low[s] < low[p] {
					low[p] = low[s]
				}
			}
		}
	}
	return count
}
