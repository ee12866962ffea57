// Package filecache keeps the latest few values parsed from files, by the
// file's content (its SHA-256) and what else the parse depends on: nn and
// trees share their parsed policy files through it (nn.LoadShared,
// trees.LoadShared), so that load's --policy-file check and the policies
// bound to the file parse a large file once.
//
// It is not kept by a file's path, size and modification time: a file
// rewritten with the same size and time (cp -p, an archive's fixed dates,
// a rewrite within the clock's resolution) then bound the value of the
// file that was there before. Errors are not kept. A file loaded again
// from the same path, of the same size, is first hashed as a stream: when
// its content is the one loaded before, the call reads it without holding
// its bytes (a large file's size in memory).
package filecache

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"sync"
)

// Keep is how many values a Cache keeps: the latest ones. A command binds
// a few; a long-lived process (vigil lsp, a batch) that loads many files
// one after another does not keep them all.
const Keep = 4

// Cache keeps values of type V; its zero value is an empty cache, safe for
// use by several goroutines. The values it returns are shared: they must
// not be changed.
type Cache[V any] struct {
	mu   sync.Mutex
	keys []key // oldest first
	vals map[key]V
	// last says, per path and use, the content last loaded from there and
	// its size (again)
	last   map[[2]string]lastLoad
	parses int // the misses: files parsed (for the tests)
}

// key is what a value is kept by: the content's SHA-256 and the tag that
// says what else its parse depends on.
type key struct {
	sum [sha256.Size]byte
	tag string
}

type lastLoad struct {
	key  key
	size int64
}

// Load returns the value of the file at path for use (the part of the
// tag that does not depend on the content, e.g. an ONNX output's name):
// the one kept when the file holds content loaded before with the same
// tag, else parse's value of the bytes read, kept when parse succeeds.
// read reads the file (its errors are returned as they are); tag gives
// what, beside the content and use, the parse depends on.
func (c *Cache[V]) Load(path, use string, read func() ([]byte, error), tag func(b []byte) string, parse func(b []byte) (V, error)) (V, error) {
	if v, ok := c.again(path, use); ok {
		return v, nil
	}
	b, err := read()
	if err != nil {
		var zero V
		return zero, err
	}
	k := key{sum: sha256.Sum256(b), tag: tag(b) + "\x00" + use}
	if v, ok := c.get(k); ok {
		c.remember(path, use, k, int64(len(b)))
		return v, nil
	}
	v, err := parse(b)
	if err != nil {
		return v, err
	}
	c.put(k, v, path, use, int64(len(b)))
	return v, nil
}

// Parses reports how many files Load parsed (the misses of the cache),
// for tests of the callers that must parse a file once.
func (c *Cache[V]) Parses() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parses
}

// get returns the value kept for k; ok is false on a miss.
func (c *Cache[V]) get(k key) (v V, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok = c.vals[k]
	if !ok {
		c.parses++
	}
	return v, ok
}

// again returns the value last loaded from path for use when the file
// still holds that content: a regular file of the same size whose bytes,
// hashed as a stream, have the same SHA-256.
func (c *Cache[V]) again(path, use string) (v V, ok bool) {
	c.mu.Lock()
	last, found := c.last[[2]string{path, use}]
	v, kept := c.vals[last.key]
	c.mu.Unlock()
	if !found || !kept || !sameContent(path, last.size, last.key.sum) {
		var zero V
		return zero, false
	}
	return v, true
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

// remember records that path (size bytes) held the content of k for use.
func (c *Cache[V]) remember(path, use string, k key, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = map[[2]string]lastLoad{}
	}
	c.last[[2]string{path, use}] = lastLoad{k, size}
}

// put keeps v for k, loaded from path (size bytes) for use, dropping the
// oldest value beyond Keep.
func (c *Cache[V]) put(k key, v V, path, use string, size int64) {
	c.remember(path, use, k, size)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vals == nil {
		c.vals = map[key]V{}
	}
	if _, ok := c.vals[k]; ok {
		return // parsed by two callers at once: keep the first
	}
	c.vals[k] = v
	c.keys = append(c.keys, k)
	if len(c.keys) > Keep {
		old := c.keys[0]
		delete(c.vals, old)
		c.keys = append(c.keys[:0:0], c.keys[1:]...)
		for p, l := range c.last {
			if l.key == old {
				delete(c.last, p)
			}
		}
	}
}
