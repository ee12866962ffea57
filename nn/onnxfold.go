package nn

// ONNX ops that act on shapes only, and Clip.
//
// Squeeze and Unsqueeze of the data change its recorded shape and
// nothing else. torch.onnx.export writes x.view(x.size(0), -1) as
// Shape(x) -> Gather -> Unsqueeze -> Concat -> Reshape(x, ...): the shape
// of the data is known at load time (a dynamic dimension counts as 1: vigil
// evaluates one input at a time, a batch of one), so Shape becomes a
// constant, and Gather, Unsqueeze, Squeeze and Concat of constants are
// folded. A constant taken from the data's shape may only end as a
// Reshape's shape operand; any other use (arithmetic on a shape) is
// refused.
//
// Clip (ReLU6, Hardtanh, torch.clamp) becomes the activation ActClip: its
// bounds must be constants (opset 11 on: the optional inputs min and max,
// an empty name leaving one out; before: the float attributes min and
// max). A bound left out is no bound, as in torch.clamp (onnxruntime
// clamps a float32 tensor at the largest float32, 3.4e38, which vigil's
// float64 evaluation does not have). Clip to [0, +Inf] is ReLU, Clip to
// [-Inf, +Inf] the identity, and Clip to [lo <= 0, hi >= 0] right after
// a ReLU makes it a Clip to [0, hi].

import (
	"fmt"
	"math"
)

// shapeOps are the ops that only move or reshape values; of constants,
// they are folded.
var shapeOps = map[string]bool{"Gather": true, "Unsqueeze": true, "Squeeze": true, "Concat": true}

// shapeOf folds a Shape node: the data's recorded shape (or a constant's).
func (l *lowering) shapeOf(nd *onnxNode, where string, dataIdx int) error {
	if len(nd.inputs) != 1 {
		return fmt.Errorf("nn: %s needs one operand", where)
	}
	var dims []int64
	if dataIdx == 0 {
		if len(l.input.dims) == 0 {
			return fmt.Errorf("nn: %s takes the shape of the data, but input %q has no recorded shape; export the network with the input's shape", where, l.input.name)
		}
		dims = l.dims
	} else {
		dims = l.consts[nd.inputs[0]].dims
	}
	// Opset 15's start and end slice the shape.
	r := int64(len(dims))
	idx := func(v int64) int64 {
		if v < 0 {
			v += r
		}
		return min(max(v, 0), r)
	}
	start, end := idx(nd.attrI("start", 0)), idx(nd.attrI("end", r))
	t := &onnxTensor{name: nd.outs[0], dims: []int64{0}}
	for _, d := range dims[start:max(start, end)] {
		t.data = append(t.data, float64(d))
	}
	t.dims[0] = int64(len(t.data))
	l.consts[t.name] = t
	l.fromShape[t.name] = dataIdx == 0
	return nil
}

// foldShapeOp folds a Gather, Unsqueeze, Squeeze or Concat of constants.
func (l *lowering) foldShapeOp(nd *onnxNode, where string) error {
	out := nd.outs[0]
	var t *onnxTensor
	var err error
	switch nd.op {
	case "Gather":
		t, err = l.foldGather(nd, where)
	case "Unsqueeze", "Squeeze":
		if len(nd.inputs) < 1 || nd.inputs[0] == "" {
			return fmt.Errorf("nn: %s has no operand", where)
		}
		src := l.consts[nd.inputs[0]]
		var dims []int64
		if dims, err = l.squeezeDims(nd, where, src.dims); err == nil {
			t = &onnxTensor{dims: dims, data: src.data}
		}
	case "Concat":
		t, err = l.foldConcat(nd, where)
	}
	if err != nil {
		return err
	}
	t.name = out
	l.consts[out] = t
	for _, in := range nd.inputs {
		if l.fromShape[in] {
			l.fromShape[out] = true
		}
	}
	return nil
}

// axisOf normalises nd's attribute axis (default def) for rank r.
func axisOf(nd *onnxNode, where string, def int64, r int) (int, error) {
	ax := nd.attrI("axis", def)
	if ax < 0 {
		ax += int64(r)
	}
	if ax < 0 || ax >= int64(r) {
		return 0, fmt.Errorf("nn: %s: axis %d for rank %d", where, nd.attrI("axis", def), r)
	}
	return int(ax), nil
}

// foldGather gathers a constant's slices along axis.
func (l *lowering) foldGather(nd *onnxNode, where string) (*onnxTensor, error) {
	if len(nd.inputs) != 2 || nd.inputs[0] == "" || nd.inputs[1] == "" {
		return nil, fmt.Errorf("nn: %s needs two operands", where)
	}
	src, ix := l.consts[nd.inputs[0]], l.consts[nd.inputs[1]]
	ax, err := axisOf(nd, where, 0, len(src.dims))
	if err != nil {
		return nil, err
	}
	n := int(src.dims[ax])
	outer, inner := 1, 1
	for i, d := range src.dims {
		if i < ax {
			outer *= int(d)
		} else if i > ax {
			inner *= int(d)
		}
	}
	if outer*len(ix.data)*inner > maxTensorElems {
		return nil, fmt.Errorf("nn: %s gathers too many elements", where)
	}
	t := &onnxTensor{dims: append(append(append([]int64(nil), src.dims[:ax]...), ix.dims...), src.dims[ax+1:]...)}
	for o := 0; o < outer; o++ {
		for _, v := range ix.data {
			if v != math.Trunc(v) || v < -float64(n) || v >= float64(n) {
				return nil, fmt.Errorf("nn: %s: index %v is out of range for a dimension of %d", where, v, n)
			}
			k := int(v)
			if k < 0 {
				k += n
			}
			t.data = append(t.data, src.data[(o*n+k)*inner:(o*n+k+1)*inner]...)
		}
	}
	return t, nil
}

// foldConcat concatenates constants along axis.
func (l *lowering) foldConcat(nd *onnxNode, where string) (*onnxTensor, error) {
	var ts []*onnxTensor
	for _, in := range nd.inputs {
		if in != "" {
			ts = append(ts, l.consts[in])
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("nn: %s has no operand", where)
	}
	r := len(ts[0].dims)
	ax, err := axisOf(nd, where, math.MinInt32, r)
	if err != nil {
		return nil, err
	}
	dims := append([]int64(nil), ts[0].dims...)
	dims[ax] = 0
	for _, t := range ts {
		if len(t.dims) != r {
			return nil, fmt.Errorf("nn: %s concatenates tensors of shapes %v and %v", where, ts[0].dims, t.dims)
		}
		for i, d := range t.dims {
			if i != ax && d != dims[i] {
				return nil, fmt.Errorf("nn: %s concatenates tensors of shapes %v and %v along axis %d", where, ts[0].dims, t.dims, ax)
			}
		}
		dims[ax] += t.dims[ax]
	}
	outer := 1
	for _, d := range dims[:ax] {
		outer *= int(d)
	}
	out := &onnxTensor{dims: dims}
	for o := 0; o < outer; o++ {
		for _, t := range ts {
			k := len(t.data) / max(outer, 1)
			out.data = append(out.data, t.data[o*k:(o+1)*k]...)
		}
	}
	return out, nil
}

// squeezeDims returns dims after nd, a Squeeze or an Unsqueeze: its axes
// are the attribute axes (before opset 13) or the constant operand 2.
func (l *lowering) squeezeDims(nd *onnxNode, where string, dims []int64) ([]int64, error) {
	var axes []int64
	has := false
	if len(nd.inputs) > 1 && nd.inputs[1] != "" {
		t := l.consts[nd.inputs[1]]
		for _, v := range t.data {
			if v != math.Trunc(v) || math.Abs(v) > 64 {
				return nil, fmt.Errorf("nn: %s: axis %v", where, v)
			}
			axes = append(axes, int64(v))
		}
		has = true
	}
	for _, a := range nd.attrs {
		if a.name == "axes" {
			axes, has = a.ints, true
		}
	}
	r := len(dims)
	if nd.op == "Unsqueeze" {
		r += len(axes)
		if !has || len(axes) == 0 {
			return nil, fmt.Errorf("nn: %s has no axes", where)
		}
	}
	mark := make([]bool, r)
	for _, a := range axes {
		if a < 0 {
			a += int64(r)
		}
		if a < 0 || a >= int64(r) || mark[a] {
			return nil, fmt.Errorf("nn: %s: axes %v for rank %d", where, axes, r)
		}
		mark[a] = true
	}
	out := []int64{}
	if nd.op == "Unsqueeze" {
		k := 0
		for i := range r {
			if mark[i] {
				out = append(out, 1)
			} else {
				out = append(out, dims[k])
				k++
			}
		}
		return out, nil
	}
	for i, d := range dims {
		switch {
		case !has && d == 1, mark[i] && d == 1:
		case mark[i]:
			return nil, fmt.Errorf("nn: %s squeezes axis %d of shape %v, which is not of size 1", where, i, dims)
		default:
			out = append(out, d)
		}
	}
	return out, nil
}

// squeeze applies a Squeeze or Unsqueeze to the data: only its recorded
// shape changes.
func (l *lowering) squeeze(nd *onnxNode, where string) error {
	if len(nd.inputs) > 0 && nd.inputs[0] != l.cur {
		return fmt.Errorf("nn: %s takes its axes from the data; vigil reads constant axes", where)
	}
	dims, err := l.squeezeDims(nd, where, l.dims)
	if err != nil {
		return err
	}
	l.setDims(dims)
	return nil
}

// clip closes the pending map into a layer with nd's Clip.
func (l *lowering) clip(nd *onnxNode, where string) error {
	if len(nd.inputs) < 1 || nd.inputs[0] != l.cur {
		return fmt.Errorf("nn: %s clips a constant by the data; vigil reads Clip of the data by constant bounds", where)
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, a := range nd.attrs { // before opset 11
		switch {
		case a.name == "min" && a.hasF:
			lo = a.f
		case a.name == "max" && a.hasF:
			hi = a.f
		}
	}
	for k := 1; k < len(nd.inputs) && k <= 2; k++ {
		if nd.inputs[k] == "" {
			continue
		}
		t := l.consts[nd.inputs[k]]
		if len(t.data) != 1 {
			return fmt.Errorf("nn: %s: bound %q has %d values; Clip's min and max are scalars", where, t.name, len(t.data))
		}
		if k == 1 {
			lo = t.data[0]
		} else {
			hi = t.data[0]
		}
	}
	if len(nd.inputs) > 3 {
		return fmt.Errorf("nn: %s has %d operands; Clip takes the data, min and max", where, len(nd.inputs))
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return fmt.Errorf("nn: %s clips to [%v, %v]; vigil reads Clip with min <= max, neither NaN", where, lo, hi)
	}
	layers := l.net.Layers
	if l.pendingEmpty && len(layers) > 0 && layers[len(layers)-1].Act == ActReLU && lo <= 0 && hi >= 0 {
		// F.relu6 is written Relu, then Clip to [0, 6]: clip(relu(s))
		// is clip to [0, hi] of s, bit for bit (a negative s and -0
		// included), with no identity layer between.
		if last := &layers[len(layers)-1]; !math.IsInf(hi, 1) {
			last.Act, last.Lo, last.Hi = ActClip, 0, hi
		}
		return nil
	}
	switch {
	case math.IsInf(lo, -1) && math.IsInf(hi, 1):
		return nil // the identity
	case lo == 0 && !math.Signbit(lo) && math.IsInf(hi, 1):
		return l.closeLayer(Layer{Act: ActReLU})
	}
	return l.closeLayer(Layer{Act: ActClip, Lo: lo, Hi: hi})
}
