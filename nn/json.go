package nn

// vigil's JSON network format, easy to write from any framework:
//
//	{
//	  "format": "vigil-nn",            // required, exactly this
//	  "version": 1,                    // required, 1
//	  "layers": [                      // in order from the input
//	    {"weights": [[...], ...],      // one row per output neuron (out x in)
//	     "bias": [...],                // one per output neuron
//	     "activation": "relu"},        // "relu", "tanh", "sigmoid", "leaky_relu"
//	                                   // (with "slope": 0.01), "clip" (with "min"
//	                                   // and/or "max") or "linear" (default)
//	    ...
//	  ],
//	  "output": "softmax",             // optional: "softmax" or "log_softmax" last
//	  "input_min":  [...], "input_max":   [...],   // optional: clip inputs
//	  "input_mean": [...], "input_range": [...],   // optional: (x-mean)/range
//	  "output_mean": [...], "output_range": [...]  // optional: y*range+mean
//	}
//
// This is PyTorch's convention: weights[i][j] multiplies input j of
// neuron i (nn.Linear.weight). In Python:
//
//	json.dump({"format": "vigil-nn", "version": 1, "layers": [
//	    {"weights": l.weight.tolist(), "bias": l.bias.tolist(),
//	     "activation": "relu" if i < last else "linear"}
//	    for i, l in enumerate(linears)]}, f)

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"vigil/internal/inputfile"
	"vigil/internal/jsonerr"
)

type jsonLayer struct {
	Weights    [][]float64 `json:"weights"`
	Bias       []float64   `json:"bias"`
	Activation string      `json:"activation,omitempty"`
	Slope      *float64    `json:"slope,omitempty"`
	// Min and Max are a "clip" layer's bounds; one left out is no bound.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

type jsonNet struct {
	Format      string      `json:"format"`
	Version     int         `json:"version"`
	Layers      []jsonLayer `json:"layers"`
	InputMin    []float64   `json:"input_min,omitempty"`
	InputMax    []float64   `json:"input_max,omitempty"`
	InputMean   []float64   `json:"input_mean,omitempty"`
	InputRange  []float64   `json:"input_range,omitempty"`
	OutputMean  []float64   `json:"output_mean,omitempty"`
	OutputRange []float64   `json:"output_range,omitempty"`
	Output      string      `json:"output,omitempty"`
}

// LoadJSON reads a network in vigil's JSON format.
func LoadJSON(path string) (*Network, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	n, err := ParseJSON(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// utf8BOM is the UTF-8 byte order mark, which JSON does not allow.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ParseJSON decodes a network in vigil's JSON format.
func ParseJSON(b []byte) (*Network, error) {
	if bytes.HasPrefix(b, utf8BOM) {
		return nil, fmt.Errorf("nn: vigil JSON network: the file starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow; save it without one")
	}
	var j jsonNet
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		return nil, fmt.Errorf("nn: vigil JSON network: %s", jsonerr.Describe(b, err))
	}
	// One object, as json.Unmarshal and the tree loaders read a file:
	// the decoder stops after the first value, and a second network
	// appended to the file (or any text) was ignored.
	rest := bytes.TrimLeft(b[d.InputOffset():], " \t\r\n")
	if len(rest) > 0 {
		return nil, fmt.Errorf("nn: vigil JSON network: text after the network's JSON object, at byte %d (%q); a file holds one network", len(b)-len(rest)+1, rest[:min(len(rest), 20)])
	}
	if j.Format != "vigil-nn" || j.Version != 1 {
		return nil, fmt.Errorf("nn: vigil JSON network: want \"format\": \"vigil-nn\" and \"version\": 1, got %q and %d", j.Format, j.Version)
	}
	net := &Network{InMin: j.InputMin, InMax: j.InputMax, InMean: j.InputMean, InRange: j.InputRange,
		OutMean: j.OutputMean, OutRange: j.OutputRange}
	for i, l := range j.Layers {
		if len(l.Weights) == 0 {
			return nil, fmt.Errorf("nn: vigil JSON network: layer %d has no weights", i+1)
		}
		in := len(l.Weights[0])
		L := Layer{In: in, Out: len(l.Weights), B: l.Bias}
		for r, row := range l.Weights {
			if len(row) != in {
				return nil, fmt.Errorf("nn: vigil JSON network: layer %d: row %d has %d weights, row 1 has %d", i+1, r+1, len(row), in)
			}
			L.W = append(L.W, row...)
		}
		switch l.Activation {
		case "relu":
			L.Act = ActReLU
		case "tanh":
			L.Act = ActTanh
		case "sigmoid":
			L.Act = ActSigmoid
		case "leaky_relu":
			L.Act, L.Slope = ActLeakyReLU, 0.01
			if l.Slope != nil {
				L.Slope = *l.Slope
			}
		case "clip":
			L.Act, L.Lo, L.Hi = ActClip, math.Inf(-1), math.Inf(1)
			if l.Min != nil {
				L.Lo = *l.Min
			}
			if l.Max != nil {
				L.Hi = *l.Max
			}
		case "", "linear":
		default:
			return nil, fmt.Errorf("nn: vigil JSON network: layer %d: activation %q is not supported (use \"relu\", \"tanh\", \"sigmoid\", \"leaky_relu\", \"clip\" or \"linear\")", i+1, l.Activation)
		}
		if l.Slope != nil && L.Act != ActLeakyReLU {
			return nil, fmt.Errorf("nn: vigil JSON network: layer %d: \"slope\" is for \"leaky_relu\" layers only", i+1)
		}
		if (l.Min != nil || l.Max != nil) && L.Act != ActClip {
			return nil, fmt.Errorf("nn: vigil JSON network: layer %d: \"min\" and \"max\" are for \"clip\" layers only", i+1)
		}
		net.Layers = append(net.Layers, L)
	}
	switch j.Output {
	case "":
	case "softmax":
		net.Out = OutSoftmax
	case "log_softmax":
		net.Out = OutLogSoftmax
	default:
		return nil, fmt.Errorf("nn: vigil JSON network: output %q is not supported (use \"softmax\", \"log_softmax\" or leave it out)", j.Output)
	}
	if err := net.validate(); err != nil {
		return nil, err
	}
	return net, nil
}

// MarshalJSON writes n in vigil's JSON format.
func (n *Network) MarshalJSON() ([]byte, error) {
	j := jsonNet{Format: "vigil-nn", Version: 1, InputMin: n.InMin, InputMax: n.InMax, InputMean: n.InMean,
		InputRange: n.InRange, OutputMean: n.OutMean, OutputRange: n.OutRange}
	if n.Out != OutNone {
		j.Output = n.Out.String()
	}
	for _, l := range n.Layers {
		jl := jsonLayer{Bias: l.B, Activation: l.Act.String()}
		if l.Act == ActLeakyReLU {
			jl.Slope = &l.Slope
		}
		if l.Act == ActClip {
			if !math.IsInf(l.Lo, -1) {
				jl.Min = &l.Lo
			}
			if !math.IsInf(l.Hi, 1) {
				jl.Max = &l.Hi
			}
		}
		for i := 0; i < l.Out; i++ {
			jl.Weights = append(jl.Weights, l.W[i*l.In:(i+1)*l.In])
		}
		j.Layers = append(j.Layers, jl)
	}
	return json.Marshal(j)
}
