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
// it. A tensor computed twice, or computed and also a graph input or
// initializer, breaks ONNX's single assignment (onnx.checker and
// onnxruntime refuse such a graph): the value a node reads would depend
// on which assignment it sees, so it is refused rather than read through
// the last one.
func (g *onnxGraph) producers() (map[string]int, error) {
	p := make(map[string]int, len(g.nodes))
	given := map[string]bool{}
	for i := range g.inputs {
		given[g.inputs[i].name] = true
	}
	for i := range g.inits {
		given[g.inits[i].name] = true
	}
	for i := range g.nodes {
		for _, o := range g.nodes[i].outs {
			if o == "" {
				continue
			}
			if j, ok := p[o]; ok {
				return nil, fmt.Errorf("nn: tensor %q is computed by both %s and %s; an ONNX graph assigns each tensor once (onnx.checker refuses it): re-export the network", o, nodeWhere(j, &g.nodes[j]), nodeWhere(i, &g.nodes[i]))
			}
			if given[o] {
				return nil, fmt.Errorf("nn: %s computes %q, which is also a graph input or initializer; an ONNX graph assigns each tensor once (onnx.checker refuses it): re-export the network", nodeWhere(i, &g.nodes[i]), o)
			}
			p[o] = i
		}
	}
	return p, nil
}

// indexOps may follow an ArgMax on the way to the output: they change the
// index's type or shape, not its value (a Cast, only where its type holds
// every index exactly: castLimit).
var indexOps = map[string]bool{"Cast": true, "Reshape": true, "Squeeze": true, "Unsqueeze": true, "Flatten": true, "Identity": true}

// castLimit is the largest index that ONNX type code `to` holds exactly
// (0 for a type that does not hold indices as numbers: a string, a
// complex number, an unknown code). A Cast to BOOL makes every index
// above 0 true (1); one to UINT8 wraps 256 to 0; one to FLOAT16 rounds
// 2049 to 2048.
func castLimit(to int64) int64 {
	switch to {
	case 1: // FLOAT
		return 1 << 24
	case 2: // UINT8
		return 255
	case 3: // INT8
		return 127
	case 4: // UINT16
		return 65535
	case 5: // INT16
		return 32767
	case 6: // INT32
		return 1<<31 - 1
	case 7, 12, 13: // INT64, UINT32, UINT64
		return 1<<32 - 1
	case 9: // BOOL
		return 1
	case 10: // FLOAT16
		return 2048
	case 11: // DOUBLE
		return 1 << 53
	case 16: // BFLOAT16
		return 256
	case 17, 18: // FLOAT8E4M3FN, FLOAT8E4M3FNUZ
		return 16
	case 19, 20: // FLOAT8E5M2, FLOAT8E5M2FNUZ
		return 8
	}
	return 0
}

// argMaxTail walks back from the output through indexOps to an ArgMax.
// It returns the ArgMax node (nil when the output is not an arg-max), the
// tensor whose elements are the scores (the ArgMax's input, with a
// trailing x - ReduceLogSumExp(x) dropped), whether one was dropped, and
// the Casts of the index on the way (network checks them against the
// number of scores).
func (g *onnxGraph) argMaxTail(out string, prod map[string]int) (am *onnxNode, scores string, lse bool, casts []int, err error) {
	t := out
	for steps := 0; steps <= len(g.nodes); steps++ {
		i, ok := prod[t]
		if !ok {
			return nil, out, false, nil, nil
		}
		nd := &g.nodes[i]
		if nd.outs[0] != t || !nd.standard() { // a second output: not the index; another domain's op: refused when lowered
			return nil, out, false, nil, nil
		}
		switch {
		case nd.op == "ArgMax":
			if len(nd.inputs) != 1 {
				return nil, "", false, nil, fmt.Errorf("nn: %s has %d inputs; ArgMax has one", nodeWhere(i, nd), len(nd.inputs))
			}
			if nd.attrI("select_last_index", 0) != 0 {
				return nil, "", false, nil, fmt.Errorf("nn: %s breaks ties by the last index (select_last_index 1); vigil's policies choose the first of equal scores: export the ArgMax with select_last_index 0 (torch.argmax does)", nodeWhere(i, nd))
			}
			x, dropped := g.dropLogSumExp(nd.inputs[0], prod)
			return nd, x, dropped, casts, nil
		case indexOps[nd.op] && len(nd.inputs) > 0:
			if nd.op == "Cast" {
				casts = append(casts, i)
			}
			t = nd.inputs[0]
		default:
			return nil, out, false, nil, nil
		}
	}
	return nil, out, false, nil, nil
}

// dropLogSumExp returns x where s is Sub(x, ReduceLogSumExp(x)) over the
// last axis with kept dimensions (torch.distributions.Categorical's
// normalisation of logits, possibly under a Softmax), else s; dropped
// says which. Through a Softmax or LogSoftmax the result is that op's
// output with its input rewired: the caller lowers the rewired node. The
// caller also checks that x's last axis holds the scores: over an axis
// of size 1 (a column n x 1) the subtraction makes every score 0.
func (g *onnxGraph) dropLogSumExp(s string, prod map[string]int) (string, bool) {
	return g.dropLogSumExpAt(s, prod, 0)
}

// dropLogSumExpAt is dropLogSumExp through depth Softmaxes (a cyclic
// graph, Softmax of Softmax of itself, recursed until the stack
// overflowed: it stops after as many as the graph has nodes).
func (g *onnxGraph) dropLogSumExpAt(s string, prod map[string]int, depth int) (string, bool) {
	i, ok := prod[s]
	if !ok || depth > len(g.nodes) {
		return s, false
	}
	nd := &g.nodes[i]
	if !nd.standard() {
		return s, false // refused when lowered
	}
	if (nd.op == "Softmax" || nd.op == "LogSoftmax") && len(nd.inputs) == 1 {
		x, dropped := g.dropLogSumExpAt(nd.inputs[0], prod, depth+1)
		if dropped {
			nd.inputs[0] = x
		}
		return s, dropped
	}
	if nd.op != "Sub" || len(nd.inputs) != 2 || nd.outs[0] != s {
		return s, false
	}
	j, ok := prod[nd.inputs[1]]
	if !ok {
		return s, false
	}
	r := &g.nodes[j]
	if !r.standard() || r.op != "ReduceLogSumExp" || r.outs[0] != nd.inputs[1] || len(r.inputs) < 1 || r.inputs[0] != nd.inputs[0] || r.attrI("keepdims", 1) != 1 {
		return s, false
	}
	axes := r.attrInts("axes")
	if len(r.inputs) > 1 && r.inputs[1] != "" { // opset 18: axes as an operand
		axes = g.constInts(r.inputs[1], prod)
	}
	if len(axes) != 1 || axes[0] != -1 {
		return s, false
	}
	return nd.inputs[0], true
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

// indexReading checks what argMaxTail skipped, now that the scores' shape
// and number are known: a dropped x - ReduceLogSumExp(x) must reduce over
// the axis holding the scores (over a size-1 last axis, a column's, it
// makes every score 0 and the ArgMax always 0), and each Cast of the
// index must hold the largest index exactly.
func (l *lowering) indexReading(g *onnxGraph, out string, lse bool, casts []int) error {
	n := int64(l.c.out)
	if n == 1 {
		// Read as its one score, the output would be that score where the
		// graph's is always 0: vigil nn verify proved Y_0 <= 0.5
		// impossible where the graph always outputs 0.
		return fmt.Errorf("nn: the ONNX graph's output %q is the ArgMax of one score, which is always 0; vigil reads an ArgMax output as the scores it ranges over: export the scores, or more than one", out)
	}
	if lse && n > 1 && (len(l.dims) == 0 || l.dims[len(l.dims)-1] != n) {
		return fmt.Errorf("nn: the ONNX graph's output %q is the ArgMax of x - ReduceLogSumExp(x) over x's last axis, but x has shape %v: its %d scores do not lie along that axis, so the subtraction changes their order (over a size-1 axis every score becomes 0); vigil reads the normalisation only over the scores' axis (torch's Categorical(logits=x) for x of shape [batch, n])", out, l.dims, n)
	}
	for _, i := range casts {
		nd := &g.nodes[i]
		to := nd.attrI("to", 0)
		if lim := castLimit(to); n-1 > lim {
			return fmt.Errorf("nn: %s casts the ArgMax of %d scores to ONNX type %d, which does not hold every index 0..%d exactly (a BOOL makes every index above 0 true, narrow integers wrap, small floats round); vigil reads the index as the label's position: cast to INT64 or leave the index as ArgMax gives it", nodeWhere(i, nd), n, to, n-1)
		}
	}
	return nil
}

// standard reports whether nd is an op of the standard ONNX domain ("" or
// "ai.onnx"), the only one vigil reads.
func (nd *onnxNode) standard() bool { return nd.domain == "" || nd.domain == "ai.onnx" }
