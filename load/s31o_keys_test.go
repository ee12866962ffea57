package load

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// referenceKeys is topLevelKeys as it was before session 31: a
// json.Decoder read token by token (2.5 s of CPU for a 48 MB XGBoost JSON).
func referenceKeys(text string) (map[string]bool, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	keys := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("not a JSON object")
		}
		keys[k] = true
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth == 0 {
				break
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return keys, nil
}

// The byte scan of a policy file's top-level members finds the members
// the JSON decoder finds in every valid object, whatever their values hold
// (brackets and quotes in strings, escapes in keys, nesting, numbers and
// literals at the end), and reports no object for what is not one.
func TestS31oTopLevelKeys(t *testing.T) {
	valid := []string{
		`{}`, ` { } `, `{"a":1}`, `{"a" : -1.5e3 , "b":true,"c":null}`,
		`{"learner":{"x":"}]\"{["},"version":[1,[2,{"y":"\\"}]]}`,
		`{"\u0070roperties": [], "tr\"ees": "a,b}", "k\\": {}}`,
		"{\n\t\"layers\"\r\n:\n[ ]\n,\"format\":\"vigil-nn\"\n}\n",
		`{"a":{"b":{"c":[{"d":"]"}]}},"e":0}`,
		`{"a":1,"a":2}`,
	}
	for _, text := range valid {
		want, err := referenceKeys(text)
		if err != nil {
			t.Fatalf("reference of %q: %v", text, err)
		}
		got, err := scanTopLevelKeys(bufio.NewReader(strings.NewReader(text)))
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("%q: keys %v, %v; want %v", text, slices.Sorted(maps.Keys(got)), err, slices.Sorted(maps.Keys(want)))
		}
	}
	for _, text := range []string{``, `[]`, `"a"`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{1:2}`, `{"a":1 "b":2}`, `{"a":[1,2}`, `{"a":"x`, `{"a":1`} {
		if got, err := scanTopLevelKeys(bufio.NewReader(strings.NewReader(text))); err == nil {
			t.Errorf("%q: keys %v, no error; want not an object", text, slices.Sorted(maps.Keys(got)))
		}
	}
	// the shipped policy files: the kind is told as before
	for _, f := range []string{"oneway_trees.json", "oneway_trees_nn.json", "rover_trees.json"} {
		path := filepath.Join("..", "specs", "policies", f)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := referenceKeys(string(data))
		if err != nil {
			t.Fatal(err)
		}
		h, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := topLevelKeys(h)
		h.Close()
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("%s: keys %v, %v; want %v", f, slices.Sorted(maps.Keys(got)), err, slices.Sorted(maps.Keys(want)))
		}
	}
}
