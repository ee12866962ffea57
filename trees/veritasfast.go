package trees

import (
	"bytes"
	"strconv"
	"strings"
)

// A decoder for well-formed Veritas JSON without encoding/json's reflection,
// which made loading cost 4 to 18 times the queries asked of the corpus
// models (BenchmarkCorpusQuery, trees/FIGURES.md). It decodes into the same
// veritasFile as encoding/json would and gives up (ok false) on anything it
// is not sure to read exactly as encoding/json does: escapes and non-ASCII
// in strings, null, duplicate keys, keys that differ from a field's only in
// case, integers written as decimals, numbers out of range, nesting beyond
// the limits, trailing data, and any syntax error. ParseVeritas then decodes
// with encoding/json, whose error messages (through jsonerr) are the ones
// users see.

type vfast struct {
	s     []byte
	i     int
	depth int
}

// maxSkipDepth bounds the nesting of values the fast decoder skips (members
// it does not know); deeper ones go to encoding/json.
const maxSkipDepth = 64

func decodeVeritasFast(data []byte) (f veritasFile, ok bool) {
	d := &vfast{s: data}
	if !d.file(&f) {
		return veritasFile{}, false
	}
	d.ws()
	return f, d.i == len(d.s)
}

func (d *vfast) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// eat consumes c after whitespace.
func (d *vfast) eat(c byte) bool {
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (d *vfast) str() (string, bool) {
	b, ok := d.strBytes()
	return string(b), ok
}

// strBytes is str without a copy.
func (d *vfast) strBytes() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return d.s[start : d.i-1], true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// number returns the text of a JSON number (strict grammar).
func (d *vfast) number() ([]byte, bool) {
	d.ws()
	s, i := d.s, d.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDigitByte(s[i]) {
			i++
		}
	default:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigitByte(s[i]) {
			return nil, false
		}
		for i < len(s) && isDigitByte(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigitByte(s[i]) {
			return nil, false
		}
		for i < len(s) && isDigitByte(s[i]) {
			i++
		}
	}
	num := s[d.i:i]
	d.i = i
	return num, true
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

func (d *vfast) float() (float64, bool) {
	num, ok := d.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(num), 64)
	return v, err == nil
}

// int reads an integer written without fraction or exponent.
func (d *vfast) int() (int, bool) {
	num, ok := d.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(string(num))
	return v, err == nil
}

// object calls member for each key of an object; member reads the value.
// A key seen twice, or one that matches a known field only without regard
// to case (encoding/json would take it), gives up. Unknown members are
// skipped; depth is the nesting of skipped values so far.
func (d *vfast) object(known []string, member func(key string) bool) bool {
	return d.objectAt(known, member, 0)
}

func (d *vfast) objectAt(known []string, member func(key string) bool, depth int) bool {
	if !d.eat('{') {
		return false
	}
	var seen uint32
	if d.eat('}') {
		return true
	}
	for {
		key, ok := d.strBytes()
		if !ok || !d.eat(':') {
			return false
		}
		k := -1
		for j, name := range known {
			if string(key) == name {
				k = j
				break
			}
			if bytes.EqualFold(key, []byte(name)) {
				return false
			}
		}
		if k >= 0 {
			if seen&(1<<k) != 0 {
				return false
			}
			seen |= 1 << k
			if !member(known[k]) {
				return false
			}
		} else if !d.skip(depth + 1) {
			return false
		}
		if d.eat(',') {
			continue
		}
		return d.eat('}')
	}
}

// array calls elem for each element.
func (d *vfast) array(elem func() bool) bool {
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.eat(',') {
			continue
		}
		return d.eat(']')
	}
}

// skip reads over a value of a member the decoder does not know.
func (d *vfast) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	d.ws()
	if d.i >= len(d.s) {
		return false
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.objectAt(nil, nil, depth)
	case c == '[':
		return d.array(func() bool { return d.skip(depth + 1) })
	case c == '"':
		_, ok := d.str()
		return ok
	case c == 't':
		return d.word("true")
	case c == 'f':
		return d.word("false")
	default:
		_, ok := d.number()
		return ok
	}
}

func (d *vfast) word(w string) bool {
	if strings.HasPrefix(string(d.s[d.i:min(len(d.s), d.i+len(w))]), w) {
		d.i += len(w)
		return true
	}
	return false
}

var (
	veritasFileKeys = []string{"at_type", "base_scores", "trees"}
	veritasTreeKeys = []string{"num_leaf_values", "split_type", "structure"}
	veritasNodeKeys = []string{"feat_id", "split_value", "left", "right", "leaf_value"}
)

func (d *vfast) file(f *veritasFile) bool {
	return d.object(veritasFileKeys, func(key string) bool {
		var ok bool
		switch key {
		case "at_type":
			f.AtType, ok = d.str()
		case "base_scores":
			f.BaseScores = []float64{}
			ok = d.array(func() bool {
				v, ok := d.float()
				f.BaseScores = append(f.BaseScores, v)
				return ok
			})
		case "trees":
			f.Trees = []veritasTree{}
			ok = d.array(func() bool {
				var t veritasTree
				ok := d.tree(&t)
				f.Trees = append(f.Trees, t)
				return ok
			})
		}
		return ok
	})
}

func (d *vfast) tree(t *veritasTree) bool {
	return d.object(veritasTreeKeys, func(key string) bool {
		var ok bool
		switch key {
		case "num_leaf_values":
			t.NumLeafValues, ok = d.int()
		case "split_type":
			t.SplitType, ok = d.str()
		case "structure":
			t.Structure, ok = d.node()
		}
		return ok
	})
}

func (d *vfast) node() (*veritasNode, bool) {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > MaxDepth+2 {
		return nil, false // encoding/json and veritasWalk say what is wrong
	}
	n := &veritasNode{}
	ok := d.object(veritasNodeKeys, func(key string) bool {
		var ok bool
		switch key {
		case "feat_id":
			var v int
			v, ok = d.int()
			n.FeatID = &v
		case "split_value":
			var v float64
			v, ok = d.float()
			n.SplitValue = &v
		case "left":
			n.Left, ok = d.node()
		case "right":
			n.Right, ok = d.node()
		case "leaf_value":
			d.ws()
			var vals leafValues
			if d.i < len(d.s) && d.s[d.i] == '[' {
				vals = leafValues{}
				ok = d.array(func() bool {
					v, ok := d.float()
					vals = append(vals, v)
					return ok
				})
			} else {
				var v float64
				v, ok = d.float()
				vals = leafValues{v}
			}
			n.LeafValue = &vals
		}
		return ok
	})
	return n, ok
}
