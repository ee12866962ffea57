package trees

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"testing"
)

// s32zKey is a UBJSON object key: its length as uint8, then its bytes.
func s32zKey(k string) []byte { return append([]byte{'U', byte(len(k))}, k...) }

// TestS32zUBJSONText: ubjsonToJSON writes the JSON text as it reads (it
// built Go values first, then marshalled them); the text decodes to the
// values the old decoder built, for every kind of value: escapes and
// invalid UTF-8 in strings and keys as json.Marshal writes them, chars,
// high-precision numbers, typed and untyped containers, empty ones, no-ops.
func TestS32zUBJSONText(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("{")
	b.Write(s32zKey("s"))
	b.WriteString("SU\x06a<\"\\\xff\n")
	b.Write(s32zKey("c"))
	b.WriteString("C&")
	b.Write(s32zKey("h"))
	b.WriteString("HU\x0712.5e-3")
	b.Write(s32zKey("k\xfe>"))
	b.WriteString("T")
	b.Write(s32zKey("n"))
	b.WriteString("N[i\x01U\xffI\x80\x00l\x7f\xff\xff\xffL\x80\x00\x00\x00\x00\x00\x00\x00ZTFd\x3f\xc0\x00\x00D\x40\x09\x21\xfb\x54\x44\x2d\x18]")
	b.Write(s32zKey("t"))
	b.WriteString("[$Z#U\x03")
	b.Write(s32zKey("e"))
	b.WriteString("[]")
	b.Write(s32zKey("o"))
	b.WriteString("{#U\x02")
	b.Write(s32zKey("a"))
	b.WriteString("{}")
	b.Write(s32zKey("b"))
	b.WriteString("[$U#U\x02\x01\x02")
	b.WriteString("N}")
	js, err := ubjsonToJSON(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var got any
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	n := func(s string) json.Number { return json.Number(s) }
	want := map[string]any{
		"s":        "a<\"\\\ufffd\n",
		"c":        "&",
		"h":        n("12.5e-3"),
		"k\ufffd>": true,
		"n":        []any{n("1"), n("255"), n("-32768"), n("2147483647"), n("-9223372036854775808"), nil, true, false, n("1.5"), n("3.1415927")},
		"t":        []any{nil, nil, nil},
		"e":        []any{},
		"o":        map[string]any{"a": map[string]any{}, "b": []any{n("1"), n("2")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %s\n got %#v\nwant %#v", js, got, want)
	}
	// the text json.Marshal wrote for the strings and keys
	for _, s := range []string{`"a\u003c\"\\\ufffd\n"`, `"\u0026"`, `"k\ufffd\u003e":true`} {
		if !bytes.Contains(js, []byte(s)) {
			t.Errorf("%s: want %s in it", js, s)
		}
	}
}

// TestS32zUBJSONMemory: a UBJSON model with a 4 MB typed array of bytes
// (in a member ParseXGBoost ignores) decodes in memory of a few times its
// size. Decoded into Go values first, each byte took a json.Number, a
// string and an interface: a 20 MB file took 2 GB and 44 s.
func TestS32zUBJSONMemory(t *testing.T) {
	model, err := os.ReadFile("testdata/ubj/reg.ubj")
	if err != nil {
		t.Fatal(err)
	}
	const n = 4 << 20
	var b bytes.Buffer
	b.WriteString("{")
	b.Write(s32zKey("pad"))
	b.WriteString("[$U#l")
	binary.Write(&b, binary.BigEndian, int32(n))
	b.Write(bytes.Repeat([]byte{7}, n))
	b.Write(model[1:])
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	e, err := Parse(b.Bytes())
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if e.NumFeatures == 0 || len(e.Trees) == 0 {
		t.Fatalf("%d features, %d trees", e.NumFeatures, len(e.Trees))
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 25*n {
		t.Errorf("decoding a %d-byte file allocated %d bytes, more than 25 times its size", b.Len(), a)
	}
}
