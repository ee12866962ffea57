package trees

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"vigil/internal/filecache"
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

// LoadShared is Load through a cache of the ensembles it loaded
// (internal/filecache), kept by the file's content (its SHA-256): the
// file is read once per call and parsed only when that content was not
// loaded before. The --policy-file check of package load (the file's
// feature and class counts) and the policies bound to the file
// (NewPolicy, one per goroutine of a search) then parse a large ensemble
// once, as do the two model loads of vigil faults. The ensemble returned
// is shared: it must not be changed.
func LoadShared(path string) (*Ensemble, error) {
	return shared.Load(path, "",
		func() ([]byte, error) {
			data, err := inputfile.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("trees: %w", err)
			}
			return data, nil
		},
		func([]byte) string { return "" },
		func(data []byte) (*Ensemble, error) {
			e, err := Parse(data)
			if err != nil {
				return nil, fmt.Errorf("%w (in %s)", err, path)
			}
			return e, nil
		})
}

// shared holds LoadShared's ensembles.
var shared filecache.Cache[*Ensemble]

// SharedParses reports how many files LoadShared parsed in this process
// (the misses of its cache), for tests of the callers that must parse a
// file once.
func SharedParses() int { return shared.Parses() }

// MaxFeatures bounds the features a model may declare or split on, as
// nn's readers bound a network's inputs (2^20): the ensemble keeps each
// feature's thresholds in a slice indexed by feature, and a 76-byte
// LightGBM file declaring max_feature_idx=16777216 (the former bound,
// 2^24) cost 384 MB and a second to load before anything checked it
// against the spec.
const MaxFeatures = 1 << 20

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
