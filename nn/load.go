package nn

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

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

// LoadShared is LoadOutput through a cache of the networks it loaded, kept
// by the file's content (its SHA-256), the format its name gives and
// output: the file is read once per call and parsed only when that
// content was not loaded before. The --policy-file check of package load
// (the file's input and output counts) and the policy bound to the file
// (NewPolicy) then parse a large network once, as do the two model loads
// of vigil faults. The network returned is shared: it must not be changed.
//
// The cache is not kept by the file's path, size and modification time: a
// file rewritten with the same size and time (cp -p, an archive's fixed
// dates, a rewrite within the clock's resolution) then bound the weights
// of the file that was there before. Errors are not kept.
//
// A file loaded again from the same path, of the same size, is first
// hashed as a stream: when its content is the one loaded before, the call
// reads it without holding its bytes (a large file's size in memory).
func LoadShared(path, output string) (*Network, error) {
	if n := shared.again(path, output); n != nil {
		return n, nil
	}
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	f := format(path, b)
	key := sharedKey{sum: sha256.Sum256(b), format: f, output: output}
	if n := shared.get(key); n != nil {
		shared.remember(path, key, int64(len(b)))
		return n, nil
	}
	n, err := parseFile(path, f, b, output)
	if err != nil {
		return nil, err
	}
	shared.put(key, n, path, int64(len(b)))
	return n, nil
}

// sharedKey is what a network of LoadShared is kept by.
type sharedKey struct {
	sum    [sha256.Size]byte
	format string
	output string
}

// maxShared is how many networks LoadShared keeps: the latest ones. A
// command binds a few; a long-lived process (vigil lsp, a batch) that
// loads many files one after another does not keep them all.
const maxShared = 4

// shared holds LoadShared's networks.
var shared sharedCache

type sharedCache struct {
	sync.Mutex
	keys []sharedKey // oldest first
	nets map[sharedKey]*Network
	// last says, per path and output, the content last loaded from there
	// and its size (again)
	last   map[[2]string]lastLoad
	parses int // the misses: files parsed (for the tests)
}

type lastLoad struct {
	key  sharedKey
	size int64
}

// get returns the network kept for key, or nil (a miss).
func (c *sharedCache) get(key sharedKey) *Network {
	c.Lock()
	defer c.Unlock()
	n := c.nets[key]
	if n == nil {
		c.parses++
	}
	return n
}

// again returns the network last loaded from path with output when the
// file still holds that content: a regular file of the same size whose
// bytes, hashed as a stream, have the same SHA-256; else nil.
func (c *sharedCache) again(path, output string) *Network {
	c.Lock()
	last, ok := c.last[[2]string{path, output}]
	n := c.nets[last.key]
	c.Unlock()
	if !ok || n == nil {
		return nil
	}
	if !sameContent(path, last.size, last.key.sum) {
		return nil
	}
	return n
}

// sameContent reports whether the file at path is a regular file of size
// bytes whose SHA-256 is sum, reading it as a stream.
func sameContent(path string, size int64, sum [sha256.Size]byte) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
		return false // not opened: a FIFO would block
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if n, err := io.Copy(h, io.LimitReader(f, size+1)); err != nil || n != size {
		return false
	}
	return bytes.Equal(h.Sum(nil), sum[:])
}

// remember records that path (size bytes) held the content of key (again).
func (c *sharedCache) remember(path string, key sharedKey, size int64) {
	c.Lock()
	defer c.Unlock()
	if c.last == nil {
		c.last = map[[2]string]lastLoad{}
	}
	c.last[[2]string{path, key.output}] = lastLoad{key, size}
}

// put keeps n for key, loaded from path (size bytes), dropping the oldest
// network beyond maxShared.
func (c *sharedCache) put(key sharedKey, n *Network, path string, size int64) {
	c.remember(path, key, size)
	c.Lock()
	defer c.Unlock()
	if c.nets == nil {
		c.nets = map[sharedKey]*Network{}
	}
	if _, ok := c.nets[key]; ok {
		return // parsed by two callers at once: keep the first
	}
	c.nets[key] = n
	c.keys = append(c.keys, key)
	if len(c.keys) > maxShared {
		old := c.keys[0]
		delete(c.nets, old)
		c.keys = append(c.keys[:0:0], c.keys[1:]...)
		for p, l := range c.last {
			if l.key == old {
				delete(c.last, p)
			}
		}
	}
}

// SharedParses reports how many files LoadShared parsed in this process
// (the misses of its cache), for tests of the callers that must parse a
// file once.
func SharedParses() int {
	shared.Lock()
	defer shared.Unlock()
	return shared.parses
}

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
