package nn

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"vigil/internal/inputfile"
)

// Load reads a network file: ONNX (.onnx), NNet (.nnet) or vigil JSON
// (.json). Other extensions are recognised by their content.
func Load(path string) (*Network, error) { return LoadOutput(path, "") }

// LoadOutput reads a network file; output names the ONNX graph output that
// holds the scores ("": the only one). Other formats have one output, and
// naming one is an error.
func LoadOutput(path, output string) (*Network, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	var n *Network
	ext := strings.ToLower(filepath.Ext(path))
	if t := bytes.TrimSpace(b); ext != ".onnx" && ext != ".nnet" && ext != ".json" {
		switch { // recognised by content, as below
		case bytes.HasPrefix(t, []byte("{")):
			ext = ".json"
		case bytes.HasPrefix(t, []byte("//")):
			ext = ".nnet"
		}
	}
	if output != "" && (ext == ".nnet" || ext == ".json") {
		return nil, fmt.Errorf("%s: nn: output %q names an ONNX graph output, but this is a%s file, with one output vector; leave out the output line (or --output)", path, output, map[string]string{".nnet": "n NNet", ".json": " vigil JSON network"}[ext])
	}
	switch ext {
	case ".onnx":
		n, err = ParseONNXOutput(b, output)
	case ".nnet":
		n, err = ParseNNet(b)
	case ".json":
		n, err = ParseJSON(b)
	default:
		t := bytes.TrimSpace(b)
		switch {
		case bytes.HasPrefix(t, []byte("{")):
			n, err = ParseJSON(b)
		case bytes.HasPrefix(t, []byte("//")):
			n, err = ParseNNet(b)
		default:
			n, err = ParseONNXOutput(b, output)
			if err != nil {
				err = fmt.Errorf("nn: %s is not a network vigil recognises (name it .onnx, .nnet or .json): %v", filepath.Base(path), err)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
