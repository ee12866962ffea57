package jani

import (
	"fmt"
	"path/filepath"

	"vigil/symbolic"
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

// ReadingNote says how vigil reads the policy d declared from a
// .jani2nnet interface, when it takes the arg-max over all outputs
// (PlaJA's default: no "filter" member, or "filter": false; the policy
// is stuck where the winning label is not applicable), and "" otherwise.
// A .spec overrides the file with `argmax applicable`.
func ReadingNote(d *symbolic.PolicyDecl) string {
	if d == nil || d.Interface == "" || !d.ReadsAll() {
		return ""
	}
	return fmt.Sprintf("policy interface %s has no \"filter\": true, so, as PlaJA does, the policy takes the network's arg-max over all outputs and is stuck where that label is not applicable (argmax all; --argmax applicable, or an argmax applicable line in a .spec policy, overrides it)", d.Interface)
}
