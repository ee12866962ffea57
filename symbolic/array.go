package symbolic

import (
	"strconv"
	"strings"
)

// Arrays: the front end lowers an array variable `on` of index range
// LO .. HI to one variable per element, named on[LO], ..., on[HI] and
// consecutive in Model.Vars (lang/spec.md, "Arrays"). Engines see the
// elements as the scalars they are; states print and parse the array as
// one value, `on=[1,0,2]`, and Print writes its declaration back.

// ArrayElem splits the name of an array element, "on[2]", into the
// array's name and the index; ok is false for any other name (names of
// the front ends never contain brackets otherwise).
func ArrayElem(name string) (base string, k int, ok bool) {
	if !strings.HasSuffix(name, "]") {
		return "", 0, false
	}
	i := strings.IndexByte(name, '[')
	if i <= 0 {
		return "", 0, false
	}
	k, err := strconv.Atoi(name[i+1 : len(name)-1])
	if err != nil {
		return "", 0, false
	}
	return name[:i], k, true
}

// VarRun is a run of Model.Vars: one array (Vars[First:First+N], of
// indices Lo, Lo+1, ...) or one scalar variable (N == 1, Array false).
type VarRun struct {
	Name     string
	First, N int
	Lo       int
	Array    bool
}

// VarRuns groups the variables into arrays and scalars, in order. An
// array's elements are consecutive, with consecutive indices and one
// type (range, Booleans, enum values, whether they have an initial
// value).
func (m *Model) VarRuns() []VarRun {
	var out []VarRun
	for i := 0; i < len(m.Vars); {
		base, k, ok := ArrayElem(m.Vars[i].Name)
		if !ok {
			out = append(out, VarRun{Name: m.Vars[i].Name, First: i, N: 1})
			i++
			continue
		}
		j := i + 1
		for j < len(m.Vars) {
			b, kj, ok := ArrayElem(m.Vars[j].Name)
			if !ok || b != base || kj != k+(j-i) || !sameType(&m.Vars[i], &m.Vars[j]) {
				break
			}
			j++
		}
		out = append(out, VarRun{Name: base, First: i, N: j - i, Lo: k, Array: true})
		i = j
	}
	return out
}

func sameType(a, b *Var) bool {
	if a.Lo != b.Lo || a.Hi != b.Hi || a.Bool != b.Bool || a.HasInit != b.HasInit || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			return false
		}
	}
	return true
}
