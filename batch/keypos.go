package batch

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A keySpot is where a key of an experiment file is written: the start of
// the key's own name as spelled (the last part of a dotted key, the
// quote of a quoted one, the '[' of a table header) and its value.
type keySpot struct {
	line, col int
	// start is where a dotted key's first part is (where the decoder
	// places it), leaf where its last part is (line, col).
	startLine, startCol int
	val                 unstable.Range // zero for a table header
	hasVal              bool
	// valLine, valCol is where the value starts (0, 0 when its range
	// is not known: a table header, an array).
	valLine, valCol int
	// names are the key's parts as decoded, without array indices
	// (algorithms, name for "algorithms.0.name").
	names []string
}

// A keyPath is a key's path with array indices ("algorithms.0.name") and
// its names without them.
type keyPath struct {
	path  string
	names []string
}

func (k keyPath) with(name string) keyPath {
	p := k.path
	if p != "" {
		p += "."
	}
	return keyPath{p + name, append(slices.Clip(k.names), name)}
}

func (k keyPath) index(i int) keyPath {
	return keyPath{k.path + "." + strconv.Itoa(i), k.names}
}

// keySpots finds every key of the TOML text src, by its decoded path with
// array indices as numbers ("report.group", "algorithms.2.name",
// "instances.0.defines.N"), however it is spelled: under a table header
// ([report] group = ...), dotted at the top level (report.group = ...),
// quoted ("report"."group" = ...), in an inline table (report = {group =
// ...}), in an array of tables ([[algorithms]]) or an array of inline
// tables (algorithms = [{...}]). A key written twice keeps its first
// spelling. The text is one the decoder accepted (or a prefix of it is
// read: the keys up to a syntax error).
func keySpots(src []byte) map[string]keySpot {
	var p unstable.Parser
	p.Reset(src)
	spots := map[string]keySpot{}
	arrays := map[string]int{} // path of an array of tables -> its last index
	// The offsets where lines start, for positions in O(log n) (the
	// parser's Shape counts the lines from the start each time, quadratic
	// in a list of many models).
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	pos := func(r unstable.Range) (int, int) {
		off := int(r.Offset)
		l := sort.Search(len(starts), func(i int) bool { return starts[i] > off })
		return l, off - starts[l-1] + 1
	}
	add := func(k keyPath, start, r unstable.Range, val *unstable.Node) {
		if _, ok := spots[k.path]; ok {
			return
		}
		l, c := pos(r)
		sl, sc := pos(start)
		sp := keySpot{line: l, col: c, startLine: sl, startCol: sc, names: k.names}
		if val != nil {
			sp.val, sp.hasVal = val.Raw, true
			if val.Raw.Length > 0 {
				sp.valLine, sp.valCol = pos(val.Raw)
			}
		}
		spots[k.path] = sp
	}
	// resolve joins the key parts to base, each part naming the last
	// entry of an array of tables when it names such an array.
	resolve := func(base keyPath, parts []string, lastPlain bool) keyPath {
		k := base
		for i, part := range parts {
			k = k.with(part)
			if n, ok := arrays[k.path]; ok && !(lastPlain && i == len(parts)-1) {
				k = k.index(n)
			}
		}
		return k
	}
	var keyval func(base keyPath, kv *unstable.Node)
	var value func(path keyPath, v *unstable.Node)
	value = func(path keyPath, v *unstable.Node) {
		switch v.Kind {
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				if c := it.Node(); c.Kind == unstable.KeyValue {
					keyval(path, c)
				}
			}
		case unstable.Array:
			i := 0
			for it := v.Children(); it.Next(); {
				c := it.Node()
				if c.Kind == unstable.Comment {
					continue
				}
				ep := path.index(i)
				if c.Raw.Length > 0 || c.Kind == unstable.InlineTable {
					add(ep, c.Raw, c.Raw, c)
				}
				value(ep, c)
				i++
			}
		}
	}
	keyval = func(base keyPath, kv *unstable.Node) {
		var parts []string
		var raws []unstable.Range
		for it := kv.Key(); it.Next(); {
			raws = append(raws, it.Node().Raw)
			parts = append(parts, string(it.Node().Data))
		}
		// The implicit tables of a dotted key are at their parts.
		for i := 1; i < len(parts); i++ {
			add(resolve(base, parts[:i], false), raws[0], raws[i-1], nil)
		}
		path := resolve(base, parts, true)
		add(path, raws[0], raws[len(raws)-1], kv.Value())
		value(path, kv.Value())
	}
	var table keyPath
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			keyval(table, e)
		case unstable.Table, unstable.ArrayTable:
			var parts []string
			for it := e.Key(); it.Next(); {
				parts = append(parts, string(it.Node().Data))
			}
			// The header's '[' (or "[["): a table's position is its header.
			var first unstable.Range
			if it := e.Key(); it.Next() {
				first = it.Node().Raw
			}
			l, c := pos(first)
			line := string(src[starts[l-1] : int(first.Offset)+1])
			if k := strings.LastIndex(line[:c-1], "["); k >= 0 {
				if e.Kind == unstable.ArrayTable && k > 0 && line[k-1] == '[' {
					k--
				}
				c = k + 1
			}
			header := func(k keyPath) {
				if _, ok := spots[k.path]; !ok {
					spots[k.path] = keySpot{line: l, col: c, startLine: l, startCol: c, names: k.names}
				}
			}
			if e.Kind == unstable.Table {
				table = resolve(keyPath{}, parts, false)
				header(table)
				continue
			}
			arr := resolve(keyPath{}, parts, true)
			n, ok := arrays[arr.path]
			if ok {
				n++
			}
			arrays[arr.path] = n
			header(arr)
			table = arr.index(n)
			header(table)
		}
	}
	return spots
}

// keyPos finds the line and column of a key such as "limits.memory" or
// "algorithms.2.name" in src (see keySpots), for errors found after
// decoding; a key not written gives the position of the nearest table
// that holds it, or 0, 0 (the file's start).
func keyPos(src []byte, key string) (int, int) {
	if key == "" {
		return 0, 0
	}
	spots := keySpots(src)
	for k := key; k != ""; {
		if sp, ok := spots[k]; ok {
			return sp.line, sp.col
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0, 0
}

// keyAt is the path of the key whose spelling starts at line:col (where the
// decoder places an unknown key) or whose value does (where it places a
// value of the wrong type), and its spot; "" when none is.
func keyAt(src []byte, line, col int) (string, keySpot) {
	best, bsp := "", keySpot{}
	for path, sp := range keySpots(src) {
		at := sp.startLine == line && sp.startCol == col || sp.valLine == line && sp.valCol == col
		// The deepest such key: a dotted key's implicit tables start
		// where it does.
		if at && (best == "" || len(path) > len(best)) {
			best, bsp = path, sp
		}
	}
	return best, bsp
}
