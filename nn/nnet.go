package nn

// NNet is Kyle Julian's text format (Stanford, 2016): `//` header comments,
// then comma-separated lines
//
//	numLayers, inputSize, outputSize, maxLayerSize
//	layerSizes (numLayers+1 values)
//	symmetric flag (unused)
//	input minimums, input maximums (inputSize values each)
//	means, ranges (inputSize+1 values each; the last pair is for the outputs)
//	per layer: one line of weights per neuron, then one bias per line
//
// Hidden layers use ReLU, the last layer is linear. Inputs are clipped to
// [min, max] and normalised (x - mean) / range; outputs are de-normalised
// y * range + mean with the last mean and range.

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"vigil/internal/inputfile"
)

// LoadNNet reads an NNet file.
func LoadNNet(path string) (*Network, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	n, err := ParseNNet(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// ParseNNet decodes an NNet network from its text.
func ParseNNet(b []byte) (*Network, error) {
	var nums []float64
	var lines []int                           // line number of each value, for errors
	b = bytes.TrimPrefix(b, []byte("\ufeff")) // a UTF-8 byte-order mark
	for ln, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("nn: nnet line %d: %q is not a number", ln+1, f)
			}
			nums = append(nums, v)
			lines = append(lines, ln+1)
		}
	}
	// A file cut inside its last number still parses as a number: ask for
	// the separator that every writer puts after a value.
	t := strings.TrimRight(string(b), " \t\r")
	last := strings.TrimSpace(t[strings.LastIndex(t, "\n")+1:])
	if last != "" && !strings.HasSuffix(last, ",") && !strings.HasPrefix(last, "//") {
		return nil, fmt.Errorf("nn: nnet line %d: the last value is followed by neither a comma nor a line break; is the file cut short? (if it is complete, end it with a line break)", lines[len(lines)-1])
	}
	pos := 0
	var sections []nnetSection
	take := func(k int, what string) ([]float64, error) {
		if k < 0 || pos+k > len(nums) {
			return nil, fmt.Errorf("nn: nnet file ends early while reading %s; the file is truncated", what)
		}
		s := nums[pos : pos+k]
		sections = append(sections, nnetSection{start: pos, n: k, what: what})
		pos += k
		return s, nil
	}
	row := func(k int, kind string, layer, neuron int) []float64 {
		s := nums[pos : pos+k]
		sections = append(sections, nnetSection{start: pos, n: k, what: kind, layer: layer, neuron: neuron})
		pos += k
		return s
	}
	// integer reads the count at nums[at] (its line ends the message).
	integer := func(at int, what string) (int, error) {
		v := nums[at]
		if v > 1<<20 && v == math.Trunc(v) {
			return 0, fmt.Errorf("nn: nnet: %s %v is too large (at most 2^20; line %d)", what, v, lines[at])
		}
		if v != float64(int(v)) || v < 1 {
			return 0, fmt.Errorf("nn: nnet: %s %v is not a positive integer (line %d)", what, v, lines[at])
		}
		return int(v), nil
	}
	if _, err := take(4, "the header"); err != nil {
		return nil, err
	}
	nl, err := integer(0, "number of layers")
	if err != nil {
		return nil, err
	}
	nin, err := integer(1, "input size")
	if err != nil {
		return nil, err
	}
	nout, err := integer(2, "output size")
	if err != nil {
		return nil, err
	}
	if nl > 1000 {
		return nil, fmt.Errorf("nn: nnet: %d layers is too many (at most 1000)", nl)
	}
	if _, err := take(nl+1, "the layer sizes"); err != nil {
		return nil, err
	}
	sizes := make([]int, nl+1)
	total := 0
	for i := range sizes {
		if sizes[i], err = integer(4+i, "layer size"); err != nil {
			return nil, err
		}
		if i > 0 {
			total += sizes[i] * (sizes[i-1] + 1)
		}
	}
	if sizes[0] != nin || sizes[nl] != nout {
		return nil, fmt.Errorf("nn: nnet: layer sizes %v do not match %d inputs and %d outputs (line %d)", sizes, nin, nout, lines[4])
	}
	if _, err := take(1, "the symmetric flag"); err != nil {
		return nil, err
	}
	net := &Network{}
	var mins, maxs, means, ranges []float64
	if mins, err = take(nin, "the input minimums"); err != nil {
		return nil, err
	}
	if maxs, err = take(nin, "the input maximums"); err != nil {
		return nil, err
	}
	if means, err = take(nin+1, "the means"); err != nil {
		return nil, err
	}
	if ranges, err = take(nin+1, "the ranges"); err != nil {
		return nil, err
	}
	if len(nums)-pos < total {
		return nil, fmt.Errorf("nn: nnet file ends early: %d weights and biases, want %d; the file is truncated", len(nums)-pos, total)
	}
	cp := func(s []float64) []float64 { return append([]float64(nil), s...) }
	net.InMin, net.InMax = cp(mins), cp(maxs)
	net.InMean, net.InRange = cp(means[:nin]), cp(ranges[:nin])
	net.OutMean, net.OutRange = make([]float64, nout), make([]float64, nout)
	for i := range net.OutMean {
		net.OutMean[i], net.OutRange[i] = means[nin], ranges[nin]
	}
	for i := 1; i <= nl; i++ {
		in, out := sizes[i-1], sizes[i]
		w, bias := make([]float64, 0, in*out), make([]float64, 0, out)
		for r := 0; r < out; r++ {
			w = append(w, row(in, "weights", i, r+1)...)
		}
		for r := 0; r < out; r++ {
			bias = append(bias, row(1, "bias", i, r+1)...)
		}
		net.Layers = append(net.Layers, Layer{In: in, Out: out, W: w, B: bias, Act: actIf(i < nl, ActReLU)})
	}
	if pos != len(nums) {
		return nil, fmt.Errorf("nn: nnet: %d extra values after the last layer (from line %d); check the layer sizes", len(nums)-pos, lines[pos])
	}
	// NNet's readers (nnet.py's, Marabou's, PlaJA's) read it line by
	// line: the header's first four values, then a line each for the
	// layer sizes, the symmetric flag, the minimums, maximums, means and
	// ranges, every neuron's weights and every bias. A file whose values
	// are right in number but not in lines means another network to them.
	for k, sec := range sections {
		first, last := lines[sec.start], lines[sec.start+sec.n-1]
		shared := sec.start > 0 && lines[sec.start-1] == first
		spill := k > 0 && sec.start+sec.n < len(nums) && lines[sec.start+sec.n] == last
		if first != last || shared || spill {
			if k == 0 && first == last && !shared {
				continue // the header line may hold more (maxLayerSize is the fourth)
			}
			return nil, fmt.Errorf("nn: nnet line %d: %s (%d values) must fill a line of its own, as NNet readers read the file line by line; "+
				"line %d holds %d values: check the layer sizes and the line breaks", first, sec, sec.n, first, count(lines, first))
		}
	}
	for i, l := range net.Layers {
		for r, v := range l.W {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("nn: layer %d: weight %v is not finite (nnet line %d, neuron %d); retrain or re-export the network", i+1, v, nnetLine(sections, lines, "weights", i+1, r/l.In+1), r/l.In+1)
			}
		}
		for r, v := range l.B {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("nn: layer %d: bias %v is not finite (nnet line %d); retrain or re-export the network", i+1, v, nnetLine(sections, lines, "bias", i+1, r+1))
			}
		}
	}
	for i := range mins {
		if mins[i] > maxs[i] {
			return nil, fmt.Errorf("nn: nnet line %d: input %d's minimum %v exceeds its maximum %v (line %d)",
				nnetLine(sections, lines, "the input minimums", 0, 0), i+1, mins[i], maxs[i], nnetLine(sections, lines, "the input maximums", 0, 0))
		}
	}
	for k, name := range []string{"the input minimums", "the input maximums", "the means", "the ranges"} {
		vals := [][]float64{mins, maxs, means, ranges}[k]
		for i, v := range vals {
			if math.IsNaN(v) || (k >= 2 && math.IsInf(v, 0)) || (k == 3 && !(v > 0)) {
				return nil, fmt.Errorf("nn: nnet line %d: value %d of %s is %v; want a number (finite for means, finite and positive for ranges)",
					nnetLine(sections, lines, name, 0, 0), i+1, name, v)
			}
		}
	}
	if err := net.validate(); err != nil {
		return nil, err
	}
	return net, nil
}

// count returns how many values lie on line ln.
func count(lines []int, ln int) int {
	n := 0
	for _, l := range lines {
		if l == ln {
			n++
		}
	}
	return n
}

// nnetSection is a run of values that NNet's readers read from one line:
// what names it; a weight row or bias also has its layer and neuron (from 1).
type nnetSection struct {
	start, n      int
	what          string
	layer, neuron int
}

func (s nnetSection) String() string {
	switch s.what {
	case "weights":
		return fmt.Sprintf("the weights of layer %d neuron %d", s.layer, s.neuron)
	case "bias":
		return fmt.Sprintf("the bias of layer %d neuron %d", s.layer, s.neuron)
	}
	return s.what
}

// nnetLine returns the line of the section what (of layer and neuron).
func nnetLine(sections []nnetSection, lines []int, what string, layer, neuron int) int {
	for _, s := range sections {
		if s.what == what && s.layer == layer && s.neuron == neuron {
			return lines[s.start]
		}
	}
	return 0
}

// WriteNNet writes n in NNet format. Networks without normalisation get
// identity normalisation and unbounded (±1e30) clipping ranges; networks
// whose output transform differs per output cannot be written.
func WriteNNet(n *Network) ([]byte, error) {
	nin, nout := n.Inputs(), n.Outputs()
	for i, l := range n.Layers {
		if l.Act != actIf(i < len(n.Layers)-1, ActReLU) || n.Out != OutNone {
			return nil, fmt.Errorf("nn: NNet needs ReLU after every hidden layer and a linear last layer, without Softmax (layer %d is %s); write vigil JSON instead", i+1, l.Act)
		}
	}
	outMean, outRange := 0.0, 1.0
	if n.OutMean != nil {
		outMean, outRange = n.OutMean[0], n.OutRange[0]
		for i := range n.OutMean {
			if n.OutMean[i] != outMean || n.OutRange[i] != outRange {
				return nil, fmt.Errorf("nn: NNet has one output mean and range; this network's differ per output")
			}
		}
	}
	var b strings.Builder
	b.WriteString("// Neural Network File Format by Kyle Julian, Stanford 2016\n// written by vigil\n")
	maxw := n.maxWidth()
	fmt.Fprintf(&b, "%d,%d,%d,%d,\n", len(n.Layers), nin, nout, maxw)
	fmt.Fprintf(&b, "%d,", nin)
	for _, l := range n.Layers {
		fmt.Fprintf(&b, "%d,", l.Out)
	}
	b.WriteString("\n0,\n")
	row := func(vals []float64, def float64, extra ...float64) {
		for i := 0; i < nin; i++ {
			v := def
			if vals != nil {
				v = vals[i]
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
		}
		for _, v := range extra {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
		}
		b.WriteString("\n")
	}
	row(n.InMin, -1e30)
	row(n.InMax, 1e30)
	row(n.InMean, 0, outMean)
	row(n.InRange, 1, outRange)
	for _, l := range n.Layers {
		for i := 0; i < l.Out; i++ {
			for j := 0; j < l.In; j++ {
				b.WriteString(strconv.FormatFloat(l.W[i*l.In+j], 'g', -1, 64) + ",")
			}
			b.WriteString("\n")
		}
		for i := 0; i < l.Out; i++ {
			b.WriteString(strconv.FormatFloat(l.B[i], 'g', -1, 64) + ",\n")
		}
	}
	return []byte(b.String()), nil
}
