// Package load reads what a vigil command is about: a model file (a .spec,
// or a JANI model) with its -D values, and the files that add a property
// and a policy to it (PlaJA's start and unsafe condition files and PA
// property files, and a policy file: a network in ONNX, NNet or vigil
// JSON, a tree ensemble in XGBoost JSON, LightGBM text or Veritas JSON, or
// a PlaJA .jani2nnet interface); then it selects the property and policy
// to use.
//
// Load does all of it in one call and returns the model with the property
// and policy bound. Model, Attach, AttachModelPA, SelectProperty,
// SelectPolicy and ApplyArgMax are its stages, for a caller that runs
// them its own way (vigil cert check loads the model a certificate
// names). Nothing is printed: the model's diagnostics come back as
// lang.Diagnostics (a *DiagnosticsError when they hold errors), a start,
// unsafe or policy file that cannot be attached as a *FilesError, and
// warnings and notes as Messages for the caller to show. Messages name the files by the vigil
// flags that give them (--start, --unsafe, --policy-file, --property,
// --policy, --argmax), which Options mirrors.
//
// The package imports nn and trees: a policy file of either format is read
// for its dimensions here, and a program that loads one can bind it
// without a blank import.
package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// Files are the files that add a property and a policy to a model: PlaJA's
// start and unsafe condition files (or PA property files), and a policy
// file (a network, a tree ensemble, a .jani2nnet interface, or a PA
// property file naming one). Empty names are not given. ArgMax, PlaJA's
// --applicability-filtering beside them, is the reading the policy takes
// (ApplyArgMax); with it, a policy file may stand in for learned policies
// that differ only in their readings.
type Files struct {
	Start, Unsafe, PolicyFile string
	ArgMax                    ArgMax
}

// Given reports whether any file is given.
func (f Files) Given() bool { return f.Start != "" || f.Unsafe != "" || f.PolicyFile != "" }

// PolicyDefault says which policy Load selects when Options.Policy and the
// files name none.
type PolicyDefault uint8

const (
	NoPolicy   PolicyDefault = iota // none: every applicable label
	OnlyPolicy                      // the model's only policy, else none
	ThePolicy                       // the model's only policy; several are an error
)

// Options say what Load loads and selects.
type Options struct {
	Defines map[string]string // -D NAME=VALUE
	Files
	// Property and Policy name the property and the policy to select
	// (--property, --policy). Property also chooses among the PA
	// properties of a file that has several; with a policy file of a
	// network or ensemble, Policy names the declared policy whose inputs
	// and outputs the file takes.
	Property, Policy string
	// PropertyRequired makes a model without a property an error; without
	// it, such a model is loaded with no property selected.
	PropertyRequired bool
	PolicyDefault    PolicyDefault
	// ReadsPredicates says the caller uses a PA property's predicates
	// (predicate abstraction); otherwise Load notes that they are ignored.
	// (Files.ArgMax, --argmax, overrides how the selected policy reads its
	// arg-max: ApplyArgMax.)
	ReadsPredicates bool
	// ReadsFilterStates lets the command (vigil prob) select a JANI
	// property whose filter is over a state formula (Query.FilterStates):
	// it reduces the values of the reachable states where the formula
	// holds. Every other command checks a property from its start
	// states, which would answer another question (review19d: a wrong
	// safe), so Load refuses such a property for them (FilterStatesError).
	ReadsFilterStates bool
	// Context, when set, stops the loading once it is done (Ctrl-C): Load
	// then fails with an error that wraps ErrInterrupted.
	Context context.Context
	// DefaultProperty, when set, names the property to select where
	// neither Property nor the files name one ("" leaves the usual
	// choice, the model's only property). vigil prob takes a JANI
	// model's only probability property: the NAME_avoid twin that JANI
	// import adds beside it made every such model one of "several
	// properties".
	DefaultProperty func(*symbolic.Model) string
	// AllProperties selects no property: the caller goes through every
	// one itself (vigil prob --property all).
	AllProperties bool
}

// Message is a warning or a note about what was loaded.
type Message struct {
	Warning bool // a warning; otherwise a note
	Text    string
}

// Loaded is a loaded model with its selected property and policy.
type Loaded struct {
	Model    *symbolic.Model
	Property *symbolic.Property   // nil when none is required and the model has none
	Policy   *symbolic.PolicyDecl // nil: every applicable label
	// Diagnostics are the model file's warnings (and errors, when Load
	// fails with a *DiagnosticsError).
	Diagnostics lang.Diagnostics
	// Messages are the warnings and notes of the later stages, in order.
	Messages []Message
	// ArgMaxNote says how Files.ArgMax (--argmax) overrode the selected
	// policy's declared reading (OverrideNote); "" when it did not. It is
	// not among Messages: a command prints it as a note, or in its report.
	ArgMaxNote string
	// ModelPAInterface is the policy interface that the selected PA
	// property of a JANI model names and that became the policy
	// (AttachModelPA), "" otherwise.
	ModelPAInterface string
}

// DiagnosticsError is the error of a model file with errors.
type DiagnosticsError struct {
	Diagnostics lang.Diagnostics
}

func (e *DiagnosticsError) Error() string { return strings.TrimSuffix(e.Diagnostics.Render(), "\n") }

// FilesError is the error of a start, unsafe or policy file that cannot be
// attached to the model (Attach).
type FilesError struct {
	Err error
}

func (e *FilesError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *FilesError) Unwrap() error { return e.Err }

// Load loads the model file at path with opts.Defines, attaches the files,
// and selects the property and the policy. The returned *Loaded is never
// nil: on failure it holds the diagnostics and messages so far. Errors:
// *DiagnosticsError (the model file), *FilesError (the files), and
// otherwise a property or policy that cannot be selected or bound.
func Load(path string, opts Options) (*Loaded, error) {
	l := &Loaded{}
	m, diags, err := ModelContext(opts.Context, path, opts.Defines)
	if err != nil {
		return l, err
	}
	l.Diagnostics = diags
	if m == nil {
		return l, &DiagnosticsError{diags}
	}
	l.Model = m
	prop, pol := opts.Property, opts.Policy
	warn, err := Attach(m, opts.Files, &prop, &pol)
	l.Messages = append(l.Messages, warn...)
	if err := interrupted(opts.Context, path); err != nil {
		return l, err // the files' errors may be the interruption's
	}
	if err != nil {
		return l, err
	}
	if prop == "" && opts.DefaultProperty != nil {
		prop = opts.DefaultProperty(m)
	}
	if opts.AllProperties && prop == "" {
		l.Property = nil
	} else if l.Property, err = m.SelectProperty(prop, opts.PropertyRequired); err != nil {
		return l, err
	}
	if !opts.ReadsFilterStates {
		if err := FilterStatesError(l.Property); err != nil {
			return l, err
		}
	}
	if pol == "" && opts.PolicyFile == "" {
		pa, msgs, err := AttachModelPA(m, path, l.Property)
		l.Messages = append(l.Messages, msgs...)
		if err != nil {
			return l, err
		}
		if pa != nil {
			pol, l.ModelPAInterface = pa.Name, pa.Interface
		}
	}
	if p := l.Property; p != nil && len(p.Predicates) > 0 && !opts.ReadsPredicates {
		l.Messages = append(l.Messages, Message{Text: fmt.Sprintf("the %s of PA property %s (%s) are used only by verify --engine ppa; ignored here",
			phrase.Plural(len(p.Predicates), "predicate"), p.Name, p.PredicatePos[0])})
	}
	byDefault := opts.PolicyDefault == ThePolicy || (opts.PolicyDefault == OnlyPolicy && len(m.Policies) == 1)
	if pol == "none" && m.Policy("none") == nil {
		// --policy none: no policy (every applicable label), as vigil
		// run's help says, unless the model declares a policy so named
		pol, byDefault = "", false
	}
	if l.Policy, err = SelectPolicy(m, pol, byDefault); err != nil {
		return l, err
	}
	l.ArgMaxNote = OverrideNote(l.Policy, opts.ArgMax)
	if l.Messages, err = ApplyArgMax(l.Policy, opts.ArgMax, l.Messages); err != nil {
		return l, err
	}
	return l, nil
}

// Model loads a model file (.spec, or .jani by its extension) with -D
// values. The model is nil when the diagnostics hold errors.
func Model(path string, defines map[string]string) (*symbolic.Model, lang.Diagnostics) {
	return lang.LoadFile(path, lang.Options{Defines: defines})
}

// ErrInterrupted is wrapped by the error of a load that its context
// stopped (Ctrl-C or SIGTERM).
var ErrInterrupted = errors.New("interrupted")

// ModelContext is Model stopped by ctx (nil: never): once ctx is done it
// returns no model, no diagnostics and an error wrapping ErrInterrupted.
func ModelContext(ctx context.Context, path string, defines map[string]string) (*symbolic.Model, lang.Diagnostics, error) {
	if err := interrupted(ctx, path); err != nil {
		return nil, nil, err
	}
	m, diags := lang.LoadFile(path, lang.Options{Defines: defines, Context: ctx})
	if err := interrupted(ctx, path); err != nil {
		return nil, nil, err // the diagnostics say E0005, or are of a half-loaded model
	}
	return m, diags, nil
}

// interrupted is the error of a load of path that ctx stopped, nil while
// ctx is not done.
func interrupted(ctx context.Context, path string) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("%w while loading %s", ErrInterrupted, path)
}

// Attach adds the property and policy that files name to m and selects
// them: *property and *policy (the names asked for, "" for none) become
// theirs unless they name others. A policy file of a network or an
// ensemble stands in for the declared learned policy *policy names (see
// AttachPolicyFile) and is always selected. Before anything, *property
// when it is a JANI property's original name becomes the identifier
// import gave it ("8-blocks-safety" is "_8-blocks-safety"). It returns the
// warnings of a PlaJA interface vigil reads differently from PlaJA; its
// error is a *FilesError.
func Attach(m *symbolic.Model, files Files, property, policy *string) ([]Message, error) {
	janiPropertyName(m, property)
	if !files.Given() {
		return nil, nil
	}
	policyFile := files.PolicyFile
	var kind symbolic.PolicyKind
	learned := false
	if policyFile != "" {
		var err error
		if kind, learned, err = PolicyFileKind(policyFile); err != nil {
			return nil, &FilesError{err}
		}
		if learned {
			policyFile = "" // not for jani.Attach
		}
	}
	prop, pol, err := jani.Attach(m, files.Start, files.Unsafe, policyFile, *property)
	if err != nil {
		return nil, &FilesError{err}
	}
	var msgs []Message
	if learned {
		// *policy names the declared policy the file stands in for; the
		// file's policy is the one selected.
		if pol, err = attachPolicyFile(m, files.PolicyFile, kind, *policy, files.ArgMax != ArgMaxDeclared); err != nil {
			return nil, &FilesError{err}
		}
		*policy = pol
	} else if pol != "" {
		msgs = readingNote(m.Policy(pol))
	}
	if prop != "" && *property == "" {
		*property = prop
	}
	if pol != "" && *policy == "" {
		*policy = pol
	}
	return msgs, nil
}

// janiPropertyName lets prop name a property of a JANI model by its JANI
// name when import gave it another identifier (a name starting with a
// digit, such as "8-blocks-safety", is "_8-blocks-safety" in vigil).
func janiPropertyName(m *symbolic.Model, prop *string) {
	name := *prop
	if name == "" || m.Property(name) != nil {
		return
	}
	if id := jani.Ident(name); id != name {
		if p := m.Property(id); p != nil && p.FromModel {
			*prop = id
		}
	}
}

// AttachModelPA attaches the network that p names when p is a PA property
// of the JANI model file at path with a "file" member (a .jani2nnet
// interface), as a PA property file given as Files.PolicyFile does; a
// caller whose user named a policy does not call it. It returns the added
// policy (nil when p names no network) with a note saying how the
// network is read (readingNote) and one saying the network is the policy. A "file" that cannot be loaded
// is an error: verifying over every label instead would answer for
// another system than the one the property describes.
func AttachModelPA(m *symbolic.Model, path string, p *symbolic.Property) (*symbolic.PolicyDecl, []Message, error) {
	if p == nil || !p.FromModel || !strings.EqualFold(filepath.Ext(path), ".jani") {
		return nil, nil, nil
	}
	iface, err := jani.ModelPAPolicy(path, p.Name)
	if err != nil || iface == "" {
		return nil, nil, err
	}
	refuse := func(why string) error {
		return fmt.Errorf("PA property %s of %s names the policy interface %s (its \"file\"), but %s; give the network with --policy-file FILE, or --policy NAME for a declared one", p.Name, path, iface, why)
	}
	d, err := jani.LoadPolicyFile(m, iface)
	if err != nil {
		return nil, nil, refuse(fmt.Sprintf("vigil cannot load it: %v", err))
	}
	if _, err := os.Stat(d.File); err != nil {
		return nil, nil, refuse(fmt.Sprintf("its network %s cannot be read: %v", d.File, err))
	}
	d.Name = uniqueName(m, d.Name)
	m.Policies = append(m.Policies, d)
	msgs := append(readingNote(d), Message{Text: fmt.Sprintf("PA property %s names the network %s; it is the policy", p.Name, iface)})
	return d, msgs, nil
}

// uniqueName returns name, or name_2, name_3, ... when m has a policy
// called so.
func uniqueName(m *symbolic.Model, name string) string {
	taken := map[string]bool{}
	for _, q := range m.Policies {
		taken[q.Name] = true
	}
	base := name
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	return name
}

// readingNote says when the PlaJA interface of d makes the policy take
// the arg-max over all outputs (jani.ReadingNote).
func readingNote(d *symbolic.PolicyDecl) []Message {
	if n := jani.ReadingNote(d); n != "" {
		return []Message{{Text: n}}
	}
	return nil
}

// NameError is a property or policy that cannot be selected
// (symbolic.NameError).
type NameError = symbolic.NameError

// SelectProperty is symbolic.Model.SelectProperty: the property called
// name, or the only one when name is "". A JANI property that import
// renamed (a .spec keyword gets a trailing underscore) answers to its JANI
// name too. A property read from a JANI model's properties section is
// taken by default only when required: without one, a command sees the
// whole model (nothing terminal), as Storm builds it. The error is a
// *NameError.
func SelectProperty(m *symbolic.Model, name string, required bool) (*symbolic.Property, error) {
	p, err := m.SelectProperty(name, required)
	if err == nil {
		err = FilterStatesError(p)
	}
	return p, err
}

// FilterStatesError refuses p when it is a JANI property filtered over a
// state formula (Query.FilterStates): only vigil prob computes it (Load's
// ReadsFilterStates); nil otherwise.
func FilterStatesError(p *symbolic.Property) error {
	if p != nil && p.Query != nil && p.Query.Bounds != nil {
		// step- or reward-bounded (or an expected reward over the first
		// steps): read without its bound it would be another question
		return fmt.Errorf("%s: property %s is bounded (%s), which only vigil prob computes; this command would check it without its bound, which is another question: use vigil prob (--steps K asks a .spec property within K steps)", p.Pos, p.Name, p.Query.Bounds.Text)
	}
	if p == nil || p.Query == nil || p.Query.FilterStates == nil {
		return nil
	}
	return fmt.Errorf("%s: property %s has a filter over the states %s (the reachable states where that holds, as Storm reads it), which only vigil prob computes; this command checks a property from its start states, which is another question: use vigil prob, or give those states as a start condition (vigil import --start)", p.Pos, p.Name, p.Query.FilterText)
}

// SelectPolicy is symbolic.Model.SelectPolicy: the policy called name;
// with name "" and byDefault, the only one (nil when the model has none).
// The error is a *NameError.
func SelectPolicy(m *symbolic.Model, name string, byDefault bool) (*symbolic.PolicyDecl, error) {
	return m.SelectPolicy(name, byDefault)
}
