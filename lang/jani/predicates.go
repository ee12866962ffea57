package jani

// PlaJA predicate files: the predicates of a predicate abstraction (vigil
// verify --engine ppa). A predicates file is a JSON array of JANI Boolean
// expressions over the model's variables; a PA property file names one in
// its "predicates" member ({"file": F}, resolved against the property
// file's directory) or lists the expressions there.

import (
	"path/filepath"

	"vigil/symbolic"
)

// LoadPredicates reads the predicates of path: a predicates file, or a PA
// property file that names or lists predicates. Each expression is
// lowered over m's variables; an unknown variable or a malformed
// expression is an error positioned in the file that holds it.
func LoadPredicates(path string, m *symbolic.Model) ([]*symbolic.Cond, error) {
	return LoadPredicatesNamed(path, m, "")
}

// LoadPredicatesNamed is LoadPredicates, choosing the PA property called
// choose (--property) in a file that has several.
func LoadPredicatesNamed(path string, m *symbolic.Model, choose string) ([]*symbolic.Cond, error) {
	return loadPredicates(path, m, choose, map[string]bool{})
}

// loadPredicates is LoadPredicatesNamed; seen holds the files whose
// {"file": F} references led here (a cycle is an error).
func loadPredicates(path string, m *symbolic.Model, choose string, seen map[string]bool) ([]*symbolic.Cond, error) {
	ps, found, err := predicatesOf(path, m, choose, seen)
	if err == nil && !found {
		l, root, err := readJSON(path)
		if err != nil {
			return nil, err
		}
		at := root
		if root.kind == kObject && root.get("properties") != nil {
			// a PA property without "predicates": name the property
			if pa, _, ok := l.paProperty(root, choose); ok {
				at = pa
			}
		}
		l.errorf(at, "no predicates: want a JSON array of JANI Boolean expressions, or a PA property file with a \"predicates\" member")
		return nil, l.errs.Err()
	}
	return ps, err
}

// PredicatesOf reads the predicates of path when it has any: found is
// false for a PA property file without a "predicates" member (or a
// condition file), so that --start and --unsafe files can supply
// predicates when they name them.
func PredicatesOf(path string, m *symbolic.Model) (ps []*symbolic.Cond, found bool, err error) {
	return predicatesOf(path, m, "", map[string]bool{})
}

func predicatesOf(path string, m *symbolic.Model, choose string, seen map[string]bool) (ps []*symbolic.Cond, found bool, err error) {
	seen[fileKey(path)] = true
	l, root, err := readJSON(path)
	if err != nil {
		return nil, false, err
	}
	list := root
	dir := filepath.Dir(path)
	if root.kind == kObject && root.get("properties") != nil {
		pa, _, ok := l.paProperty(root, choose)
		if !ok {
			return nil, false, l.errs.Err()
		}
		pn := pa.get("predicates")
		if pn == nil {
			return nil, false, nil
		}
		if pn.kind == kObject {
			f := pn.get("file")
			if f == nil || f.kind != kString {
				l.errorf(pn, "\"predicates\" must be a list of expressions or {\"file\": NAME}")
				return nil, true, l.errs.Err()
			}
			next := filepath.Join(dir, f.str)
			if seen[fileKey(next)] {
				// a PA property naming itself, or one that names it back,
				// was followed until the stack overflowed
				l.errorf(f, "\"predicates\" names %s, which leads back here (a cycle of file references); name a file that lists the predicates", f.str)
				return nil, true, l.errs.Err()
			}
			ps, err := loadPredicates(next, m, choose, seen)
			return ps, true, err
		}
		if pn.kind != kArray {
			// "predicates": "p.json" or null was read as no predicates,
			// and the error named the whole file
			l.errorf(pn, "\"predicates\" must be a list of expressions or {\"file\": NAME}, got %s", pn.describe())
			return nil, true, l.errs.Err()
		}
		list = pn
	}
	if list.kind != kArray {
		return nil, false, nil
	}
	sc := modelScope(m)
	// Non-nil even when empty: an empty list asks for no predicates (the
	// atoms of the start and unsafe conditions), not for the property's.
	ps = make([]*symbolic.Cond, 0, len(list.vals))
	for _, n := range list.vals {
		c, ok := l.cond(n, sc)
		if !ok {
			continue
		}
		ps = append(ps, c)
	}
	if err := l.errs.Err(); err != nil {
		return nil, true, err
	}
	return ps, true, nil
}

// fileKey identifies a file for cycle detection: its absolute, cleaned
// path (the path itself when it has none).
func fileKey(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return filepath.Clean(path)
}
