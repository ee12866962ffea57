package jani

import (
	"strconv"
	"strings"

	"vigil/symbolic"
)

// keywords of the .spec language (spec-language.md, "Lexical structure"):
// a JANI name equal to one of them gets a trailing underscore so that
// `vigil import` prints a file that parses.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`model import as const type var bool pred action when skip policy nn
		trees rules table inputs outputs interface otherwise property start unsafe goal true false
		min max abs if then else`) {
		keywords[k] = true
	}
}

// ident turns a JANI name (any string) into a .spec identifier
// [A-Za-z_][A-Za-z0-9_-]*: other characters become '_', a leading digit or
// hyphen gets a '_' in front, and keywords get a trailing '_'.
func ident(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
			(i > 0 && (r == '-' || (r >= '0' && r <= '9')))
		if !ok && i == 0 && (r == '-' || (r >= '0' && r <= '9')) {
			b.WriteByte('_')
			b.WriteRune(r)
			continue
		}
		if !ok {
			r = '_'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if keywords[s] {
		s += "_"
	}
	return s
}

// varIdent names a JANI variable in the IR: a name of an array element's
// form, "on[3]" with "on" an identifier, is kept (vigil export --jani
// writes the elements of an array that cannot be a JANI array so, and the
// import reads them back as the array); any other name is ident's.
func varIdent(name string) string {
	if base, k, ok := symbolic.ArrayElem(name); ok && ident(base) == base && name == base+"["+strconv.Itoa(k)+"]" {
		return name
	}
	return ident(name)
}

// labelIdent names a JANI action in the IR: the name of a schema's label,
// "move[1,2]" with "move" an identifier (as vigil export --jani writes
// the labels of `action move(b in ..., to in ...)`), is kept; any other
// name is ident's.
func labelIdent(name string) string {
	i := strings.IndexByte(name, '[')
	if i <= 0 || !strings.HasSuffix(name, "]") || ident(name[:i]) != name[:i] {
		return ident(name)
	}
	for _, f := range strings.Split(name[i+1:len(name)-1], ",") {
		if k, err := strconv.Atoi(f); err != nil || strconv.Itoa(k) != f {
			return ident(name)
		}
	}
	return name
}

// namer hands out unique identifiers.
type namer map[string]bool

// unique returns want, or want_2, want_3, ... if want is taken.
func (nm namer) unique(want string) string {
	name := want
	for i := 2; nm[name]; i++ {
		name = want + "_" + strconv.Itoa(i)
	}
	nm[name] = true
	return name
}
