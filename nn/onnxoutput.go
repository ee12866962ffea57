package nn

import (
	"fmt"
	"strings"
)

// Choosing the graph output that holds the policy's scores, and reading an
// output that is the arg-max of scores.
//
// A graph with several outputs (an actor-critic exported whole, as
// Stable-Baselines3's export guide does: actions, values, log_prob) is read
// through the output a policy names (`output "actions"` in its body, or
// `vigil nn --output`): only the nodes that output depends on are lowered,
// so the critic's branch and the log-probability's gathers are never
// looked at.
//
// An output computed by ArgMax (followed only by Cast, Reshape, Squeeze,
// Unsqueeze, Flatten or Identity of the index) is read as the scores the
// ArgMax ranges over: the label of output i is chosen where score i is the
// largest, the first on ties, which is ArgMax's select_last_index 0. The
// normalisation torch's Categorical puts before it, x - ReduceLogSumExp(x)
// over the scores' axis, subtracts one value from every score; vigil's
// layers cannot express it and read it as the identity (lang/spec.md says
// so). A Softmax or LogSoftmax between them is the network's output
// function, as anywhere else.

// selectOutput returns the name of the graph output to read: output when
// given (it must be one of the graph's outputs), else the graph's only
// output.
func (g *onnxGraph) selectOutput(output string) (string, error) {
	var names []string
	for _, o := range g.outputs {
		names = append(names, fmt.Sprintf("%q %v", o.name, o.dims))
	}
	if output != "" {
		for _, o := range g.outputs {
			if o.name == output {
				return o.name, nil
			}
		}
		if len(g.outputs) == 0 {
			return "", fmt.Errorf("nn: the ONNX graph has no output, so output %q cannot be read", output)
		}
		return "", fmt.Errorf("nn: the ONNX graph has no output %q; its outputs are %s", output, strings.Join(names, ", "))
	}
	switch len(g.outputs) {
	case 1:
		return g.outputs[0].name, nil
	case 0:
		return "", fmt.Errorf("nn: the ONNX graph has no output")
	}
	return "", fmt.Errorf("nn: the ONNX graph has %d outputs (%s); say which holds the action scores (or their arg-max): `output \"NAME\"` in the policy's body, --output NAME for `vigil nn`. Or export a module that returns only those (an actor-critic's actor; for a Stable-Baselines3 checkpoint, tools/sb3_to_onnx.py does this)", len(g.outputs), strings.Join(names, ", "))
}

// producers maps each computed tensor to the index of the node computing
// it.
func (g *onnxGraph) producers() map[string]int {
	p := make(map[string]int, len(g.nodes))
	for i := range g.nodes {
		for _, o := range g.nodes[i].outs {
			if o != "" {
				p[o] = i
			}
		}
	}
	return p
}

// indexOps may follow an ArgMax on the way to the output: they change the
// index's type or shape, not its value.
var indexOps = map[string]bool{"Cast": true, "Reshape": true, "Squeeze": true, "Unsqueeze": true, "Flatten": true, "Identity": true}

// argMaxTail walks back from the output through indexOps to an ArgMax.
// It returns the ArgMax node (nil when the output is not an arg-max) and
// the tensor whose elements are the scores: the ArgMax's input, with a
// trailing x - ReduceLogSumExp(x) dropped.
func (g *onnxGraph) argMaxTail(out string, prod map[string]int) (*onnxNode, string, error) {
	t := out
	for steps := 0; steps <= len(g.nodes); steps++ {
		i, ok := prod[t]
		if !ok {
			return nil, out, nil
		}
		nd := &g.nodes[i]
		switch {
		case nd.op == "ArgMax":
			if len(nd.inputs) != 1 {
				return nil, "", fmt.Errorf("nn: %s has %d inputs; ArgMax has one", nodeWhere(i, nd), len(nd.inputs))
			}
			if nd.attrI("select_last_index", 0) != 0 {
				return nil, "", fmt.Errorf("nn: %s breaks ties by the last index (select_last_index 1); vigil's policies choose the first of equal scores: export the ArgMax with select_last_index 0 (torch.argmax does)", nodeWhere(i, nd))
			}
			return nd, g.dropLogSumExp(nd.inputs[0], prod), nil
		case indexOps[nd.op] && len(nd.inputs) > 0:
			t = nd.inputs[0]
		default:
			return nil, out, nil
		}
	}
	return nil, out, nil
}

// dropLogSumExp returns x where s is Sub(x, ReduceLogSumExp(x)) over the
// last axis with kept dimensions (torch.distributions.Categorical's
// normalisation of logits, possibly under a Softmax), else s. Through a
// Softmax or LogSoftmax the result is that op's output with its input
// rewired: the caller lowers the rewired node.
func (g *onnxGraph) dropLogSumExp(s string, prod map[string]int) string {
	i, ok := prod[s]
	if !ok {
		return s
	}
	nd := &g.nodes[i]
	if (nd.op == "Softmax" || nd.op == "LogSoftmax") && len(nd.inputs) == 1 {
		if x := g.dropLogSumExp(nd.inputs[0], prod); x != nd.inputs[0] {
			nd.inputs[0] = x
		}
		return s
	}
	if nd.op != "Sub" || len(nd.inputs) != 2 {
		return s
	}
	j, ok := prod[nd.inputs[1]]
	if !ok {
		return s
	}
	r := &g.nodes[j]
	if r.op != "ReduceLogSumExp" || len(r.inputs) < 1 || r.inputs[0] != nd.inputs[0] || r.attrI("keepdims", 1) != 1 {
		return s
	}
	axes := r.attrInts("axes")
	if len(r.inputs) > 1 && r.inputs[1] != "" { // opset 18: axes as an operand
		axes = g.constInts(r.inputs[1], prod)
	}
	if len(axes) != 1 || axes[0] != -1 {
		return s
	}
	return nd.inputs[0]
}

// cone returns the indices of the nodes that tensor t depends on, in the
// graph's order.
func (g *onnxGraph) cone(t string, prod map[string]int) []int {
	need := make([]bool, len(g.nodes))
	stack := []string{t}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, ok := prod[x]
		if !ok || need[i] {
			continue
		}
		need[i] = true
		for _, in := range g.nodes[i].inputs {
			if in != "" {
				stack = append(stack, in)
			}
		}
	}
	var out []int
	for i := range g.nodes {
		if need[i] {
			out = append(out, i)
		}
	}
	return out
}

// constInts is the value of an integer initializer or Constant node's
// tensor named t (nil when it is neither).
func (g *onnxGraph) constInts(t string, prod map[string]int) []int64 {
	var data []float64
	for i := range g.inits {
		if g.inits[i].name == t {
			data = g.inits[i].data
		}
	}
	if i, ok := prod[t]; ok && g.nodes[i].op == "Constant" {
		for _, a := range g.nodes[i].attrs {
			if a.hasT {
				data = a.t.data
			}
		}
	}
	out := make([]int64, len(data))
	for k, v := range data {
		out[k] = int64(v)
	}
	return out
}

func nodeWhere(i int, nd *onnxNode) string {
	if nd.name == "" {
		return fmt.Sprintf("node %d (%s)", i, nd.op)
	}
	return fmt.Sprintf("node %q (%s)", nd.name, nd.op)
}

func (nd *onnxNode) attrInts(name string) []int64 {
	for _, a := range nd.attrs {
		if a.name == name {
			return a.ints
		}
	}
	return nil
}

// argMaxAxis checks that the ArgMax ranges over the elements of the
// scores vector (not over a batch axis, ONNX's default axis 0 of a 1 x n
// row).
func (l *lowering) argMaxAxis(i int, nd *onnxNode) error {
	where := nodeWhere(i, nd)
	r := int64(len(l.dims))
	ax := nd.attrI("axis", 0)
	a := ax
	if a < 0 {
		a += r
	}
	if a < 0 || a >= r {
		return fmt.Errorf("nn: %s: axis %d of scores of shape %v; vigil reads an ArgMax over the axis of the scores' elements", where, ax, l.dims)
	}
	if l.tensorLike {
		return fmt.Errorf("nn: %s applies to scores of shape %v (from input %q of shape %v); flatten the input first", where, l.dims, l.input.name, l.input.dims)
	}
	if l.c.out > 1 && l.dims[a] == 1 {
		return fmt.Errorf("nn: %s: axis %d of the %d scores, shape %v, has size 1: it ranges over one element each (a batch axis?); vigil reads an ArgMax over the scores' elements (torch.argmax(x, dim=-1))", where, ax, l.c.out, l.dims)
	}
	if l.dims[a] != int64(l.c.out) { // several arg-maxes, one per row
		return fmt.Errorf("nn: %s: axis %d of scores of shape %v gives one arg-max per row, not one over all %d scores; vigil reads one action", where, ax, l.dims, l.c.out)
	}
	return nil
}
