package jani

import (
	"fmt"
	"path/filepath"
)

// Ident returns the identifier vigil gives a JANI name (of a property, a
// variable or an action) at import: characters outside
// [A-Za-z0-9_-] become '_', a leading digit or hyphen gets a '_' in front
// ("8-blocks-safety" is "_8-blocks-safety") and a .spec keyword gets a
// trailing '_'. Commands use it to accept a property's original JANI name.
func Ident(name string) string { return ident(name) }

// ModelPAPolicy returns the policy interface (a .jani2nnet file) that the
// PA property called property (its JANI name, or the identifier vigil gave
// it) of the JANI model file at path names in its "file" member, resolved
// against the model's directory as PlaJA does. It returns "" when the model
// has no such PA property or the property names no file; an error only when
// the model file cannot be read or its "file" member is not a string.
func ModelPAPolicy(path, property string) (string, error) {
	l, root, err := readJSON(path)
	if err != nil {
		return "", err
	}
	ps := root.get("properties")
	if ps == nil || ps.kind != kArray {
		return "", nil
	}
	for _, p := range ps.vals {
		e := p.get("expression")
		n := p.get("name")
		if !opIs(e, "PA") || n == nil || n.kind != kString || (n.str != property && ident(n.str) != property) {
			continue
		}
		f := e.get("file")
		if f == nil {
			return "", nil
		}
		if f.kind != kString {
			l.errorf(f, "the \"file\" of PA property %q must be a string naming a .jani2nnet interface, got %s", n.str, f.describe())
			return "", l.errs.Err()
		}
		return filepath.Join(filepath.Dir(path), f.str), nil
	}
	return "", nil
}

// FilterWarning returns a warning when the .jani2nnet interface at path
// asks PlaJA for a policy semantics vigil does not implement, and "" when
// it does not. PlaJA's "filter" member (applicability filtering; absent
// means false, and PlaJA's --applicability-filtering option overrides the
// file) decides how the network picks a label: with "filter": true, the
// arg-max over the applicable labels, as vigil always does; without it,
// the arg-max over all outputs (ties to the earliest), and the policy is
// stuck where that label is not applicable. vigil's policy then has every
// transition of PlaJA's and more, so a safe verdict holds for PlaJA's
// semantics too and an unsafe one may not.
func FilterWarning(path string) (string, error) {
	_, root, err := readJSON(path)
	if err != nil {
		return "", err
	}
	f := root.get("filter")
	if f != nil && f.kind == kBool && f.b {
		return "", nil
	}
	how := "has no \"filter\" member (PlaJA's default: false)"
	if f != nil {
		how = "has \"filter\": " + f.describe()
	}
	return fmt.Sprintf("policy interface %s %s: PlaJA's policy takes the network's arg-max over all outputs and is stuck where that label is not applicable, while vigil always takes the arg-max over the applicable labels (PlaJA's \"filter\": true); vigil's policy has every transition of PlaJA's and more, so a safe verdict holds for PlaJA too, an unsafe one may not", path, how), nil
}
