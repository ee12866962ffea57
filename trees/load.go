package trees

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"

	"vigil/internal/inputfile"
	"vigil/internal/jsonerr"
)

// Load reads a tree ensemble from path. The format is recognised from the
// content: XGBoost save_model JSON (an object with "learner") or UBJSON
// (the same document in binary, ubjson.go), Veritas JSON
// (an object with "trees" and "base_scores"), or LightGBM's text model
// (lines "key=value" with "Tree=N" sections).
func Load(path string) (*Ensemble, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trees: %w", err)
	}
	e, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return e, nil
}

// LoadShared is Load through a cache of the ensembles it loaded, kept by
// the file's content (its SHA-256): the file is read once per call and
// parsed only when that content was not loaded before. The --policy-file
// check of package load (the file's feature and class counts) and the
// policies bound to the file (NewPolicy, one per goroutine of a search)
// then parse a large ensemble once, as do the two model loads of vigil
// faults. The ensemble returned is shared: it must not be changed. The
// cache is not kept by path, size and modification time, which a file
// rewritten with the same size and time fools. Errors are not kept. A
// file loaded again from the same path, of the same size, is first hashed
// as a stream: when its content is the one loaded before, the call reads
// it without holding its bytes (a large file's size in memory).
func LoadShared(path string) (*Ensemble, error) {
	if e := shared.again(path); e != nil {
		return e, nil
	}
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trees: %w", err)
	}
	key := sha256.Sum256(data)
	if e := shared.get(key); e != nil {
		shared.remember(path, key, int64(len(data)))
		return e, nil
	}
	e, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	shared.put(key, e, path, int64(len(data)))
	return e, nil
}

// maxShared is how many ensembles LoadShared keeps: the latest ones. A
// command binds a few; a long-lived process (vigil lsp, a batch) that
// loads many files one after another does not keep them all.
const maxShared = 4

// shared holds LoadShared's ensembles.
var shared sharedCache

type sharedCache struct {
	sync.Mutex
	keys [][sha256.Size]byte // oldest first
	ens  map[[sha256.Size]byte]*Ensemble
	// last says, per path, the content last loaded from there and its
	// size (again)
	last   map[string]lastLoad
	parses int // the misses: files parsed (for the tests)
}

type lastLoad struct {
	key  [sha256.Size]byte
	size int64
}

// get returns the ensemble kept for key, or nil (a miss).
func (c *sharedCache) get(key [sha256.Size]byte) *Ensemble {
	c.Lock()
	defer c.Unlock()
	e := c.ens[key]
	if e == nil {
		c.parses++
	}
	return e
}

// again returns the ensemble last loaded from path when the file still
// holds that content: a regular file of the same size whose bytes, hashed
// as a stream, have the same SHA-256; else nil.
func (c *sharedCache) again(path string) *Ensemble {
	c.Lock()
	last, ok := c.last[path]
	e := c.ens[last.key]
	c.Unlock()
	if !ok || e == nil {
		return nil
	}
	if !sameContent(path, last.size, last.key) {
		return nil
	}
	return e
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
func (c *sharedCache) remember(path string, key [sha256.Size]byte, size int64) {
	c.Lock()
	defer c.Unlock()
	if c.last == nil {
		c.last = map[string]lastLoad{}
	}
	c.last[path] = lastLoad{key, size}
}

// put keeps e for key, loaded from path (size bytes), dropping the oldest
// ensemble beyond maxShared.
func (c *sharedCache) put(key [sha256.Size]byte, e *Ensemble, path string, size int64) {
	c.remember(path, key, size)
	c.Lock()
	defer c.Unlock()
	if c.ens == nil {
		c.ens = map[[sha256.Size]byte]*Ensemble{}
	}
	if _, ok := c.ens[key]; ok {
		return // parsed by two callers at once: keep the first
	}
	c.ens[key] = e
	c.keys = append(c.keys, key)
	if len(c.keys) > maxShared {
		old := c.keys[0]
		delete(c.ens, old)
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

// Parse reads a tree ensemble from its file content (see Load).
func Parse(data []byte) (*Ensemble, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, fmt.Errorf("trees: the model file is empty")
	}
	if bytes.HasPrefix(t, []byte("binf")) {
		return nil, fmt.Errorf("trees: the model is in XGBoost's old binary format; vigil reads XGBoost JSON: load it in XGBoost and save it with Booster.save_model(\"model.json\")")
	}
	if bytes.HasPrefix(t, []byte("booster[")) || (t[0] == '[' && bytes.Contains(t[:min(len(t), 200)], []byte(`"nodeid"`))) {
		// Booster.dump_model / get_dump, as text or JSON: the trees
		// without the base score and objective, which the scores need.
		return nil, fmt.Errorf("trees: the model is an XGBoost dump (Booster.dump_model or get_dump), which leaves out the base score and the objective; vigil reads XGBoost's save_model JSON: save it with Booster.save_model(\"model.json\")")
	}
	if t[0] != '{' {
		return ParseLightGBM(data)
	}
	if len(t) > 1 && bytes.IndexByte([]byte("iUIlL"), t[1]) >= 0 && bytes.Contains(t, []byte("learner")) {
		// UBJSON, XGBoost's binary JSON (save_model("model.ubj")): an
		// object whose keys start with their length's type marker (i,
		// U, I, l or L), where text JSON has a quote, a brace or space
		// (ubjson.go).
		js, err := ubjsonToJSON(bytes.TrimLeft(data, " \t\r\n"))
		if err != nil {
			return nil, err
		}
		if err := foldedKeys(js, xgbKeys, "XGBoost"); err != nil {
			return nil, fmt.Errorf("%w (the model was decoded from UBJSON)", err)
		}
		e, err := ParseXGBoost(js)
		if err != nil {
			return nil, fmt.Errorf("%w (the model was decoded from UBJSON)", err)
		}
		return e, nil
	}
	// Tell the formats apart by their keys without decoding the file twice;
	// each parser reports what is wrong with the JSON itself.
	if bytes.Contains(t, []byte(`"learner"`)) {
		if err := foldedKeys(t, xgbKeys, "XGBoost"); err != nil {
			return nil, err
		}
		return ParseXGBoost(data)
	}
	if bytes.Contains(t, []byte(`"trees"`)) {
		if err := foldedKeys(t, veritasKeys, "Veritas"); err != nil {
			return nil, err
		}
		return ParseVeritas(data)
	}
	if !json.Valid(t) {
		var v any
		return nil, fmt.Errorf("trees: the model is not valid JSON: %s", jsonerr.Describe(t, json.Unmarshal(t, &v)))
	}
	return nil, fmt.Errorf("trees: unknown JSON model: want XGBoost save_model JSON (with \"learner\") or Veritas JSON (with \"trees\"); for XGBoost use Booster.save_model(\"model.json\"), not dump_model")
}

// The object keys the XGBoost and Veritas decoders look for.
var (
	xgbKeys     = structKeys(reflect.TypeOf(xgbFile{}), map[string]bool{})
	veritasKeys = structKeys(reflect.TypeOf(veritasFile{}), map[string]bool{})
)

// structKeys collects the JSON names of t's fields and of the structs
// they hold.
func structKeys(t reflect.Type, keys map[string]bool) map[string]bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return structKeys(t.Elem(), keys)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				if keys[name] {
					continue
				}
				keys[name] = true
			}
			structKeys(f.Type, keys)
		}
	}
	return keys
}

// foldedKeys refuses a key that differs from one the decoder looks for
// but equals it ignoring case ("Split_conditions", or "ſplit_conditions"
// with a long s) or once its escapes are read ("split\u005fconditions").
// encoding/json matches such keys to the field; XGBoost's reader matches
// keys exactly as written (it misses the field, or next to the exact key
// reads the exact key's values where vigil read the later one's).
func foldedKeys(doc []byte, keys map[string]bool, lib string) error {
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		start, esc := i, false
		for i++; i < len(doc) && doc[i] != '"'; i++ {
			if doc[i] == '\\' {
				esc = true
				i++
			}
		}
		if i >= len(doc) {
			return nil // the decoder names the broken string
		}
		j := i + 1
		for j < len(doc) && (doc[j] == ' ' || doc[j] == '\t' || doc[j] == '\n' || doc[j] == '\r') {
			j++
		}
		if j >= len(doc) || doc[j] != ':' {
			continue // a string value, not a key
		}
		key := string(doc[start+1 : i])
		if esc {
			var u string
			if json.Unmarshal(doc[start:i+1], &u) == nil {
				key = u
			}
		}
		if keys[key] && !esc {
			continue
		}
		for k := range keys {
			if strings.EqualFold(k, key) {
				return fmt.Errorf("trees: the model's key %s (byte %d) is not %q as written but its decoder would read it as that (ignoring case and escapes), where %s reads keys as written: save the model again from %s", doc[start:i+1], start, k, lib, lib)
			}
		}
	}
	return nil
}
