package nn

// ONNX reading. Only the fields a feed-forward network needs are decoded,
// straight from the protobuf wire format (anchors.md, "Neural networks"):
// ModelProto.graph(7); GraphProto node(1), initializer(5), input(11),
// output(12); NodeProto input(1), output(2), name(3), op_type(4),
// attribute(5); TensorProto dims(1), data_type(2), float_data(4),
// int64_data(7), name(8), raw_data(9), double_data(10).
//
// The graph must be a chain: every node except those computing constants
// reads exactly one computed tensor, starting from the single real graph
// input. Linear ops accumulate into a pending affine map (W, b) over the
// last activation's output; each activation (Relu, LeakyRelu, Clip, Tanh,
// Sigmoid) closes that map into a Layer. Shape-only ops (Squeeze,
// Unsqueeze, and Shape, Gather, Concat computing a Reshape's shape) are
// folded at load time (onnxfold.go). A final Softmax or LogSoftmax
// becomes Network.Out.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"vigil/internal/inputfile"

	"google.golang.org/protobuf/encoding/protowire"
)

// SupportedONNXOps lists the ONNX ops vigil reads, for messages and help.
const SupportedONNXOps = "Gemm, MatMul, Add, Sub, Mul, Div, Relu, LeakyRelu, Clip (constant bounds), Tanh, Sigmoid, Softmax and LogSoftmax (last), ArgMax (last: read as the scores it ranges over), Flatten, Reshape, Squeeze, Unsqueeze, Transpose, Identity, Dropout and Constant, and Shape, Gather and Concat where they compute a Reshape's shape"

type onnxTensor struct {
	name  string
	dims  []int64
	dtype int64
	data  []float64
}

type onnxAttr struct {
	name   string
	f      float64
	i      int64
	ints   []int64
	t      *onnxTensor
	hasF   bool
	hasI   bool
	hasT   bool
	floats []float64
}

type onnxNode struct {
	name, op     string
	inputs, outs []string
	attrs        []onnxAttr
	// domain is the operator set the op belongs to: "" (or "ai.onnx")
	// for the standard ops vigil reads; any other domain's op of the
	// same name (com.microsoft, a custom one) may compute something else.
	domain string
}

type onnxValueInfo struct {
	name string
	dims []int64 // -1 for symbolic dimensions
}

type onnxGraph struct {
	nodes   []onnxNode
	inits   []onnxTensor
	inputs  []onnxValueInfo
	outputs []onnxValueInfo
}

// LoadONNX reads an ONNX model file.
func LoadONNX(path string) (*Network, error) { return LoadONNXOutput(path, "") }

// LoadONNXOutput reads an ONNX model file through the graph output named
// output ("": the graph's only output; onnxoutput.go).
func LoadONNXOutput(path, output string) (*Network, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	n, err := ParseONNXOutput(b, output)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// ParseONNX decodes an ONNX model from its bytes.
func ParseONNX(b []byte) (*Network, error) { return ParseONNXOutput(b, "") }

// ParseONNXOutput decodes an ONNX model from its bytes, reading the graph
// output named output ("": the graph's only output).
func ParseONNXOutput(b []byte, output string) (*Network, error) {
	var graph []byte
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num == 7 && typ == protowire.BytesType {
			graph = v
		}
		return nil
	})
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("nn: ONNX model: the file ends in the middle of a field; is it cut short?")
	}
	if err != nil {
		// protowire's own words vary from run to run on purpose.
		return nil, fmt.Errorf("nn: not an ONNX model: the file is not a valid protobuf message")
	}
	if graph == nil {
		return nil, fmt.Errorf("nn: not an ONNX model: no graph found")
	}
	g, err := parseGraph(graph)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("nn: ONNX model: the graph ends in the middle of a field; is the file cut short?")
	}
	if err != nil && strings.HasPrefix(err.Error(), "proto") {
		return nil, fmt.Errorf("nn: not an ONNX model: the graph is not a valid protobuf message")
	}
	if err != nil {
		return nil, fmt.Errorf("nn: ONNX model: %v", err)
	}
	return g.network(output)
}

// walk calls f for every field of a message. For varint and fixed fields v
// is nil and x holds the value.
func walk(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var y uint32
			y, n = protowire.ConsumeFixed32(b)
			x = uint64(y)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

func parseGraph(b []byte) (*onnxGraph, error) {
	g := &onnxGraph{}
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case 1:
			n, err := parseNode(v)
			if err != nil {
				return err
			}
			g.nodes = append(g.nodes, n)
		case 5:
			t, err := parseTensor(v)
			if err != nil {
				return err
			}
			g.inits = append(g.inits, *t)
		case 11, 12:
			vi, err := parseValueInfo(v)
			if err != nil {
				return err
			}
			if num == 11 {
				g.inputs = append(g.inputs, vi)
			} else {
				g.outputs = append(g.outputs, vi)
			}
		}
		return nil
	})
	return g, err
}

func parseNode(b []byte) (onnxNode, error) {
	var n onnxNode
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case 1:
			n.inputs = append(n.inputs, string(v))
		case 2:
			n.outs = append(n.outs, string(v))
		case 3:
			n.name = string(v)
		case 4:
			n.op = string(v)
		case 7:
			n.domain = string(v)
		case 5:
			a, err := parseAttr(v)
			if err != nil {
				return err
			}
			n.attrs = append(n.attrs, a)
		}
		return nil
	})
	return n, err
}

// AttributeProto: name(1), f(2), i(3), t(5), floats(7), ints(8).
func parseAttr(b []byte) (onnxAttr, error) {
	var a onnxAttr
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			a.name = string(v)
		case num == 2 && typ == protowire.Fixed32Type:
			a.f, a.hasF = float64(math.Float32frombits(uint32(x))), true
		case num == 3 && typ == protowire.VarintType:
			a.i, a.hasI = int64(x), true
		case num == 5 && typ == protowire.BytesType:
			t, err := parseTensor(v)
			if err != nil {
				return err
			}
			a.t, a.hasT = t, true
		case num == 7 && typ == protowire.Fixed32Type:
			a.floats = append(a.floats, float64(math.Float32frombits(uint32(x))))
		case num == 7 && typ == protowire.BytesType:
			for len(v) >= 4 {
				a.floats = append(a.floats, float64(math.Float32frombits(binary.LittleEndian.Uint32(v))))
				v = v[4:]
			}
		case num == 8 && typ == protowire.VarintType:
			a.ints = append(a.ints, int64(x))
		case num == 8 && typ == protowire.BytesType:
			ints, err := packedVarints(v)
			if err != nil {
				return err
			}
			a.ints = append(a.ints, ints...)
		}
		return nil
	})
	return a, err
}

func packedVarints(v []byte) ([]int64, error) {
	var out []int64
	for len(v) > 0 {
		x, n := protowire.ConsumeVarint(v)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		out = append(out, int64(x))
		v = v[n:]
	}
	return out, nil
}

// ONNX data types.
const (
	onnxFloat  = 1
	onnxUint8  = 2
	onnxInt8   = 3
	onnxUint16 = 4
	onnxInt16  = 5
	onnxBool   = 9
	onnxInt32  = 6
	onnxInt64  = 7
	onnxDouble = 11
)

const maxTensorElems = 1 << 26

// onnxTypeNames names the ONNX data types vigil does not read, for errors.
var onnxTypeNames = map[int64]string{
	8: "STRING", 10: "FLOAT16", 12: "UINT32", 13: "UINT64", 14: "COMPLEX64",
	15: "COMPLEX128", 16: "BFLOAT16", 17: "FLOAT8E4M3FN", 18: "FLOAT8E4M3FNUZ",
	19: "FLOAT8E5M2", 20: "FLOAT8E5M2FNUZ", 21: "UINT4", 22: "INT4",
}

// unsupportedType is the error for a tensor of a data type vigil does not
// read: it names the type and says how to export one vigil reads.
func unsupportedType(t *onnxTensor) error {
	name := onnxTypeNames[t.dtype]
	if name == "" {
		name = "unknown"
	}
	return fmt.Errorf("tensor %q: data type %d (%s) is not supported (want float, double or an integer type); export the network in float32 or float64 (torch: model.float() before torch.onnx.export)", t.name, t.dtype, name)
}

// intStored reports whether a tensor of ONNX data type dt keeps its
// values as the integers they are in int32_data or int64_data (uint8,
// int8, uint16, int16, int32, int64, bool), or has no type set.
func intStored(dt int64) bool {
	switch dt {
	case 0, onnxUint8, onnxInt8, onnxUint16, onnxInt16, onnxInt32, onnxInt64, onnxBool:
		return true
	}
	return false
}

func parseTensor(b []byte) (*onnxTensor, error) {
	t := &onnxTensor{}
	var raw []byte
	var hasRaw bool
	var floats, doubles []float64
	var ints []int64
	var external bool // data_location EXTERNAL
	var location string
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch num {
		case 1:
			if typ == protowire.VarintType {
				t.dims = append(t.dims, int64(x))
			} else if typ == protowire.BytesType {
				d, err := packedVarints(v)
				if err != nil {
					return err
				}
				t.dims = append(t.dims, d...)
			}
		case 2:
			t.dtype = int64(x)
		case 4:
			if typ == protowire.Fixed32Type {
				floats = append(floats, float64(math.Float32frombits(uint32(x))))
			} else if typ == protowire.BytesType {
				for len(v) >= 4 {
					floats = append(floats, float64(math.Float32frombits(binary.LittleEndian.Uint32(v))))
					v = v[4:]
				}
			}
		case 5, 7:
			if typ == protowire.VarintType {
				ints = append(ints, int64(x))
			} else if typ == protowire.BytesType {
				d, err := packedVarints(v)
				if err != nil {
					return err
				}
				ints = append(ints, d...)
			}
		case 8:
			t.name = string(v)
		case 9:
			raw, hasRaw = v, true
		case 10:
			if typ == protowire.Fixed64Type {
				doubles = append(doubles, math.Float64frombits(x))
			} else if typ == protowire.BytesType {
				for len(v) >= 8 {
					doubles = append(doubles, math.Float64frombits(binary.LittleEndian.Uint64(v)))
					v = v[8:]
				}
			}
		case 13: // external_data: StringStringEntryProto key(1), value(2)
			if typ == protowire.BytesType {
				var key, val string
				if err := walk(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
					if typ == protowire.BytesType && num == 1 {
						key = string(v)
					} else if typ == protowire.BytesType && num == 2 {
						val = string(v)
					}
					return nil
				}); err != nil {
					return err
				}
				if key == "location" {
					location = val
				}
			}
		case 14: // data_location: EXTERNAL is 1
			external = typ == protowire.VarintType && x == 1
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if external {
		// Its values lie in another file, which vigil does not read:
		// without this the tensor read as having no values ("0 values
		// for shape [2 2]").
		return nil, fmt.Errorf("tensor %q keeps its values in an external file (%+q); vigil reads ONNX files that hold every tensor: save it again with onnx.save_model(onnx.load(path), new_path) (onnx.load reads the external values in)", t.name, location)
	}
	size := int64(1)
	for _, d := range t.dims {
		if d < 0 || d > maxTensorElems || size*d > maxTensorElems {
			return nil, fmt.Errorf("tensor %q: bad shape %v", t.name, t.dims)
		}
		size *= d
	}
	switch {
	case hasRaw:
		var w int
		switch t.dtype {
		case onnxFloat, onnxInt32:
			w = 4
		case onnxDouble, onnxInt64:
			w = 8
		case onnxUint8, onnxInt8, onnxBool:
			w = 1
		case onnxUint16, onnxInt16:
			w = 2
		default:
			return nil, unsupportedType(t)
		}
		if int64(len(raw)) != size*int64(w) {
			return nil, fmt.Errorf("tensor %q: %d bytes of raw data for shape %v", t.name, len(raw), t.dims)
		}
		t.data = make([]float64, size)
		for i := range t.data {
			switch t.dtype {
			case onnxFloat:
				t.data[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
			case onnxInt32:
				t.data[i] = float64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
			case onnxDouble:
				t.data[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			case onnxInt64:
				t.data[i] = float64(int64(binary.LittleEndian.Uint64(raw[8*i:])))
			case onnxUint8, onnxBool:
				t.data[i] = float64(raw[i])
			case onnxInt8:
				t.data[i] = float64(int8(raw[i]))
			case onnxUint16:
				t.data[i] = float64(binary.LittleEndian.Uint16(raw[2*i:]))
			case onnxInt16:
				t.data[i] = float64(int16(binary.LittleEndian.Uint16(raw[2*i:])))
			}
		}
	case !intStored(t.dtype) && t.dtype != onnxFloat && t.dtype != onnxDouble:
		// float16 and bfloat16 values are stored as bit patterns in
		// int32_data: read as integers they would be other weights
		// (15360 for 1.0).
		return nil, unsupportedType(t)
	case floats != nil:
		t.data = floats
	case doubles != nil:
		t.data = doubles
	case ints != nil:
		t.data = make([]float64, len(ints))
		for i, v := range ints {
			t.data[i] = float64(v)
		}
	}
	if int64(len(t.data)) != size {
		return nil, fmt.Errorf("tensor %q: %d values for shape %v", t.name, len(t.data), t.dims)
	}
	return t, nil
}

// ValueInfoProto name(1), type(2) -> TypeProto tensor_type(1) ->
// Tensor shape(2) -> TensorShapeProto dim(1) -> dim_value(1) | dim_param(2).
func parseValueInfo(b []byte) (onnxValueInfo, error) {
	var vi onnxValueInfo
	err := walk(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case 1:
			vi.name = string(v)
		case 2:
			return walk(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
				if num != 1 || typ != protowire.BytesType {
					return nil
				}
				return walk(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
					if num != 2 || typ != protowire.BytesType {
						return nil
					}
					return walk(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
						if num != 1 || typ != protowire.BytesType {
							return nil
						}
						d := int64(-1)
						err := walk(v, func(num protowire.Number, typ protowire.Type, _ []byte, x uint64) error {
							if num == 1 && typ == protowire.VarintType {
								d = int64(x)
							}
							return nil
						})
						vi.dims = append(vi.dims, d)
						return err
					})
				})
			})
		}
		return nil
	})
	return vi, err
}

// chain is the pending affine map y = W x + b from the last closed layer's
// output (size in) to the current tensor (size out). w == nil stands for
// the identity, so that wide inputs cost nothing until a matrix arrives.
type chain struct {
	in, out int
	w, b    []float64 // w is out x in
}

// maxLayerElems bounds the weights of one layer (128 MiB of float64).
const maxLayerElems = 1 << 24

func identity(n int) chain { return chain{in: n, out: n, b: make([]float64, n)} }

// dense materialises an identity chain.
func (c *chain) dense() error {
	if c.w != nil {
		return nil
	}
	if c.in*c.out > maxLayerElems {
		return fmt.Errorf("nn: a %dx%d layer is too large for vigil", c.out, c.in)
	}
	c.w = make([]float64, c.in*c.out)
	for i := 0; i < c.in; i++ {
		c.w[i*c.in+i] = 1
	}
	return nil
}

// then composes c with y' = M y + d (M is m x c.out, row-major).
func (c chain) then(m int, M, d []float64) (chain, error) {
	if m*c.in > maxLayerElems {
		return chain{}, fmt.Errorf("nn: a %dx%d layer is too large for vigil", m, c.in)
	}
	r := chain{in: c.in, out: m, b: make([]float64, m)}
	if c.w == nil {
		r.w = M
		for i := 0; i < m; i++ {
			if d != nil {
				r.b[i] = d[i]
			}
			for k := 0; k < c.out; k++ {
				r.b[i] += M[i*c.out+k] * c.b[k]
			}
		}
		return r, nil
	}
	r.w = make([]float64, m*c.in)
	for i := 0; i < m; i++ {
		bi := 0.0
		if d != nil {
			bi = d[i]
		}
		row := r.w[i*c.in : (i+1)*c.in]
		for k := 0; k < c.out; k++ {
			mk := M[i*c.out+k]
			if mk == 0 {
				continue
			}
			bi += mk * c.b[k]
			src := c.w[k*c.in : (k+1)*c.in]
			for j := range row {
				row[j] += mk * src[j]
			}
		}
		r.b[i] = bi
	}
	return r, nil
}

// scale multiplies output i by s[i] (or s[0] when len(s) == 1).
func (c chain) scale(s []float64) (chain, error) {
	if err := c.dense(); err != nil {
		return c, err
	}
	for i := 0; i < c.out; i++ {
		f := s[0]
		if len(s) > 1 {
			f = s[i]
		}
		for j := 0; j < c.in; j++ {
			c.w[i*c.in+j] *= f
		}
		c.b[i] *= f
	}
	return c, nil
}

func (c chain) shift(s []float64, sign float64) chain {
	for i := 0; i < c.out; i++ {
		f := s[0]
		if len(s) > 1 {
			f = s[i]
		}
		c.b[i] += sign * f
	}
	return c
}

// lowering is the state of onnxGraph.network as it walks the node chain:
// the layers closed so far, the pending affine map from the last closed
// layer to the current data tensor, and what is known about its shape.
type lowering struct {
	consts map[string]*onnxTensor // initializers and folded constants
	input  *onnxValueInfo         // the data input
	net    *Network               // the layers closed so far
	cur    string                 // the current data tensor
	c      chain                  // the pending map from the last layer to cur
	// pendingEmpty: c is the identity, so an activation would need a
	// layer of its own.
	pendingEmpty bool
	// tensorLike: cur may still have several dimensions of size > 1. A
	// transpose of the data is a no-op only once it is a (batch of)
	// vector(s); before any Flatten, Reshape or matrix product a tensor
	// with several dimensions of size > 1 could be permuted.
	tensorLike bool
	// dims: the shape of cur (a dynamic dimension counts as 1), so that
	// the lowering knows how the vector is laid out (a row 1 x n, a
	// column n x 1, or a 1-D tensor of n elements). PyTorch's W @ x.T
	// computes on a column; an operation along the last axis of a column
	// (Softmax, an element-wise constant of shape [n]) does not act on its
	// n elements, and a Flatten or Reshape may make a matrix of a vector
	// or a tensor, so the lowering refuses those.
	dims []int64
	// fromShape holds the constants computed from the data's shape
	// (Shape, and Gather, Unsqueeze, Squeeze, Concat of such constants):
	// they may only become another Reshape's shape.
	fromShape map[string]bool
}

// setDims records the shape of the current data (and whether it may be
// a tensor with several dimensions of size > 1).
func (l *lowering) setDims(d []int64) {
	l.dims = d
	big := 0
	for _, x := range d {
		if x > 1 {
			big++
		}
	}
	l.tensorLike = big > 1
}

// shape returns the layout of the current data: a 1-D tensor, a row (its
// elements along the last axis), a column (along the one before, the
// last of size 1), or another tensor.
func (l *lowering) shape() vecShape {
	r := len(l.dims)
	if r == 1 {
		return shapeFlat
	}
	axis := -1 // the one dimension of size > 1
	for i, d := range l.dims {
		if d > 1 {
			if axis >= 0 {
				return shapeOther
			}
			axis = i
		}
	}
	switch {
	case axis < 0 || axis == r-1:
		return shapeRow
	case axis == r-2:
		return shapeColumn
	}
	return shapeOther
}

// vecShape is the layout of the data vector: a row, a column or 1-D.
type vecShape int

const (
	shapeRow vecShape = iota
	shapeColumn
	shapeFlat
	shapeOther
)

func (v vecShape) String() string {
	return [...]string{"a row (1 x n)", "a column (n x 1)", "a 1-D tensor", "a tensor"}[v]
}

// network lowers the graph, a chain of nodes from one data input to one
// output, to dense layers: affine ops (Gemm, MatMul, Add, Sub, Mul, Div)
// compose into the pending map, an activation closes a layer, shape ops
// check that the data stays a vector, and Softmax or LogSoftmax become
// the network's output function.
func (g *onnxGraph) network(output string) (*Network, error) {
	l := &lowering{consts: map[string]*onnxTensor{}, net: &Network{}, pendingEmpty: true, fromShape: map[string]bool{}}
	for i := range g.inits {
		l.consts[g.inits[i].name] = &g.inits[i]
	}
	if err := l.findInput(g); err != nil {
		return nil, err
	}
	out, err := g.selectOutput(output)
	if err != nil {
		return nil, err
	}
	prod, err := g.producers()
	if err != nil {
		return nil, err
	}
	argmax, scores, lse, casts, err := g.argMaxTail(out, prod)
	if err != nil {
		return nil, err
	}
	size, _, err := l.inputSize()
	if err != nil {
		return nil, err
	}
	l.cur, l.c = l.input.name, identity(size)
	dims := make([]int64, len(l.input.dims))
	for i, d := range l.input.dims {
		dims[i] = max(d, 1) // a dynamic (batch) dimension: 1
	}
	l.setDims(dims)
	for _, i := range g.cone(scores, prod) { // only what the scores depend on
		if err := l.node(i, &g.nodes[i]); err != nil {
			return nil, err
		}
	}
	if l.cur != scores {
		if argmax != nil {
			return nil, fmt.Errorf("nn: the scores %q of the ONNX graph's ArgMax (output %q) are not computed by the node chain (last computed tensor %q)", scores, out, l.cur)
		}
		return nil, fmt.Errorf("nn: the ONNX graph's output %q is not computed by the node chain (last computed tensor %q)", out, l.cur)
	}
	if argmax != nil {
		if err := l.argMaxAxis(prod[argmax.outs[0]], argmax); err != nil {
			return nil, err
		}
		if err := l.indexReading(g, out, lse, casts); err != nil {
			return nil, err
		}
	}
	net := l.net
	if !l.pendingEmpty || len(net.Layers) == 0 {
		if err := l.c.dense(); err != nil {
			return nil, err
		}
		net.Layers = append(net.Layers, Layer{In: l.c.in, Out: l.c.out, W: l.c.w, B: l.c.b})
	}
	if err := net.validate(); err != nil {
		return nil, err
	}
	return net, nil
}

// findInput sets l.input to the one graph input that is not an
// initializer.
func (l *lowering) findInput(g *onnxGraph) error {
	for i := range g.inputs {
		if _, ok := l.consts[g.inputs[i].name]; ok {
			continue
		}
		if l.input != nil {
			return fmt.Errorf("nn: the ONNX graph has several inputs (%q, %q); vigil reads networks with one input tensor", l.input.name, g.inputs[i].name)
		}
		l.input = &g.inputs[i]
	}
	if l.input == nil {
		return fmt.Errorf("nn: the ONNX graph has no input")
	}
	return nil
}

// inputSize returns the data input's number of elements and how many of
// its dimensions exceed 1.
func (l *lowering) inputSize() (size, big int, err error) {
	size = 1
	for _, d := range l.input.dims {
		if d > 1 {
			big++
		}
		if d > 0 {
			if d > 1<<20 || size*int(d) > 1<<20 {
				return 0, 0, fmt.Errorf("nn: input %q: shape %v is too large", l.input.name, l.input.dims)
			}
			size *= int(d)
		}
	}
	return size, big, nil
}

// node lowers node i of the chain.
func (l *lowering) node(i int, nd *onnxNode) error {
	where := fmt.Sprintf("node %q (%s)", nd.name, nd.op)
	if nd.name == "" {
		where = fmt.Sprintf("node %d (%s)", i, nd.op)
	}
	if len(nd.outs) < 1 {
		return fmt.Errorf("nn: %s has no output", where)
	}
	if !nd.standard() {
		return fmt.Errorf("nn: %s is an op of the domain %q, not of the standard ONNX operators vigil reads (%s); export the network with standard ops only", where, nd.domain, SupportedONNXOps)
	}
	if nd.op == "Constant" {
		return l.constant(nd, where)
	}
	if nd.op == "Clip" {
		for k, in := range nd.inputs {
			if k > 0 && in != "" && in != l.cur && l.consts[in] == nil {
				return fmt.Errorf("nn: %s: its %s %q is computed, not a constant; vigil reads Clip with constant bounds", where, [...]string{"", "minimum", "maximum"}[min(k, 2)], in)
			}
		}
	}
	dataIdx, err := l.dataOperand(nd, where)
	if err != nil {
		return err
	}
	for k, in := range nd.inputs {
		if l.fromShape[in] && !(shapeOps[nd.op] || nd.op == "Reshape" && k == 1) {
			return fmt.Errorf("nn: %s computes with %q, which is taken from the data's shape; vigil folds a shape only into a Reshape's shape operand (through Gather, Unsqueeze, Squeeze and Concat)", where, in)
		}
	}
	if nd.op == "Shape" {
		return l.shapeOf(nd, where, dataIdx)
	}
	if dataIdx < 0 && nd.op == "Transpose" && len(nd.inputs) == 1 {
		return l.foldTranspose(nd, where)
	}
	if dataIdx < 0 && shapeOps[nd.op] {
		return l.foldShapeOp(nd, where)
	}
	if dataIdx < 0 {
		return fmt.Errorf("nn: %s computes on constants only (op %s is not folded); re-export the network with constant folding", where, nd.op)
	}
	if l.net.Out != OutNone {
		switch nd.op {
		case "Identity", "Dropout", "Flatten", "Reshape", "Squeeze", "Unsqueeze":
		default:
			return fmt.Errorf("nn: %s follows the network's %s; vigil reads Softmax and LogSoftmax only as the last op", where, l.net.Out)
		}
	}
	switch nd.op {
	case "Relu", "Tanh", "Sigmoid", "LeakyRelu":
		err = l.activation(nd, where)
	case "Clip":
		err = l.clip(nd, where)
	case "Squeeze", "Unsqueeze":
		err = l.squeeze(nd, where)
	case "Softmax", "LogSoftmax":
		err = l.outFunction(nd, where)
	case "Transpose":
		if l.tensorLike {
			return fmt.Errorf("nn: %s permutes the dimensions of input %q (shape %v); flatten the input first", where, l.input.name, l.input.dims)
		}
		// The elements keep their order (one dimension exceeds 1); the
		// layout follows perm (default: reversed), so a row may become a
		// column, or stay one under perm [0, 1].
		err = l.transpose(nd, where)
	case "Flatten":
		err = l.flatten(nd, where)
	case "Identity":
	case "Dropout":
		err = l.dropout(nd, where)
	case "Reshape":
		err = l.reshape(nd, where)
	case "Gemm", "MatMul":
		err = l.matmul(nd, where, dataIdx)
	case "Add", "Sub", "Mul", "Div":
		err = l.elementwise(nd, where, dataIdx)
	default:
		return fmt.Errorf("nn: %s: unsupported op %s; vigil reads %s", where, nd.op, SupportedONNXOps)
	}
	if err != nil {
		return err
	}
	l.cur = nd.outs[0]
	return nil
}

// constant records the value of a Constant node.
func (l *lowering) constant(nd *onnxNode, where string) error {
	out := nd.outs[0]
	for _, a := range nd.attrs {
		switch {
		case a.hasT:
			t := *a.t
			t.name = out
			l.consts[out] = &t
		case a.name == "value_float" && a.hasF:
			l.consts[out] = &onnxTensor{name: out, data: []float64{a.f}}
		case a.name == "value_floats":
			l.consts[out] = &onnxTensor{name: out, dims: []int64{int64(len(a.floats))}, data: a.floats}
		case a.name == "value_int" && a.hasI:
			l.consts[out] = &onnxTensor{name: out, data: []float64{float64(a.i)}}
		case a.name == "value_ints":
			d := make([]float64, len(a.ints))
			for k, v := range a.ints {
				d[k] = float64(v)
			}
			l.consts[out] = &onnxTensor{name: out, dims: []int64{int64(len(d))}, data: d}
		}
	}
	if l.consts[out] == nil {
		return fmt.Errorf("nn: %s: unsupported constant form", where)
	}
	return nil
}

// dataOperand returns which operand of nd is the data tensor (-1 for
// none); every other operand must be a constant.
func (l *lowering) dataOperand(nd *onnxNode, where string) (int, error) {
	dataIdx := -1
	for k, in := range nd.inputs {
		if in == l.cur {
			if dataIdx >= 0 {
				return 0, fmt.Errorf("nn: %s uses the data tensor twice; vigil reads feed-forward chains only", where)
			}
			dataIdx = k
		} else if in != "" && l.consts[in] == nil {
			return 0, fmt.Errorf("nn: %s reads %q, which is neither a constant nor the current layer's output; vigil reads feed-forward chains only", where, in)
		}
	}
	return dataIdx, nil
}

// foldTranspose records the transpose of a constant matrix.
func (l *lowering) foldTranspose(nd *onnxNode, where string) error {
	t := l.consts[nd.inputs[0]]
	if len(t.dims) != 2 {
		return fmt.Errorf("nn: %s transposes a constant of shape %v; only matrices are supported", where, t.dims)
	}
	// perm [0, 1] leaves the matrix as it is; the default (no perm)
	// and [1, 0] reverse the dimensions.
	var perm []int64
	for _, a := range nd.attrs {
		if a.name == "perm" {
			perm = a.ints
		}
	}
	switch {
	case len(perm) == 2 && perm[0] == 0 && perm[1] == 1:
		l.consts[nd.outs[0]] = &onnxTensor{name: nd.outs[0], dims: t.dims, data: t.data}
		return nil
	case perm == nil || len(perm) == 2 && perm[0] == 1 && perm[1] == 0:
	default:
		return fmt.Errorf("nn: %s: perm %v is not a permutation of a matrix's 2 dimensions", where, perm)
	}
	r, cl := int(t.dims[0]), int(t.dims[1])
	tt := &onnxTensor{name: nd.outs[0], dims: []int64{int64(cl), int64(r)}, data: make([]float64, r*cl)}
	for i := 0; i < r; i++ {
		for j := 0; j < cl; j++ {
			tt.data[j*r+i] = t.data[i*cl+j]
		}
	}
	l.consts[nd.outs[0]] = tt
	return nil
}

// constArg returns constant operand k of nd.
func (l *lowering) constArg(nd *onnxNode, k int, where string) (*onnxTensor, error) {
	if k >= len(nd.inputs) || nd.inputs[k] == "" {
		return nil, fmt.Errorf("nn: %s: missing operand %d", where, k+1)
	}
	return l.consts[nd.inputs[k]], nil
}

// attrF returns nd's float attribute name, or def.
func (nd *onnxNode) attrF(name string, def float64) float64 {
	for _, a := range nd.attrs {
		if a.name == name && a.hasF {
			return a.f
		}
	}
	return def
}

// attrI returns nd's integer attribute name, or def.
func (nd *onnxNode) attrI(name string, def int64) int64 {
	for _, a := range nd.attrs {
		if a.name == name && a.hasI {
			return a.i
		}
	}
	return def
}

// activation closes the pending map into a layer with nd's activation.
func (l *lowering) activation(nd *onnxNode, where string) error {
	act := map[string]Activation{"Relu": ActReLU, "Tanh": ActTanh, "Sigmoid": ActSigmoid, "LeakyRelu": ActLeakyReLU}[nd.op]
	slope := 0.0
	if act == ActLeakyReLU {
		// ONNX's default alpha, as a float32 attribute.
		slope = nd.attrF("alpha", float64(float32(0.01)))
		if !(slope >= 0 && slope <= 1) {
			return fmt.Errorf("nn: %s: alpha %v; vigil reads LeakyRelu with alpha in [0, 1]", where, slope)
		}
	}
	return l.closeLayer(Layer{Act: act, Slope: slope})
}

// closeLayer closes the pending map into a layer with a's activation
// (its Act, Slope, Lo and Hi).
func (l *lowering) closeLayer(a Layer) error {
	layers := l.net.Layers
	if a.Act == ActReLU && l.pendingEmpty && len(layers) > 0 && layers[len(layers)-1].Act == ActReLU {
		return nil // relu(relu(x)) = relu(x)
	}
	if err := l.c.dense(); err != nil {
		return err
	}
	a.In, a.Out, a.W, a.B = l.c.in, l.c.out, l.c.w, l.c.b
	l.net.Layers = append(layers, a)
	l.c = identity(l.c.out)
	l.pendingEmpty = true
	return nil
}

// outFunction makes Softmax or LogSoftmax the network's output function.
func (l *lowering) outFunction(nd *onnxNode, where string) error {
	// Over the axis along which the vector's elements lie (then opset
	// 13's reading, along the axis, and the older one, over the axes from
	// it on, agree).
	r := int64(len(l.dims))
	ax := nd.attrI("axis", -1)
	if ax < 0 {
		ax += r
	}
	if ax < 0 || ax >= r {
		return fmt.Errorf("nn: %s: axis %d of data of shape %v; vigil reads %s over the axis of a vector's elements", where, nd.attrI("axis", -1), l.dims, nd.op)
	}
	if l.tensorLike {
		return fmt.Errorf("nn: %s applies to data of shape %v (from input %q of shape %v); flatten the input first", where, l.dims, l.input.name, l.input.dims)
	}
	if l.c.out > 1 && l.dims[ax] == 1 {
		return fmt.Errorf("nn: %s: axis %d of %s of %d elements, shape %v, has size 1 (one element each); vigil reads %s over a vector's elements", where, nd.attrI("axis", -1), l.shape(), l.c.out, l.dims, nd.op)
	}
	l.net.Out = OutSoftmax
	if nd.op == "LogSoftmax" {
		l.net.Out = OutLogSoftmax
	}
	return nil
}

// dropout accepts a Dropout that passes its data through, as in
// inference (ONNX's default). In training mode (opset 12's training_mode
// operand true, or opset 6's is_test 0) onnxruntime zeroes random
// elements and scales the others by 1/(1 - ratio): reading that as the
// identity would verify another network.
func (l *lowering) dropout(nd *onnxNode, where string) error {
	for _, a := range nd.attrs {
		if a.name == "is_test" && a.hasI && a.i == 0 {
			return fmt.Errorf("nn: %s is in training mode (is_test 0), where it drops random elements; export the network in inference mode (model.eval() before torch.onnx.export)", where)
		}
	}
	if len(nd.inputs) < 3 || nd.inputs[2] == "" {
		return nil
	}
	train := l.consts[nd.inputs[2]]
	ratio := 0.5 // ONNX's default
	if len(nd.inputs) > 1 && nd.inputs[1] != "" {
		if r := l.consts[nd.inputs[1]]; len(r.data) == 1 {
			ratio = r.data[0]
		}
	}
	if len(train.data) != 1 || train.data[0] != 0 && ratio != 0 {
		return fmt.Errorf("nn: %s is in training mode (training_mode %q is true), where it drops random elements; export the network in inference mode (model.eval() before torch.onnx.export)", where, nd.inputs[2])
	}
	return nil
}

// reshape accepts a Reshape that keeps the data a vector.
func (l *lowering) reshape(nd *onnxNode, where string) error {
	shape, err := l.constArg(nd, 1, where)
	if err != nil {
		return err
	}
	n := l.c.out
	prod, neg := 1, false
	for _, d := range shape.data {
		switch {
		case d == -1:
			neg = true
		case d == 0:
			// copy a dimension; batch only
		default:
			prod *= int(d)
		}
	}
	if !(prod == n || (neg && n%max(prod, 1) == 0)) {
		return fmt.Errorf("nn: %s reshapes a %d-vector to %v; only reshapes that keep a vector are supported", where, n, shape.data)
	}
	// The new shape: 0 copies the dimension (ONNX's default), -1 takes
	// the rest. Several dimensions of size > 1 make the data a tensor
	// again (a Flatten may make it a vector).
	out := make([]int64, len(shape.data))
	known, rest := int64(1), -1
	for i, d := range shape.data {
		switch {
		case d == -1 && rest < 0:
			rest = i
			continue
		case d == 0 && i < len(l.dims):
			out[i] = l.dims[i]
		case d >= 1 && d <= float64(n) && d == float64(int64(d)):
			out[i] = int64(d)
		default:
			return fmt.Errorf("nn: %s reshapes data of shape %v to %v; vigil reads reshapes that keep the elements", where, l.dims, shape.data)
		}
		known *= out[i]
		if known > int64(n) {
			return fmt.Errorf("nn: %s reshapes a %d-vector to %v; only reshapes that keep a vector are supported", where, n, shape.data)
		}
	}
	if rest >= 0 {
		if known == 0 || int64(n)%known != 0 {
			return fmt.Errorf("nn: %s reshapes a %d-vector to %v; only reshapes that keep a vector are supported", where, n, shape.data)
		}
		out[rest] = int64(n) / known
		known = int64(n)
	}
	if known != int64(n) {
		return fmt.Errorf("nn: %s reshapes data of shape %v to %v; vigil reads reshapes that keep the elements", where, l.dims, shape.data)
	}
	l.setDims(out)
	return nil
}

// transpose permutes the dimensions of the data, a vector (a tensor with
// several dimensions of size > 1 would change the elements' order).
func (l *lowering) transpose(nd *onnxNode, where string) error {
	if l.tensorLike {
		return fmt.Errorf("nn: %s permutes the dimensions of input %q (shape %v); flatten the input first", where, l.input.name, l.input.dims)
	}
	r := len(l.dims)
	var perm []int64
	for _, a := range nd.attrs {
		if a.name == "perm" {
			perm = a.ints
		}
	}
	if perm == nil {
		for i := r - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	if len(perm) != r {
		return fmt.Errorf("nn: %s: perm %v for data of shape %v", where, perm, l.dims)
	}
	out, seen := make([]int64, r), make([]bool, r)
	for i, p := range perm {
		if p < 0 || p >= int64(r) || seen[p] {
			return fmt.Errorf("nn: %s: perm %v is not a permutation of the %d dimensions", where, perm, r)
		}
		seen[p] = true
		out[i] = l.dims[p]
	}
	l.setDims(out)
	return nil
}

// flatten reshapes the data to [prod(dims[:axis]), prod(dims[axis:])],
// which must be a vector (a row or a column).
func (l *lowering) flatten(nd *onnxNode, where string) error {
	r := int64(len(l.dims))
	ax := nd.attrI("axis", 1)
	if ax < 0 {
		ax += r
	}
	if ax < 0 || ax > r {
		return fmt.Errorf("nn: %s: axis %d of data of shape %v", where, nd.attrI("axis", 1), l.dims)
	}
	p, q := int64(1), int64(1)
	for i, d := range l.dims {
		if int64(i) < ax {
			p *= d
		} else {
			q *= d
		}
	}
	if p > 1 && q > 1 {
		return fmt.Errorf("nn: %s flattens data of shape %v at axis %d to a %d x %d matrix; vigil reads networks on vectors (flatten at the axis of the batch)", where, l.dims, nd.attrI("axis", 1), p, q)
	}
	l.setDims([]int64{p, q})
	return nil
}

// matmul composes a Gemm or MatMul with a constant matrix (and Gemm's
// bias) into the pending map.
func (l *lowering) matmul(nd *onnxNode, where string, dataIdx int) error {
	if len(nd.inputs) < 2 {
		return fmt.Errorf("nn: %s needs two operands", where)
	}
	wt, err := l.constArg(nd, 1-dataIdx, where)
	if err != nil {
		return err
	}
	if len(wt.dims) != 2 {
		return fmt.Errorf("nn: %s: weight %q has shape %v, want a matrix", where, wt.name, wt.dims)
	}
	alpha, beta := 1.0, 1.0
	trans := [2]bool{}
	if nd.op == "Gemm" {
		alpha, beta = nd.attrF("alpha", 1), nd.attrF("beta", 1)
		trans = [2]bool{nd.attrI("transA", 0) != 0, nd.attrI("transB", 0) != 0}
	}
	n := l.c.out
	// x W needs the data as a row (or 1-D), W x as a column (or 1-D);
	// Gemm's flag for the data's operand transposes it first.
	in := l.shape()
	if len(l.dims) == 0 || l.tensorLike || in == shapeOther && n > 1 {
		return fmt.Errorf("nn: %s multiplies data of shape %v; vigil reads products of a vector and a matrix", where, l.dims)
	}
	if nd.op == "Gemm" {
		if in == shapeFlat {
			in = shapeRow
		}
		if trans[dataIdx] {
			in = map[vecShape]vecShape{shapeRow: shapeColumn, shapeColumn: shapeRow}[in]
		}
	}
	if want := [2]vecShape{shapeRow, shapeColumn}[dataIdx]; n > 1 && in != want && in != shapeFlat {
		return fmt.Errorf("nn: %s multiplies %s of %d elements as operand %d, which takes %s", where, in, n, dataIdx+1, want)
	}
	M, m, err := weightMatrix(wt, n, alpha, dataIdx, trans, where)
	if err != nil {
		return err
	}
	var d []float64
	if nd.op == "Gemm" && len(nd.inputs) > 2 && nd.inputs[2] != "" {
		bt, err := l.constArg(nd, 2, where)
		if err != nil {
			return err
		}
		if len(bt.data) != 1 && len(bt.data) != m {
			return fmt.Errorf("nn: %s: bias %q has %d elements, want %d", where, bt.name, len(bt.data), m)
		}
		// C must broadcast to the result, 1 x m (data first) or m x 1:
		// a bias of shape [m, 1] added to a row (or [m] to a column)
		// would make an m x m matrix, which ONNX does not allow.
		res := [2]int64{1, int64(m)}
		if dataIdx == 1 {
			res = [2]int64{int64(m), 1}
		}
		if len(bt.dims) > 2 || len(bt.dims) >= 1 && bt.dims[len(bt.dims)-1] != 1 && bt.dims[len(bt.dims)-1] != res[1] || len(bt.dims) == 2 && bt.dims[0] != 1 && bt.dims[0] != res[0] {
			return fmt.Errorf("nn: %s: bias %q has shape %v, which does not broadcast to the result's shape %v", where, bt.name, bt.dims, res)
		}
		d = make([]float64, m)
		for i := range d {
			if len(bt.data) == 1 {
				d[i] = beta * bt.data[0]
			} else {
				d[i] = beta * bt.data[i]
			}
		}
	}
	if m*n > maxLayerElems {
		return fmt.Errorf("nn: %s: a %dx%d layer is too large for vigil", where, m, n)
	}
	if l.c, err = l.c.then(m, M, d); err != nil {
		return err
	}
	l.pendingEmpty = false
	r := len(l.dims)
	switch {
	case nd.op == "Gemm" && dataIdx == 0:
		l.setDims([]int64{1, int64(m)})
	case nd.op == "Gemm":
		l.setDims([]int64{int64(m), 1})
	case r == 1:
		l.setDims([]int64{int64(m)})
	case dataIdx == 0:
		l.setDims(append(append([]int64(nil), l.dims[:r-1]...), int64(m)))
	default:
		l.setDims(append(append([]int64(nil), l.dims[:r-2]...), int64(m), 1))
	}
	return nil
}

// weightMatrix returns the m x n matrix M (M[i][k]: the coefficient of
// data element k in output i, times alpha) of a product of the data
// (n elements, operand dataIdx) with the constant matrix wt, transposed
// where trans (Gemm's transA, transB) says.
func weightMatrix(wt *onnxTensor, n int, alpha float64, dataIdx int, trans [2]bool, where string) (M []float64, m int, err error) {
	// W' = W or W^T, transposed by the flag of the operand wt is: a rows x
	// cols matrix read through at.
	rows, cols := int(wt.dims[0]), int(wt.dims[1])
	stride := cols
	at := func(i, j int) float64 { return wt.data[i*stride+j] }
	if trans[1-dataIdx] {
		at = func(i, j int) float64 { return wt.data[j*stride+i] }
		rows, cols = cols, rows
	}
	// y = x W' (data first: W' is n x m) or y = W' x (W' is m x n).
	in, coef := cols, at
	m = rows
	if dataIdx == 0 {
		in, m = rows, cols
		coef = func(i, k int) float64 { return at(k, i) }
	}
	if in != n {
		return nil, 0, fmt.Errorf("nn: %s: weight %q has shape %v but the input has %d elements", where, wt.name, wt.dims, n)
	}
	M = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for k := 0; k < n; k++ {
			M[i*n+k] = alpha * coef(i, k)
		}
	}
	return M, m, nil
}

// elementwise composes an Add, Sub, Mul or Div by a constant (a scalar or
// one value per element) into the pending map.
func (l *lowering) elementwise(nd *onnxNode, where string, dataIdx int) error {
	if len(nd.inputs) != 2 {
		return fmt.Errorf("nn: %s needs two operands", where)
	}
	k, err := l.constArg(nd, 1-dataIdx, where)
	if err != nil {
		return err
	}
	if n := l.c.out; len(k.data) != 1 && len(k.data) != n {
		return fmt.Errorf("nn: %s: constant %q has %d elements, want 1 or %d", where, k.name, len(k.data), n)
	}
	// A constant acts element by element only where it broadcasts to
	// the data's shape (each of its dimensions, aligned from the last, is
	// 1 or the data's): otherwise it broadcasts the data to a matrix (a
	// row plus a constant of shape [n, 1]), which vigil does not compute.
	kd := k.dims
	if len(kd) == 0 && len(k.data) > 1 {
		kd = []int64{int64(len(k.data))}
	}
	out := append([]int64(nil), l.dims...)
	for len(out) < len(kd) {
		out = append([]int64{1}, out...)
	}
	for i, d := range kd {
		if j := len(out) - len(kd) + i; d != 1 && d != out[j] {
			return fmt.Errorf("nn: %s: constant %q has shape %v: it broadcasts %s of %d elements, shape %v, to a matrix; vigil reads element-wise constants of one value per element along the vector's axis", where, k.name, k.dims, l.shape(), l.c.out, l.dims)
		}
	}
	l.setDims(out)
	c := l.c
	switch nd.op {
	case "Add":
		c = c.shift(k.data, 1)
	case "Sub":
		if dataIdx == 0 {
			c = c.shift(k.data, -1)
		} else {
			if c, err = c.scale([]float64{-1}); err != nil {
				return err
			}
			c = c.shift(k.data, 1)
		}
	case "Mul":
		if c, err = c.scale(k.data); err != nil {
			return err
		}
	case "Div":
		if dataIdx != 0 {
			return fmt.Errorf("nn: %s divides a constant by the data; only division by constants is supported", where)
		}
		inv := make([]float64, len(k.data))
		for i, v := range k.data {
			if v == 0 {
				return fmt.Errorf("nn: %s divides by zero", where)
			}
			inv[i] = 1 / v
		}
		if c, err = c.scale(inv); err != nil {
			return err
		}
	}
	l.c = c
	l.pendingEmpty = false
	return nil
}
