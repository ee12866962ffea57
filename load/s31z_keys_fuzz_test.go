package load

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// FuzzS31zTopLevelKeys: the byte scan that sniffs a --policy-file's kind
// (scanTopLevelKeys) finds, in every valid JSON object, exactly the
// top-level members encoding/json finds (referenceKeys, the session-30
// reading); on any bytes it answers or errs, never panics or hangs.
func FuzzS31zTopLevelKeys(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a" : -1.5e3 , "b":true,"c":null}`,
		`{"learner":{"x":"}]\"{["},"version":[1,[2,{"y":"\\"}]]}`,
		`{"\u0070roperties": [], "tr\"ees": "a,b}", "k\\": {}}`,
		"{\n\t\"layers\"\r\n:\n[ ]\n,\"format\":\"vigil-nn\"\n}\n",
		`{"a":1,"a":2}`, `{"a":"\ud800"}`, `{"\ud800x":0}`, "{\"\xff\":1}",
		`{"a":1e5}`, `{"a":[1,2}`, `{"a":"x`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := scanTopLevelKeys(bufio.NewReader(bytes.NewReader(data)))
		if !json.Valid(data) {
			return
		}
		if t0 := bytes.TrimLeft(data, " \t\r\n"); len(t0) == 0 || t0[0] != '{' {
			if err == nil {
				t.Fatalf("%q: not an object, but keys %v", data, slices.Sorted(maps.Keys(got)))
			}
			return
		}
		want, rerr := referenceKeys(string(data))
		if rerr != nil {
			t.Fatalf("reference of valid %q: %v", data, rerr)
		}
		if err != nil || !maps.Equal(got, want) {
			t.Fatalf("%q: keys %v, %v; want %v", data, slices.Sorted(maps.Keys(got)), err, slices.Sorted(maps.Keys(want)))
		}
	})
}
