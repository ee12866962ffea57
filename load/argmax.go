package load

// The command line's reading of a learned policy's arg-max (--argmax),
// PlaJA's --applicability-filtering: it overrides the policy's `argmax`
// line and a PlaJA interface's "filter" member. It is applied to the
// selected policy's declaration, so every engine sees it there
// (symbolic.PolicyDecl.ArgMaxAll), the model as printed says it (a
// certificate's model hash binds it), and a certificate records it as it
// records -D values.

import (
	"fmt"
	"path/filepath"

	"vigil/lang/jani"
	"vigil/symbolic"
)

// ArgMax is a reading of a learned policy's arg-max given on the command
// line (--argmax); ArgMaxDeclared keeps the declaration's.
type ArgMax string

const (
	// ArgMaxDeclared: the policy's `argmax` line, or its interface's
	// "filter", or argmax applicable.
	ArgMaxDeclared ArgMax = ""
	// ArgMaxAll: the arg-max over all outputs; the policy is stuck where
	// that label is not applicable (`argmax all`).
	ArgMaxAll ArgMax = "all"
	// ArgMaxApplicable: the arg-max over the applicable outputs (`argmax
	// applicable`).
	ArgMaxApplicable ArgMax = "applicable"
)

// ParseArgMax reads a value of --argmax ("" is ArgMaxDeclared).
func ParseArgMax(s string) (ArgMax, error) {
	switch a := ArgMax(s); a {
	case ArgMaxDeclared, ArgMaxAll, ArgMaxApplicable:
		return a, nil
	}
	return "", fmt.Errorf("--argmax %q: want all (the arg-max over all outputs, stuck where it is not applicable) or applicable (the arg-max over the applicable outputs)", s)
}

// Flag is the command line that gives a: "--argmax all" ("" for
// ArgMaxDeclared).
func (a ArgMax) Flag() string {
	if a == ArgMaxDeclared {
		return ""
	}
	return "--argmax " + string(a)
}

// ReadingOf returns the reading d takes: "all" or "applicable" for a
// network or tree-ensemble policy, "" for any other (or nil).
func ReadingOf(d *symbolic.PolicyDecl) string {
	switch {
	case d == nil || (d.Kind != symbolic.KindNN && d.Kind != symbolic.KindTrees):
		return ""
	case d.ReadsAll():
		return string(ArgMaxAll)
	}
	return string(ArgMaxApplicable)
}

// OverrideNote says how a, given on the command line, overrides the
// reading of d, the selected policy, before SetArgMax applies it: "policy
// pi reads argmax applicable (--argmax applicable; as declared at
// m.spec:6:1 it reads argmax all)", naming the PlaJA interface when the
// declaration has one. It is "" when a is ArgMaxDeclared, gives the
// reading d already has, or does not apply to d (SetArgMax's error).
func OverrideNote(d *symbolic.PolicyDecl, a ArgMax) string {
	before := ReadingOf(d)
	if a == ArgMaxDeclared || before == "" || before == string(a) {
		return ""
	}
	var was string
	inIface := d.Interface != "" && filepath.Base(d.Pos.File) == filepath.Base(d.Interface) // a PlaJA file's own policy
	switch {
	case d.Interface != "" && d.Pos.IsValid() && !inIface:
		was = fmt.Sprintf("as declared at %s, with interface %s, it reads argmax %s", d.Pos, filepath.Base(d.Interface), before)
	case d.Interface != "":
		was = fmt.Sprintf("its interface %s makes it read argmax %s", filepath.Base(d.Interface), before)
	case d.Pos.IsValid():
		was = fmt.Sprintf("as declared at %s it reads argmax %s", d.Pos, before)
	default:
		was = "without the flag it reads argmax " + before
	}
	return fmt.Sprintf("policy %s reads argmax %s (%s; %s)", d.Name, a, a.Flag(), was)
}

// ArgMaxError is an --argmax that does not apply to the selected policy:
// there is none, or it is not a network or tree ensemble.
type ArgMaxError struct {
	ArgMax ArgMax
	Policy *symbolic.PolicyDecl // nil: no policy is selected
}

func (e *ArgMaxError) Error() string {
	if e.Policy == nil {
		return fmt.Sprintf("%s: no policy is selected; the flag sets how a network or tree-ensemble policy reads its arg-max: name one with --policy or give it with --policy-file", e.ArgMax.Flag())
	}
	return fmt.Sprintf("%s: policy %s is a %s policy, which always chooses among the applicable labels; the flag sets how a network or tree-ensemble policy reads its arg-max: drop it",
		e.ArgMax.Flag(), e.Policy.Name, e.Policy.Kind)
}

// SetArgMax gives d, the selected policy, the reading a: it replaces the
// declaration's `argmax` line (and its interface's "filter"). The change
// is to d itself, one of its model's policies, so the model as printed
// (and hashed) reads it too. ArgMaxDeclared changes nothing. The error is
// an *ArgMaxError when d is nil or not a network or tree-ensemble policy.
func SetArgMax(d *symbolic.PolicyDecl, a ArgMax) error {
	if a == ArgMaxDeclared {
		return nil
	}
	if ReadingOf(d) == "" {
		return &ArgMaxError{ArgMax: a, Policy: d}
	}
	d.ArgMaxAll = a == ArgMaxAll
	return nil
}

// ApplyArgMax sets the reading a of the selected policy d (SetArgMax) and
// drops from msgs the note that said how d's PlaJA interface makes it read
// its arg-max (readingNote): the flag replaced that reading. Load does
// this; it is for a caller that runs Load's stages itself.
func ApplyArgMax(d *symbolic.PolicyDecl, a ArgMax, msgs []Message) ([]Message, error) {
	if a == ArgMaxDeclared {
		return msgs, nil
	}
	note := jani.ReadingNote(d) // the reading before the flag
	if err := SetArgMax(d, a); err != nil {
		return msgs, err
	}
	if note == "" {
		return msgs, nil
	}
	var out []Message
	for _, m := range msgs {
		if m.Warning || m.Text != note {
			out = append(out, m)
		}
	}
	return out, nil
}
