package prob

import "slices"

// sccOrder returns the strongly connected components of the graph on the
// nodes 0 .. n-1 whose node v has the successors succ[start[v]:start[v+1]]
// (Tarjan's algorithm, iterative), each after every component it leads
// to (sinks first), flattened: component i is
// nodes[compStart[i]:compStart[i+1]], its nodes ascending. Two slices in
// all, not one per component: a model of a million states has about a
// million components.
func sccOrder(n int, start []uint32, succ []int32) (compStart []uint32, nodes []int32) {
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	nodes = make([]int32, 0, n)
	compStart = []uint32{0}
	var stack []int32
	type frame struct {
		v    int32
		next uint32
	}
	var call []frame
	counter := int32(0)
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call = append(call, frame{v: int32(root), next: start[root]})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.next < start[v+1] {
				t := succ[f.next]
				f.next++
				switch {
				case index[t] < 0:
					index[t], low[t] = counter, counter
					counter++
					stack = append(stack, t)
					on[t] = true
					call = append(call, frame{v: t, next: start[t]})
				case on[t] && index[t] < low[v]:
					low[v] = index[t]
				}
				continue
			}
			if low[v] == index[v] {
				from := len(nodes)
				for {
					t := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[t] = false
					nodes = append(nodes, t)
					if t == v {
						break
					}
				}
				slices.Sort(nodes[from:])
				compStart = append(compStart, uint32(len(nodes)))
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
		}
	}
	return compStart, nodes
}
