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
func Load(path string) (*Network, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	var n *Network
	switch strings.ToLower(filepath.Ext(path)) {
	case ".onnx":
		n, err = ParseONNX(b)
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
			n, err = ParseONNX(b)
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
