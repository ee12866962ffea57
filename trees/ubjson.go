package trees

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// UBJSON, the binary JSON XGBoost writes with save_model("model.ubj") (and,
// from XGBoost 2.1, for any name not ending in .json): Universal Binary
// JSON, draft 12. Values start with a type marker: Z null, N no-op, T and F
// the Booleans, i int8, U uint8, I int16, l int32, L int64, d float32, D
// float64, H a high-precision number as a string, C a character, S a
// string (its length an integer value, then the bytes), [ an array and {
// an object (whose keys are strings without the S). Numbers are big-endian.
// A container may give its element type ($ and a marker) and its count (#
// and an integer); with a count it has no closing ] or }. XGBoost writes
// its per-tree arrays typed ([$d#L... for the float32 leaf values and
// thresholds, [$l#L... for child indices).
//
// The document is decoded into the values encoding/json decodes to and
// written out as JSON text, which ParseXGBoost reads as it reads a .json
// model: a float32 becomes the float64 it equals, and float64 text round
// trips, so every threshold and leaf value keeps its bits.

// ubjMaxDepth bounds the nesting of containers (XGBoost's models nest
// about six deep).
const ubjMaxDepth = 100

// ubjTreeArrays gives, for each array of an XGBoost tree, the element
// type XGBoost writes it typed with (and checks, with IsA<F32Array> and
// the like, when it loads the model): a typed array of another type is
// refused, not converted (the bits of a float32 threshold read as an
// int32 are a number, but not the model's). An untyped array (each
// element with its own marker) must hold numbers of the field's kind:
// integers for indices, any number for floats.
var ubjTreeArrays = map[string]byte{
	"split_conditions":    'd',
	"base_weights":        'd',
	"loss_changes":        'd',
	"sum_hessian":         'd',
	"left_children":       'l',
	"right_children":      'l',
	"parents":             'l',
	"split_indices":       'l',
	"categories":          'l',
	"categories_nodes":    'l',
	"categories_segments": 'L',
	"categories_sizes":    'L',
	"default_left":        'U',
	"split_type":          'U',
}

// ubjTypeNames names the markers for messages.
var ubjTypeNames = map[byte]string{'Z': "null", 'T': "true", 'F': "false", 'i': "int8", 'U': "uint8", 'I': "int16",
	'l': "int32", 'L': "int64", 'd': "float32", 'D': "float64", 'H': "high-precision number", 'C': "char", 'S': "string",
	'[': "array", '{': "object"}

func ubjTypeName(m byte) string {
	if n, ok := ubjTypeNames[m]; ok {
		return fmt.Sprintf("%q (%s)", m, n)
	}
	return fmt.Sprintf("%q", m)
}

type ubjReader struct {
	b     []byte
	pos   int
	depth int
	// key is the key of the object member being read ("" outside
	// objects), to name the field in messages and check the tree
	// arrays' types.
	key string
	// empty counts the elements of containers typed Z, T or F, which
	// take no bytes: nested in a typed container of containers, a
	// 120 KB document held 1.5 billion nulls (vigil died out of memory).
	// Their total is bounded by the document's size.
	empty int
	// out is the JSON text of the values read so far, written as they
	// are read: decoded into Go values first (a json.Number, a string
	// header and an interface for each one-byte element), a 20 MB file
	// took 2 GB and 44 s to decode.
	out []byte
}

func (r *ubjReader) errorf(format string, args ...any) error {
	return fmt.Errorf("trees: UBJSON model, byte %d: %s", r.pos, fmt.Sprintf(format, args...))
}

func (r *ubjReader) need(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, r.errorf("the file ends inside a value (%d more bytes needed, %d left); is it cut short?", n, len(r.b)-r.pos)
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

func (r *ubjReader) marker() (byte, error) {
	for {
		s, err := r.need(1)
		if err != nil {
			return 0, err
		}
		if s[0] != 'N' { // no-op
			return s[0], nil
		}
	}
}

// integer reads an integer of the type m.
func (r *ubjReader) integer(m byte) (int64, bool, error) {
	// a switch, not a map literal: that built a map for every number
	// (80% of the time of decoding a 20 MB array of bytes)
	var size int
	switch m {
	case 'i', 'U':
		size = 1
	case 'I':
		size = 2
	case 'l':
		size = 4
	case 'L':
		size = 8
	default:
		return 0, false, nil
	}
	s, err := r.need(size)
	if err != nil {
		return 0, true, err
	}
	switch m {
	case 'i':
		return int64(int8(s[0])), true, nil
	case 'U':
		return int64(s[0]), true, nil
	case 'I':
		return int64(int16(binary.BigEndian.Uint16(s))), true, nil
	case 'l':
		return int64(int32(binary.BigEndian.Uint32(s))), true, nil
	}
	return int64(binary.BigEndian.Uint64(s)), true, nil
}

// length reads a length or count: an integer value, not negative.
func (r *ubjReader) length(what string) (int, error) {
	m, err := r.marker()
	if err != nil {
		return 0, err
	}
	n, ok, err := r.integer(m)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, r.errorf("%s must be an integer, not type %q", what, m)
	}
	if n < 0 || n > int64(len(r.b)) {
		return 0, r.errorf("%s %d is negative or longer than the file", what, n)
	}
	return int(n), nil
}

func (r *ubjReader) str() (string, error) {
	n, err := r.length("a string's length")
	if err != nil {
		return "", err
	}
	s, err := r.need(n)
	return string(s), err
}

// writeString writes s to out as a JSON string, as json.Marshal writes
// it.
func (r *ubjReader) writeString(s string) {
	b, _ := json.Marshal(s) // a string always marshals
	r.out = append(r.out, b...)
}

// value reads a value whose type marker is m, writing it to out.
func (r *ubjReader) value(m byte) error {
	if n, ok, err := r.integer(m); ok {
		if err == nil {
			r.out = strconv.AppendInt(r.out, n, 10)
		}
		return err
	}
	switch m {
	case 'Z':
		r.out = append(r.out, "null"...)
		return nil
	case 'T':
		r.out = append(r.out, "true"...)
		return nil
	case 'F':
		r.out = append(r.out, "false"...)
		return nil
	case 'd', 'D':
		size := 4
		if m == 'D' {
			size = 8
		}
		s, err := r.need(size)
		if err != nil {
			return err
		}
		var f float64
		if m == 'd' {
			f = float64(math.Float32frombits(binary.BigEndian.Uint32(s)))
		} else {
			f = math.Float64frombits(binary.BigEndian.Uint64(s))
		}
		if math.IsNaN(f) && r.key == "split_conditions" {
			// as the JSON reader says it (xgbNonFinite)
			return r.errorf("in \"split_conditions\": a NaN condition; XGBoost writes NaN as the condition of a categorical split, which vigil does not support (train with enable_categorical=False)")
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return r.errorf("%sa number is %v, which XGBoost's JSON models do not hold", r.field(), f)
		}
		if g := float32(f); m == 'D' && !math.IsInf(float64(g), 0) {
			// XGBoost keeps a number as float32, rounding a float64 once;
			// the float32 written exactly, not f's shortest decimal, which
			// ParseXGBoost's float32 reading would round again
			r.out = strconv.AppendFloat(r.out, float64(g), 'g', -1, 32)
			return nil
		}
		r.out = strconv.AppendFloat(r.out, f, 'g', -1, 64)
		return nil
	case 'H':
		s, err := r.str()
		if err != nil {
			return err
		}
		// A JSON number literal (ParseFloat alone takes NaN, Inf and hex,
		// which the JSON text then cannot hold).
		if _, err := strconv.ParseFloat(s, 64); err != nil || s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') || !json.Valid([]byte(s)) {
			return r.errorf("the high-precision number %q is not a number", s)
		}
		r.out = append(r.out, s...)
		return nil
	case 'C':
		s, err := r.need(1)
		if err != nil {
			return err
		}
		if s[0] >= 0x80 {
			r.pos--
			return r.errorf("%sa char (C) is one ASCII byte, not %#x", r.field(), s[0])
		}
		r.writeString(string(s))
		return nil
	case 'S':
		s, err := r.str()
		if err == nil {
			r.writeString(s)
		}
		return err
	case '[', '{':
		r.depth++
		if r.depth > ubjMaxDepth {
			return r.errorf("containers nested more than %d deep", ubjMaxDepth)
		}
		defer func() { r.depth-- }()
		return r.container(m == '{')
	}
	return r.errorf("%sunknown type marker %q", r.field(), m)
}

// field names the object member being read, for messages: "in
// \"split_conditions\": ", or "" at the top.
func (r *ubjReader) field() string {
	if r.key == "" {
		return ""
	}
	return fmt.Sprintf("in %q: ", r.key)
}

// container reads an array or object after its opening marker, writing
// it to out.
func (r *ubjReader) container(object bool) error {
	key := r.key // the member this container is the value of
	defer func() { r.key = key }()
	var elem byte // the element type of a typed container
	count := -1
	if r.pos < len(r.b) && r.b[r.pos] == '$' {
		r.pos++
		m, err := r.need(1)
		if err != nil {
			return err
		}
		elem = m[0]
		if _, ok := ubjTypeNames[elem]; !ok {
			r.pos--
			return r.errorf("%sthe element type of a typed container is %q, which is no UBJSON type", r.field(), elem)
		}
		if r.pos >= len(r.b) || r.b[r.pos] != '#' {
			return r.errorf("%sa typed container ($%c) must give its count (#)", r.field(), elem)
		}
	}
	want, tree := ubjTreeArrays[key]
	if tree && object {
		return r.errorf("%sXGBoost writes an array here, not an object", r.field())
	}
	if tree && elem != 0 && elem != want {
		return r.errorf("%sa typed array of %s; XGBoost writes this field as %s and refuses any other type: the file is not a model XGBoost saved", r.field(), ubjTypeName(elem), ubjTypeName(want))
	}
	if r.pos < len(r.b) && r.b[r.pos] == '#' {
		r.pos++
		n, err := r.length("a container's count")
		if err != nil {
			return err
		}
		count = n
	}
	// Each element takes at least one byte, unless its type is given and
	// holds no data (Z, T, F): bound the count by what is left, and the
	// total of those empty elements by the document's size.
	if elem == 'Z' || elem == 'T' || elem == 'F' {
		if r.empty += count; r.empty > len(r.b) {
			return r.errorf("containers typed $%c hold %d elements in all, more than the document's %d bytes (XGBoost writes no such containers)", elem, r.empty, len(r.b))
		}
	} else if count > len(r.b)-r.pos {
		return r.errorf("a container of %d elements in %d bytes; is the file cut short?", count, len(r.b)-r.pos)
	}
	next := func() error {
		m := elem
		if m == 0 {
			var err error
			if m, err = r.marker(); err != nil {
				return err
			}
			if tree && !ubjNumberOf(want, m) {
				r.pos--
				return r.errorf("%san element of type %s; this field holds %s", r.field(), ubjTypeName(m), map[bool]string{true: "numbers", false: "integers"}[want == 'd'])
			}
		}
		return r.value(m)
	}
	end := func() (bool, error) {
		if count >= 0 {
			return false, nil
		}
		for r.pos < len(r.b) && r.b[r.pos] == 'N' {
			r.pos++
		}
		if r.pos >= len(r.b) {
			return false, r.errorf("the file ends inside a container; is it cut short?")
		}
		if c := r.b[r.pos]; object && c == '}' || !object && c == ']' {
			r.pos++
			return true, nil
		}
		return false, nil
	}
	if object {
		r.out = append(r.out, '{')
		seen := map[string]bool{}
		for i := 0; count < 0 || i < count; i++ {
			if done, err := end(); err != nil {
				return err
			} else if done {
				break
			}
			at := r.pos
			if m, err := r.marker(); err == nil {
				r.pos--
				if !isUBJInt(m) {
					after := ""
					if len(seen) > 0 {
						after = fmt.Sprintf(" after the member %q", r.key)
					}
					return r.errorf("an object's next key%s should start with its length (an integer marker) but the byte is %q: the previous value's count or length is wrong, or the file is corrupt", after, m)
				}
			}
			r.key = key
			k, err := r.str()
			if err != nil {
				return err
			}
			if seen[k] {
				// XGBoost 1.7's UBJSON reader keeps the first value of a
				// repeated key and its JSON reader the last: which one the
				// model means is not settled, so neither is chosen.
				r.pos = at
				return r.errorf("the key %q appears twice in one object; XGBoost never writes that (its UBJSON reader keeps the first value, its JSON reader the last): save the model again from XGBoost", k)
			}
			if len(seen) > 0 {
				r.out = append(r.out, ',')
			}
			seen[k] = true
			r.writeString(k)
			r.out = append(r.out, ':')
			r.key = k
			if err := next(); err != nil {
				return err
			}
		}
		r.out = append(r.out, '}')
		return nil
	}
	r.out = append(r.out, '[')
	for i := 0; count < 0 || i < count; i++ {
		if done, err := end(); err != nil {
			return err
		} else if done {
			break
		}
		if i > 0 {
			r.out = append(r.out, ',')
		}
		if err := next(); err != nil {
			return err
		}
	}
	r.out = append(r.out, ']')
	return nil
}

func isUBJInt(m byte) bool { return m == 'i' || m == 'U' || m == 'I' || m == 'l' || m == 'L' }

// ubjNumberOf reports whether an element of type m may stand in an
// untyped array of a tree field whose typed form is want: an integer
// type for integer fields, any number type for float32 fields.
func ubjNumberOf(want, m byte) bool {
	return isUBJInt(m) || want == 'd' && (m == 'd' || m == 'D')
}

// ubjsonToJSON decodes a UBJSON document into JSON text.
func ubjsonToJSON(b []byte) ([]byte, error) {
	r := &ubjReader{b: b}
	m, err := r.marker()
	if err != nil {
		return nil, err
	}
	if err := r.value(m); err != nil {
		return nil, err
	}
	for r.pos < len(r.b) && r.b[r.pos] == 'N' {
		r.pos++
	}
	if r.pos != len(r.b) {
		return nil, r.errorf("%d bytes after the document", len(r.b)-r.pos)
	}
	return r.out, nil
}
