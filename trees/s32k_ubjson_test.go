package trees

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// s32kRef is a straightforward UBJSON (draft 12) decoder, written for
// this review from the format's description, with the rules XGBoost's
// reader adds that ubjsonToJSON keeps (no NaN or infinite number, no
// repeated key, the tree arrays' element types, nesting at most
// ubjMaxDepth): it decodes the whole document into a tree of values
// first and writes the JSON text from that tree, as the decoder before
// session 32 did.
type s32kRef struct {
	b   []byte
	pos int
}

var errS32kRef = errors.New("refused")

// s32kVal is a decoded value: a JSON literal or number text (lit), a
// string (str), an array (arr) or an object (keys, vals).
type s32kVal struct {
	kind int // 0 lit, 1 str, 2 arr, 3 obj
	lit  string
	str  string
	arr  []*s32kVal
	keys []string
	vals []*s32kVal
}

func (r *s32kRef) byte1() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errS32kRef
	}
	r.pos++
	return r.b[r.pos-1], nil
}

func (r *s32kRef) bytesN(n int64) ([]byte, error) {
	if n < 0 || n > int64(len(r.b)-r.pos) {
		return nil, errS32kRef
	}
	s := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s, nil
}

func (r *s32kRef) markerSkipNoop() (byte, error) {
	for {
		m, err := r.byte1()
		if err != nil || m != 'N' {
			return m, err
		}
	}
}

func (r *s32kRef) intOf(m byte) (int64, error) {
	sizes := map[byte]int64{'i': 1, 'U': 1, 'I': 2, 'l': 4, 'L': 8}
	s, err := r.bytesN(sizes[m])
	if err != nil {
		return 0, err
	}
	switch m {
	case 'i':
		return int64(int8(s[0])), nil
	case 'U':
		return int64(s[0]), nil
	case 'I':
		return int64(int16(binary.BigEndian.Uint16(s))), nil
	case 'l':
		return int64(int32(binary.BigEndian.Uint32(s))), nil
	}
	return int64(binary.BigEndian.Uint64(s)), nil
}

func s32kIsInt(m byte) bool { return bytes.IndexByte([]byte("iUIlL"), m) >= 0 }

func (r *s32kRef) length() (int64, error) {
	m, err := r.markerSkipNoop()
	if err != nil || !s32kIsInt(m) {
		return 0, errS32kRef
	}
	n, err := r.intOf(m)
	if err != nil || n < 0 || n > int64(len(r.b)) {
		return 0, errS32kRef
	}
	return n, nil
}

func (r *s32kRef) value(m byte, key string, depth int) (*s32kVal, error) {
	switch {
	case s32kIsInt(m):
		n, err := r.intOf(m)
		return &s32kVal{lit: strconv.FormatInt(n, 10)}, err
	case m == 'Z':
		return &s32kVal{lit: "null"}, nil
	case m == 'T':
		return &s32kVal{lit: "true"}, nil
	case m == 'F':
		return &s32kVal{lit: "false"}, nil
	case m == 'd':
		s, err := r.bytesN(4)
		if err != nil {
			return nil, err
		}
		f := math.Float32frombits(binary.BigEndian.Uint32(s))
		if f != f || math.IsInf(float64(f), 0) {
			return nil, errS32kRef
		}
		return &s32kVal{lit: strconv.FormatFloat(float64(f), 'g', -1, 64)}, nil
	case m == 'D':
		s, err := r.bytesN(8)
		if err != nil {
			return nil, err
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(s))
		if f != f || math.IsInf(f, 0) {
			return nil, errS32kRef
		}
		if g := float32(f); !math.IsInf(float64(g), 0) {
			return &s32kVal{lit: strconv.FormatFloat(float64(g), 'g', -1, 32)}, nil
		}
		return &s32kVal{lit: strconv.FormatFloat(f, 'g', -1, 64)}, nil
	case m == 'H':
		n, err := r.length()
		if err != nil {
			return nil, err
		}
		s, err := r.bytesN(n)
		if err != nil {
			return nil, err
		}
		var x json.Number
		if err := json.Unmarshal(s, &x); err != nil || bytes.ContainsAny(s, " \t\r\n") {
			return nil, errS32kRef
		}
		if _, err := strconv.ParseFloat(string(s), 64); err != nil {
			return nil, errS32kRef
		}
		return &s32kVal{lit: string(s)}, nil
	case m == 'C':
		c, err := r.byte1()
		if err != nil || c >= 0x80 {
			return nil, errS32kRef
		}
		return &s32kVal{kind: 1, str: string([]byte{c})}, nil
	case m == 'S':
		n, err := r.length()
		if err != nil {
			return nil, err
		}
		s, err := r.bytesN(n)
		return &s32kVal{kind: 1, str: string(s)}, err
	case m == '[' || m == '{':
		if depth+1 > ubjMaxDepth {
			return nil, errS32kRef
		}
		return r.container(m == '{', key, depth+1)
	}
	return nil, errS32kRef
}

func (r *s32kRef) container(object bool, key string, depth int) (*s32kVal, error) {
	var elem byte
	count := int64(-1)
	if r.pos < len(r.b) && r.b[r.pos] == '$' {
		r.pos++
		m, err := r.byte1()
		if err != nil || bytes.IndexByte([]byte("ZTFiUIlLdDHCS[{"), m) < 0 {
			return nil, errS32kRef
		}
		elem = m
		if r.pos >= len(r.b) || r.b[r.pos] != '#' {
			return nil, errS32kRef
		}
	}
	if r.pos < len(r.b) && r.b[r.pos] == '#' {
		r.pos++
		n, err := r.length()
		if err != nil {
			return nil, err
		}
		count = n
	}
	want, tree := ubjTreeArrays[key]
	if tree && (object || elem != 0 && elem != want) {
		return nil, errS32kRef
	}
	v := &s32kVal{kind: 2}
	if object {
		v.kind = 3
	}
	for i := int64(0); count < 0 || i < count; i++ {
		if count < 0 {
			for r.pos < len(r.b) && r.b[r.pos] == 'N' {
				r.pos++
			}
			if r.pos >= len(r.b) {
				return nil, errS32kRef
			}
			if c := r.b[r.pos]; object && c == '}' || !object && c == ']' {
				r.pos++
				break
			}
		}
		k := key
		if object {
			n, err := r.length()
			if err != nil {
				return nil, err
			}
			s, err := r.bytesN(n)
			if err != nil {
				return nil, err
			}
			k = string(s)
			for _, old := range v.keys {
				if old == k {
					return nil, errS32kRef
				}
			}
		}
		m := elem
		if m == 0 {
			var err error
			if m, err = r.markerSkipNoop(); err != nil {
				return nil, err
			}
			if tree && !(s32kIsInt(m) || want == 'd' && (m == 'd' || m == 'D')) {
				return nil, errS32kRef
			}
		}
		x, err := r.value(m, k, depth)
		if err != nil {
			return nil, err
		}
		if object {
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, x)
		} else {
			v.arr = append(v.arr, x)
		}
	}
	return v, nil
}

func (v *s32kVal) write(b *bytes.Buffer) {
	switch v.kind {
	case 0:
		b.WriteString(v.lit)
	case 1:
		s, _ := json.Marshal(v.str)
		b.Write(s)
	case 2:
		b.WriteByte('[')
		for i, x := range v.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			x.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			s, _ := json.Marshal(k)
			b.Write(s)
			b.WriteByte(':')
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

func s32kRefDecode(b []byte) ([]byte, error) {
	r := &s32kRef{b: b}
	m, err := r.markerSkipNoop()
	if err != nil {
		return nil, err
	}
	v, err := r.value(m, "", 0)
	if err != nil {
		return nil, err
	}
	for r.pos < len(r.b) && r.b[r.pos] == 'N' {
		r.pos++
	}
	if r.pos != len(r.b) {
		return nil, errS32kRef
	}
	var out bytes.Buffer
	v.write(&out)
	return out.Bytes(), nil
}

// s32kGen writes random UBJSON documents: every type marker, typed and
// counted containers of every element type, no-ops between elements,
// int64 edges, float32 and float64 edges (subnormals, the largest
// finite, values that overflow float32, NaN and infinities now and
// then), high-precision numbers valid and not, strings with escapes
// and invalid UTF-8, the tree arrays' names as keys with the right and
// the wrong element types, repeated keys now and then.
type s32kGen struct {
	r *rand.Rand
	b bytes.Buffer
}

func (g *s32kGen) int(n int64) {
	switch {
	case n >= -128 && n <= 127 && g.r.IntN(2) == 0:
		g.b.WriteByte('i')
		g.b.WriteByte(byte(int8(n)))
	case n >= 0 && n <= 255 && g.r.IntN(2) == 0:
		g.b.WriteByte('U')
		g.b.WriteByte(byte(n))
	case n >= math.MinInt16 && n <= math.MaxInt16 && g.r.IntN(2) == 0:
		g.b.WriteByte('I')
		binary.Write(&g.b, binary.BigEndian, int16(n))
	case n >= math.MinInt32 && n <= math.MaxInt32 && g.r.IntN(2) == 0:
		g.b.WriteByte('l')
		binary.Write(&g.b, binary.BigEndian, int32(n))
	default:
		g.b.WriteByte('L')
		binary.Write(&g.b, binary.BigEndian, n)
	}
}

func (g *s32kGen) someInt() int64 {
	edges := []int64{0, 1, -1, 127, -128, 128, 255, 256, math.MaxInt16, math.MinInt16, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1}
	if g.r.IntN(2) == 0 {
		return edges[g.r.IntN(len(edges))]
	}
	return g.r.Int64N(2000) - 1000
}

func (g *s32kGen) someFloat() float64 {
	edges := []float64{0, math.Copysign(0, -1), 0.1, 1.0 / 3, math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat32, math.MaxFloat32, math.MaxFloat64, 3.4028235677973366e38, 1e39, -1e-46, 16777217}
	switch g.r.IntN(40) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1 - 2*g.r.IntN(2))
	}
	if g.r.IntN(2) == 0 {
		return edges[g.r.IntN(len(edges))]
	}
	return g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(20)-10))
}

// scalar writes a value of type m without its marker.
func (g *s32kGen) scalar(m byte) {
	switch m {
	case 'i':
		g.b.WriteByte(byte(g.r.IntN(256)))
	case 'U':
		g.b.WriteByte(byte(g.r.IntN(256)))
	case 'I':
		binary.Write(&g.b, binary.BigEndian, int16(g.someInt()))
	case 'l':
		binary.Write(&g.b, binary.BigEndian, int32(g.someInt()))
	case 'L':
		binary.Write(&g.b, binary.BigEndian, g.someInt())
	case 'd':
		binary.Write(&g.b, binary.BigEndian, math.Float32bits(float32(g.someFloat())))
	case 'D':
		binary.Write(&g.b, binary.BigEndian, math.Float64bits(g.someFloat()))
	case 'H':
		hs := []string{"12.5e-3", "-0", "123456789012345678901234567890", "1e999", "0x10", "NaN", "1 ", "", "-1.5E+10", "01", "1.", "3.14159265358979323846264338327950288"}
		g.str(hs[g.r.IntN(len(hs))])
	case 'C':
		g.b.WriteByte(byte(g.r.IntN(130)))
	case 'S':
		ss := []string{"", "a", "a<\"\\\xff\n", "tree", "\u00e9\u2028", "split_conditions"}
		g.str(ss[g.r.IntN(len(ss))])
	}
}

func (g *s32kGen) str(s string) {
	g.int(int64(len(s)))
	g.b.WriteString(s)
}

var s32kKeys = []string{"a", "b", "trees", "split_conditions", "left_children", "default_left", "split_type", "categories_sizes", "base_weights", "x\xfey", ""}

func (g *s32kGen) value(depth int) {
	if g.r.IntN(8) == 0 {
		g.b.WriteByte('N')
	}
	scalars := []byte("ZTFiUIlLdDHCS")
	if depth >= 4 || g.r.IntN(3) != 0 {
		m := scalars[g.r.IntN(len(scalars))]
		g.b.WriteByte(m)
		g.scalar(m)
		return
	}
	object := g.r.IntN(2) == 0
	if object {
		g.b.WriteByte('{')
	} else {
		g.b.WriteByte('[')
	}
	n := g.r.IntN(5)
	var elem byte
	counted := g.r.IntN(2) == 0
	if g.r.IntN(3) == 0 {
		all := []byte("ZTFiUIlLdDHCS[{")
		elem = all[g.r.IntN(len(all))]
		g.b.WriteByte('$')
		g.b.WriteByte(elem)
		counted = true
	}
	if counted {
		g.b.WriteByte('#')
		g.int(int64(n))
	}
	keys := g.r.Perm(len(s32kKeys))
	for i := range n {
		if object {
			k := s32kKeys[keys[i]]
			if g.r.IntN(20) == 0 {
				k = s32kKeys[keys[0]] // repeated
			}
			g.int(int64(len(k)))
			g.b.WriteString(k)
		}
		switch {
		case elem == '[' || elem == '{':
			// an element container: its own optional type and count
			if g.r.IntN(2) == 0 {
				g.b.WriteByte('#')
				g.int(0)
			} else if elem == '[' {
				g.b.WriteByte(']')
			} else {
				g.b.WriteByte('}')
			}
		case elem != 0:
			g.scalar(elem)
		default:
			if g.r.IntN(6) == 0 {
				g.b.WriteByte('N')
			}
			g.value(depth + 1)
		}
	}
	if !counted {
		if g.r.IntN(6) == 0 {
			g.b.WriteByte('N')
		}
		if object {
			g.b.WriteByte('}')
		} else {
			g.b.WriteByte(']')
		}
	}
}

// TestS32kUBJSONReference: ubjsonToJSON (writing the JSON text as it
// reads, since session 32) against s32kRef on generated documents and
// on byte mutations of them: the same refusals and the same text.
func TestS32kUBJSONReference(t *testing.T) {
	seeds := 20000
	if n, err := strconv.Atoi(os.Getenv("S32K_SEEDS")); err == nil {
		seeds = n
	}
	if testing.Short() {
		seeds = 2000
	}
	ok, refused, mutants := 0, 0, 0
	check := func(seed int, doc []byte) {
		want, werr := s32kRefDecode(doc)
		got, gerr := ubjsonToJSON(doc)
		switch {
		case (werr != nil) != (gerr != nil):
			t.Fatalf("seed %d: reference %v, ubjsonToJSON %v\ndoc %q\nref %s\ngot %s", seed, werr, gerr, doc, want, got)
		case werr != nil:
			refused++
		case !bytes.Equal(want, got):
			t.Fatalf("seed %d: texts differ\ndoc %q\nref %s\ngot %s", seed, doc, want, got)
		default:
			if !json.Valid(got) {
				t.Fatalf("seed %d: not JSON: %s", seed, got)
			}
			ok++
		}
	}
	for seed := range seeds {
		g := &s32kGen{r: rand.New(rand.NewPCG(uint64(seed), 0x532b))}
		g.value(0)
		doc := g.b.Bytes()
		check(seed, doc)
		for range 3 {
			m := bytes.Clone(doc)
			switch g.r.IntN(3) {
			case 0:
				m[g.r.IntN(len(m))] = byte(g.r.IntN(256))
			case 1:
				m = m[:g.r.IntN(len(m))]
			default:
				i := g.r.IntN(len(m))
				m = append(m[:i:i], append([]byte{"N$#[]{}iUZ"[g.r.IntN(10)]}, m[i:]...)...)
			}
			if len(m) > 0 {
				check(seed, m)
				mutants++
			}
		}
	}
	// nesting at the bound and past it: plain, counted, typed
	// containers of containers, and objects
	for depth := ubjMaxDepth - 2; depth <= ubjMaxDepth+2; depth++ {
		for _, form := range []struct{ open, close string }{{"[", "]"}, {"[#U\x01", ""}, {"{U\x01k", "}"}} {
			var d bytes.Buffer
			for range depth {
				d.WriteString(form.open)
			}
			d.WriteString("Z")
			for range depth {
				d.WriteString(form.close)
			}
			check(depth, d.Bytes())
		}
		// typed containers of containers: each element is a container's
		// body, without its marker
		var d bytes.Buffer
		d.WriteString("[")
		for range depth - 1 {
			d.WriteString("$[#U\x01")
		}
		d.WriteString("#U\x01Z")
		check(depth, d.Bytes())
	}
	t.Logf("%d documents and %d mutants: %d decoded alike, %d refused by both", seeds, mutants, ok, refused)
	_ = fmt.Sprint
}
