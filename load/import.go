package load

// A JANI model, with its PlaJA files, converted to .spec text (vigil
// import).

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// ImportOptions say what Import converts.
type ImportOptions struct {
	Defines map[string]string // -D: every open JANI constant needs one
	// Files add a property and a policy. A policy file of a network or an
	// ensemble is declared with the model's variables as inputs and its
	// labels as outputs, in order.
	Files
	// Property chooses among the PA properties of a file that has several.
	Property string
	// Goals keeps the model's JANI properties (reachability as goal,
	// safety as unsafe); without it only the files' property is kept.
	Goals bool
	// Dir is the directory the .spec is written to: the policies' file
	// paths are made relative to it. "" leaves them as they are. (The
	// policy file's policy is written with the reading Files.ArgMax,
	// --argmax, gives, when given, instead of its interface's "filter".)
	Dir string
	// Context, when set, stops the import once it is done (Ctrl-C): Import
	// then fails with an error that wraps ErrInterrupted.
	Context context.Context
}

// Imported is the result of Import.
type Imported struct {
	Spec []byte // the .spec text
	// JANINotes are what the JANI import ignored or approximated.
	JANINotes []jani.Note
	// Notes say what the .spec leaves out (the predicates of a PA
	// property).
	Notes []Message
}

// Import converts the JANI model at path, with the property and policy
// that opts.Files add, to .spec text that stands on its own (a policy
// interface's inputs and outputs written out). The returned *Imported is
// never nil: on failure it holds the notes so far. An error of the JANI
// files is one of package jani's (jani.IsError); a product of two
// variables, which .spec cannot express, is a *symbolic.PosError.
func Import(path string, opts ImportOptions) (*Imported, error) {
	im := &Imported{}
	if err := interrupted(opts.Context, path); err != nil {
		return im, err
	}
	m, notes, err := jani.LoadNotes(path, opts.Defines)
	im.JANINotes = notes
	if err := interrupted(opts.Context, path); err != nil {
		return im, err
	}
	if err != nil {
		return im, err
	}
	queries := janiQueries(m, opts.Goals)
	if !opts.Goals {
		m.Properties = nil
		if m.StartsRestricted && opts.Unsafe == "" {
			// The start states JANI gives (restrict-initial, variables
			// without initial values) are in the properties only: without
			// one the .spec started from the initial values alone (x = 2
			// where restrict-initial says x <= 1), or had none. The
			// files' property (--unsafe) takes them itself (jani.Attach).
			m.Properties = []*symbolic.Property{{Name: "initial", Start: m.Start, Unsafe: symbolic.False()}}
		}
	}
	// A property filtered over a state formula is no .spec property (a
	// .spec property is checked from its start states): only vigil prob
	// on the .jani file computes it.
	kept := m.Properties[:0:0]
	for _, p := range m.Properties {
		if p.Query != nil && p.Query.Bounds != nil {
			im.Notes = append(im.Notes, Message{Text: fmt.Sprintf("property %s is not written to the .spec: it is bounded (%s), which a .spec property cannot say; vigil prob on the .jani file computes it", p.Name, p.Query.Bounds.Text)})
			continue
		}
		if FilterStatesError(p) != nil {
			im.Notes = append(im.Notes, Message{Text: fmt.Sprintf("property %s is not written to the .spec: its filter is over the states %s, which a .spec property (checked from its start states) cannot say; vigil prob on the .jani file computes it", p.Name, p.Query.FilterText)})
			continue
		}
		kept = append(kept, p)
	}
	m.Properties = kept
	if pos, ok := jani.NonLinear(m); ok {
		return im, symbolic.ErrorAt(pos, "a product of two variables; .spec is linear and cannot express it: run vigil on the .jani file itself (the explicit and BDD engines evaluate it)")
	}
	if pos, zeroSum, ok := jani.StateProbabilityKind(m); ok {
		if zeroSum {
			return im, symbolic.ErrorAt(pos, "an edge whose destinations all have probability 0 where it is enabled (a probability error in every engine); .spec weights cannot express that: run vigil on the .jani file itself, or give some destination a positive probability")
		}
		return im, symbolic.ErrorAt(pos, "a probability that depends on the state; .spec weights are constants and cannot express it (the .spec would give the destination an equal share): run vigil on the .jani file itself")
	}
	pf := opts.PolicyFile
	if pf != "" {
		kind, learned, err := PolicyFileKind(pf)
		if err != nil {
			return im, err
		}
		if learned {
			// A network or tree ensemble, not a PlaJA interface: the
			// .spec declares it with the model's variables as inputs and
			// its labels as outputs, in order.
			if _, err := AttachPolicyFile(m, pf, kind, ""); err != nil {
				return im, fmt.Errorf("%w\n(import --policy-file takes a PlaJA .jani2nnet interface, a PA property file naming one, or a network or tree ensemble whose inputs are the model's variables and outputs its labels, in order)", err)
			}
			pf = ""
		}
	}
	if _, _, err := jani.Attach(m, opts.Start, opts.Unsafe, pf, opts.Property); err != nil {
		return im, err
	}
	if err := interrupted(opts.Context, path); err != nil {
		return im, err
	}
	for _, p := range m.Properties {
		if len(p.Predicates) > 0 {
			im.Notes = append(im.Notes, Message{Text: fmt.Sprintf("the %s of PA property %s are not written to the .spec: only verify --engine ppa reads them, from the JANI files", phrase.Plural(len(p.Predicates), "predicate"), p.Name)})
		}
	}
	if opts.ArgMax != ArgMaxDeclared {
		// A JANI model declares no policy: the file's is the only one.
		var d *symbolic.PolicyDecl
		if len(m.Policies) > 0 {
			d = m.Policies[len(m.Policies)-1]
		}
		if err := SetArgMax(d, opts.ArgMax); err != nil {
			return im, err
		}
	}
	for _, d := range m.Policies {
		d.Interface = "" // the inputs and outputs are written out
	}
	if opts.Dir != "" {
		jani.Relativize(m, opts.Dir)
	}
	// restrict-initial apart from the initial values, as the predicate a
	// --start on the .spec keeps (it widened the start states)
	if n := jani.CarryRestrictInitial(m); n != "" {
		im.Notes = append(im.Notes, Message{Text: n})
	}
	for _, n := range lang.RenameClashingLabels(m) {
		im.Notes = append(im.Notes, Message{Text: n})
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Imported by vigil import from %s.\n", filepath.Base(path))
	if m.Type == "dtmc" {
		// .spec has no model type: its commands enabled together are a
		// choice (an MDP), where a JANI dtmc takes each with equal
		// probability (Storm); vigil prob reads the .jani so.
		b.WriteString("// The JANI model is a dtmc: the edges enabled in a state are taken with\n// equal probability. A .spec has no model type: vigil prob on this file\n// reads them as a choice (Pmax, Pmin); on the .jani it answers as Storm.\n")
	}
	b.WriteString(queries)
	if err := symbolic.Print(&b, m); err != nil {
		return im, err
	}
	im.Spec = b.Bytes()
	// in vigil fmt's layout (it wraps long lines the printer writes on
	// one), so that formatting an imported file changes nothing
	if out, diags := lang.Format(filepath.Base(path)+".spec", im.Spec); !diags.HasErrors() {
		im.Spec = out
	}
	return im, nil
}

// janiQueries renders the quantities the model's JANI properties ask for
// as comments for the .spec's head: the .spec keeps a property's goal and
// unsafe states (with --goals), not its operator, so the comment says
// which of vigil prob's probabilities (or verify's verdict) answers it.
// Without kept, the comment says the properties were left out and how to
// keep them.
func janiQueries(m *symbolic.Model, kept bool) string {
	var b strings.Builder
	for _, p := range m.Properties {
		if p.Query == nil {
			continue
		}
		fmt.Fprintf(&b, "//   %s: %s\n", p.Name, queryText(m, p))
	}
	if b.Len() == 0 {
		return ""
	}
	head := "// The model's JANI properties, below as .spec properties of these names\n// (their goal and unsafe states; the operator is kept only here):\n"
	if !kept {
		head = "// The model's JANI properties, left out (vigil import --goals keeps\n// them as .spec properties of these names):\n"
	}
	return head + b.String()
}

// queryText is a JANI property's operator and path formula in PRISM's
// notation, its states written in .spec syntax.
func queryText(m *symbolic.Model, p *symbolic.Property) string {
	q := p.Query
	op := q.Op
	switch {
	case q.Cmp != "":
		op += fmt.Sprintf("%s%g", q.Cmp, q.Bound)
	case op == "∀" || op == "∃":
	default:
		op += "=?"
	}
	safe := m.CondString(symbolic.Not(p.Unsafe))
	var path string
	switch {
	case q.Always:
		path = fmt.Sprintf("G (%s)", safe)
	case q.Weak && p.Goal != nil:
		path = fmt.Sprintf("(%s) W (%s)", safe, m.CondString(p.Goal))
	case p.Goal != nil && p.Unsafe.Op != symbolic.CFalse:
		path = fmt.Sprintf("(%s) U (%s)", safe, m.CondString(p.Goal))
	case p.Goal != nil:
		path = "F " + m.CondString(p.Goal)
	default:
		path = "F " + m.CondString(p.Unsafe)
	}
	if b := q.Bounds; b != nil {
		// bounded (vigil prob only): the bound as read
		if b.Instant {
			path = "C<=" + b.Upper.RatString()
		} else {
			path += ", " + b.Text
		}
	}
	s := fmt.Sprintf("%s [%s]", op, path)
	// The filter function over the initial states, unless it is the one
	// a property without a filter has (the largest Pmax, the smallest Pmin).
	if q.FilterStates != nil {
		s = fmt.Sprintf("filter(%s, %s, %s)", q.Filter, s, q.FilterText)
	} else if q.Filter != "" && !(q.Op == "Pmax" && q.Filter == "max") && !(q.Op == "Pmin" && q.Filter == "min") {
		s = fmt.Sprintf("filter(%s, %s, initial)", q.Filter, s)
	}
	return s
}
