package trees

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"
)

// ubjKey is how XGBoost writes an object key: its length as an int64,
// then the bytes.
func ubjKey(k string) []byte {
	b := []byte{'L', 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint64(b[1:], uint64(len(k)))
	return append(b, k...)
}

// edit returns a copy of the model XGBoost saved as testdata/ubj/binary.ubj
// with f applied at the first typed array of the member key (at is the
// offset of its '[').
func editUBJ(t *testing.T, key string, f func(b []byte, at int) []byte) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/ubj/binary.ubj")
	if err != nil {
		t.Fatal(err)
	}
	k := ubjKey(key)
	i := bytes.Index(b, k)
	if i < 0 || !bytes.HasPrefix(b[i+len(k):], []byte("[$")) {
		t.Fatalf("binary.ubj has no typed array %q", key)
	}
	return f(bytes.Clone(b), i+len(k))
}

// A typed array is read as XGBoost reads it or refused: its element type
// must be the one XGBoost writes for the field (the bits of float32
// thresholds read as int32 were accepted as thresholds 1065353216 and
// the like), its count must agree with the bytes that follow, and a cut
// inside it is an error naming the field or the byte.
func TestS23mUBJSONTypedArraysStrict(t *testing.T) {
	count := func(b []byte, at int) int { return int(binary.BigEndian.Uint64(b[at+5:])) }
	setCount := func(b []byte, at, n int) { binary.BigEndian.PutUint64(b[at+5:], uint64(n)) }
	for _, tc := range []struct {
		name, key string
		edit      func(b []byte, at int) []byte
		want      string
	}{
		{"float32 thresholds typed int32", "split_conditions", func(b []byte, at int) []byte { b[at+2] = 'l'; return b },
			`in "split_conditions": a typed array of 'l' (int32); XGBoost writes this field as 'd' (float32)`},
		{"indices typed float32", "split_indices", func(b []byte, at int) []byte { b[at+2] = 'd'; return b },
			`in "split_indices": a typed array of 'd' (float32); XGBoost writes this field as 'l' (int32)`},
		{"children typed uint8", "left_children", func(b []byte, at int) []byte { b[at+2] = 'U'; return b },
			`in "left_children": a typed array of 'U' (uint8)`},
		{"element type no-op", "base_weights", func(b []byte, at int) []byte { b[at+2] = 'N'; return b },
			`in "base_weights": the element type of a typed container is 'N', which is no UBJSON type`},
		{"element type unknown", "sum_hessian", func(b []byte, at int) []byte { b[at+2] = '?'; return b },
			`which is no UBJSON type`},
		{"count one more", "split_conditions", func(b []byte, at int) []byte { setCount(b, at, count(b, at)+1); return b },
			"UBJSON model, byte "},
		{"count one less", "split_conditions", func(b []byte, at int) []byte { setCount(b, at, count(b, at)-1); return b },
			`should start with its length (an integer marker) but the byte is`},
		{"count one less, int32", "parents", func(b []byte, at int) []byte { setCount(b, at, count(b, at)-1); return b },
			`after the member "parents" should start with its length`},
		{"closing marker after a counted array", "split_conditions", func(b []byte, at int) []byte {
			end := at + 13 + 4*count(b, at)
			return append(b[:end:end], append([]byte{']'}, b[end:]...)...)
		}, `after the member "split_conditions" should start with its length (an integer marker) but the byte is ']'`},
		{"cut after the count marker", "split_conditions", func(b []byte, at int) []byte { return b[:at+4] }, "the file ends inside a value"},
		{"cut inside the elements", "split_conditions", func(b []byte, at int) []byte { return b[:at+15] }, "is the file cut short?"},
		{"untyped, a float32 child index", "left_children", func(b []byte, at int) []byte {
			// [$l#L n i0 i1 ... -> [#L n d i0 l i1 ...: the first
			// element a float32 with the same bits.
			n := count(b, at)
			out := append(bytes.Clone(b[:at]), '[', '#')
			out = append(out, b[at+4:at+13]...)
			for j := range n {
				m := byte('l')
				if j == 0 {
					m = 'd'
				}
				out = append(out, m)
				out = append(out, b[at+13+4*j:at+17+4*j]...)
			}
			return append(out, b[at+13+4*n:]...)
		}, `in "left_children": an element of type 'd' (float32); this field holds integers`},
	} {
		doc := editUBJ(t, tc.key, tc.edit)
		_, err := Parse(doc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// The untyped form XGBoost's JSON reader would accept still loads:
	// every element an int32 with its own marker.
	doc := editUBJ(t, "left_children", func(b []byte, at int) []byte {
		n := count(b, at)
		out := append(bytes.Clone(b[:at]), '[', '#')
		out = append(out, b[at+4:at+13]...)
		for j := range n {
			out = append(out, 'l')
			out = append(out, b[at+13+4*j:at+17+4*j]...)
		}
		return append(out, b[at+13+4*n:]...)
	})
	if _, err := Parse(doc); err != nil {
		t.Errorf("untyped left_children: %v", err)
	}
}
