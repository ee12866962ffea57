package explicit

import (
	"slices"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// ParseState reads a state in the form Model.FormatState writes:
// space- or comma-separated name=value pairs, Booleans as true/false (or
// 1/0), enum values by name (or index). Variables not mentioned take their initial values; it is an error
// when such a variable has none, when a name is unknown (with a
// suggestion), or when a value is out of range.
func ParseState(m *symbolic.Model, text string) (symbolic.State, error) {
	s := make(symbolic.State, len(m.Vars))
	set := make([]bool, len(m.Vars))
	for _, f := range stateFields(text) {
		name, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, stateErrorf("", "%q is not NAME=VALUE", f)
		}
		if strings.HasPrefix(val, "[") {
			// a whole array, on=[1,0,2]
			if err := parseArray(m, s, set, name, val); err != nil {
				return nil, err
			}
			continue
		}
		v := m.VarIndex(name)
		if v < 0 {
			if run := arrayRun(m, name); run != nil {
				return nil, stateErrorf(name, "%s=%s: %s is an array of %d elements: give %s=[V,...] or an element, %s=V", name, val, name, run.N, name, m.Vars[run.First].Name)
			}
			return nil, stateErrorf(name, "model %s has no variable %q%s", m.Name, name, didYouMean(name, varNames(m)))
		}
		x, err := parseValue(&m.Vars[v], val)
		if err != nil {
			return nil, err
		}
		if set[v] {
			return nil, stateErrorf(name, "%s given twice", name)
		}
		s[v], set[v] = x, true
	}
	var missing []string
	for i := range m.Vars {
		if set[i] {
			continue
		}
		if !m.Vars[i].HasInit {
			missing = append(missing, m.Vars[i].Name)
			continue
		}
		s[i] = m.Vars[i].Init
	}
	if len(missing) > 0 {
		return nil, stateErrorf("", "no value for %s (they have no initial value); give NAME=VALUE for each", strings.Join(missing, ", "))
	}
	return s, nil
}

// stateFields splits a state's text at spaces, commas, tabs and newlines
// outside brackets.
func stateFields(text string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range text {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth <= 0 && (r == ' ' || r == ',' || r == '\t' || r == '\n'):
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// parseArray reads name=[v,...], the value of every element of an array.
func parseArray(m *symbolic.Model, s symbolic.State, set []bool, name, val string) error {
	run := arrayRun(m, name)
	if run == nil {
		if m.VarIndex(name) >= 0 {
			return stateErrorf(name, "%s=%s: %s is not an array: give %s=V", name, val, name, name)
		}
		return stateErrorf(name, "model %s has no array %q%s", m.Name, name, didYouMean(name, varNames(m)))
	}
	if !strings.HasSuffix(val, "]") {
		return stateErrorf(name, "%s=%s: an array's value is written [V,...]", name, val)
	}
	parts := strings.Split(val[1:len(val)-1], ",")
	if len(parts) != run.N {
		return stateErrorf(name, "%s=%s: array %s has %d elements, not %d", name, val, name, run.N, len(parts))
	}
	for i, p := range parts {
		v := symbolic.VarID(run.First + i)
		x, err := parseValue(&m.Vars[v], strings.TrimSpace(p))
		if err != nil {
			return err
		}
		if set[v] {
			return stateErrorf(m.Vars[v].Name, "%s given twice", m.Vars[v].Name)
		}
		s[v], set[v] = x, true
	}
	return nil
}

// arrayRun returns the run of the array called name, or nil.
func arrayRun(m *symbolic.Model, name string) *symbolic.VarRun {
	for _, r := range m.VarRuns() {
		if r.Array && r.Name == name {
			return &r
		}
	}
	return nil
}

func parseValue(v *symbolic.Var, val string) (int, error) {
	var x int
	switch {
	case v.Bool && val == "true":
		x = 1
	case v.Bool && val == "false":
		x = 0
	case v.Values != nil && slices.Contains(v.Values, val):
		x = v.Lo + slices.Index(v.Values, val)
	default:
		n, err := strconv.Atoi(val)
		if err != nil && v.Values != nil {
			return 0, stateErrorf(v.Name, "%s=%s: %s takes one of %s%s", v.Name, val, v.Name, strings.Join(v.Values, ", "), didYouMean(val, v.Values))
		}
		if err != nil {
			if v.Bool {
				return 0, stateErrorf(v.Name, "%s=%s: %s is a Boolean (true or false)", v.Name, val, v.Name)
			}
			return 0, stateErrorf(v.Name, "%s=%s: not an integer", v.Name, val)
		}
		x = n
	}
	if x < v.Lo || x > v.Hi {
		if v.Bool {
			return 0, stateErrorf(v.Name, "%s=%s: %s is a Boolean (true or false)", v.Name, val, v.Name)
		}
		return 0, stateErrorf(v.Name, "%s=%d is outside its range %d..%d", v.Name, x, v.Lo, v.Hi)
	}
	return x, nil
}

func varNames(m *symbolic.Model) []string {
	var out []string
	for i := range m.Vars {
		out = append(out, m.Vars[i].Name)
	}
	return out
}

// didYouMean returns ` (did you mean "x"?)` for the closest of names.
func didYouMean(name string, names []string) string { return symbolic.Suggest(name, names) }
