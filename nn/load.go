package nn

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"vigil/internal/filecache"
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
	return parseFile(path, format(path, b), b, output)
}

// LoadShared is LoadOutput through a cache of the networks it loaded
// (internal/filecache), kept by the file's content (its SHA-256), the
// format its name gives and output: the file is read once per call and
// parsed only when that content was not loaded before. The --policy-file
// check of package load (the file's input and output counts) and the
// policy bound to the file (NewPolicy) then parse a large network once,
// as do the two model loads of vigil faults. The network returned is
// shared: it must not be changed.
func LoadShared(path, output string) (*Network, error) {
	return shared.Load(path, output,
		func() ([]byte, error) {
			b, err := inputfile.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("nn: %v", err)
			}
			return b, nil
		},
		func(b []byte) string { return format(path, b) },
		func(b []byte) (*Network, error) { return parseFile(path, format(path, b), b, output) })
}

// shared holds LoadShared's networks.
var shared filecache.Cache[*Network]

// SharedParses reports how many files LoadShared parsed in this process
// (the misses of its cache), for tests of the callers that must parse a
// file once.
func SharedParses() int { return shared.Parses() }

// format is the format of the network file at path with content b: its
// extension (lower case), or for another one ".json" or ".nnet" when the
// content says so, else the extension as it is.
func format(path string, b []byte) string {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".onnx" || ext == ".nnet" || ext == ".json" {
		return ext
	}
	switch t := bytes.TrimSpace(b); { // recognised by content
	case bytes.HasPrefix(t, []byte("{")):
		return ".json"
	case bytes.HasPrefix(t, []byte("//")):
		return ".nnet"
	}
	return ext
}

// parseFile parses b, the content of the network file at path, in the
// format ext (format's answer).
func parseFile(path, ext string, b []byte, output string) (*Network, error) {
	if output != "" && (ext == ".nnet" || ext == ".json") {
		return nil, fmt.Errorf("%s: nn: output %q names an ONNX graph output, but this is a%s file, with one output vector; leave out the output line (or --output)", path, output, map[string]string{".nnet": "n NNet", ".json": " vigil JSON network"}[ext])
	}
	var n *Network
	var err error
	switch ext {
	case ".onnx":
		n, err = ParseONNXOutput(b, output)
	case ".nnet":
		n, err = ParseNNet(b)
	case ".json":
		n, err = ParseJSON(b)
	default:
		n, err = ParseONNXOutput(b, output)
		if err != nil {
			err = fmt.Errorf("nn: %s is not a network vigil recognises (name it .onnx, .nnet or .json): %v", filepath.Base(path), err)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
