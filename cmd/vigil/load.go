package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// loadModel loads a model file (.spec or .jani) with -D overrides, printing
// its diagnostics on stderr. It returns nil when the file has errors.
func loadModel(e *env, path string, defs defines) *symbolic.Model {
	m, diags := lang.LoadFile(path, lang.Options{Defines: defs})
	if len(diags) > 0 {
		printDiags(e, diags)
	}
	if diags.HasErrors() {
		return nil
	}
	return m
}

// plajaFlags are the flags that let a published PlaJA instance run without a
// .spec: --start/--unsafe condition files (or a PA property file) and
// --policy-file (a .jani2nnet interface, or a PA property file naming one).
type plajaFlags struct {
	start, unsafe, policyFile *string
}

func addPlajaFlags(fs *flag.FlagSet) *plajaFlags {
	pf := &plajaFlags{start: fs.String("start", "", "PlaJA start condition `FILE` (state-condition JSON, or a PA property file)")}
	pf.unsafe = fs.String("unsafe", "", "PlaJA unsafe condition file (reach.jani, or a PA property file); adds a property")
	pf.policyFile = fs.String("policy-file", "", "a network (.onnx, .nnet, vigil JSON) or tree ensemble (XGBoost JSON, LightGBM text, Veritas JSON) to use as the policy, with the inputs and outputs of the declared learned policy --policy names (or of the model's learned policies when they all agree; with none declared, the model's variables and labels in order); or a PlaJA .jani2nnet interface (or a PA property file naming one)")
	return pf
}

// apply adds the property and policy the flags name to m, and selects them
// unless --property/--policy chose others.
func (pf *plajaFlags) apply(e *env, m *symbolic.Model, propName, polName *string) bool {
	janiPropertyName(m, propName)
	if *pf.start == "" && *pf.unsafe == "" && *pf.policyFile == "" {
		return true
	}
	policyFile := *pf.policyFile
	var kind symbolic.PolicyKind
	learned := false
	if policyFile != "" {
		var err error
		if kind, learned, err = learnedKind(policyFile); err != nil {
			fmt.Fprintln(e.stderr, "vigil:", err)
			return false
		}
		if learned {
			policyFile = "" // not for jani.Attach
		}
	}
	prop, pol, err := jani.Attach(m, *pf.start, *pf.unsafe, policyFile, *propName)
	if err != nil {
		fmt.Fprintln(e.stderr, "vigil:", err)
		return false
	}
	if learned {
		// --policy names the declared policy the file stands in for; the
		// file's policy is the one tested.
		if pol, err = attachLearned(m, *pf.policyFile, kind, *polName); err != nil {
			fmt.Fprintln(e.stderr, "vigil:", err)
			return false
		}
		*polName = pol
	}
	if pol != "" && !learned {
		warnFilter(e, m.Policy(pol))
	}
	if prop != "" && *propName == "" {
		*propName = prop
	}
	if pol != "" && *polName == "" {
		*polName = pol
	}
	return true
}

// modelFlags are the flags of the commands that run one model under a
// property and a policy: --property, --policy, the PlaJA files and -D.
type modelFlags struct {
	prop, pol *string
	plaja     *plajaFlags
	defs      defines
	// readsPredicates says the command uses a PA property's predicates
	// (verify --engine ppa); every other command notes that it ignores them.
	readsPredicates bool
}

func addModelFlags(fs *flag.FlagSet, propUsage, polUsage string) *modelFlags {
	mf := &modelFlags{defs: defines{}}
	mf.prop = fs.String("property", "", propUsage+"; it also chooses among the PA properties of a --start/--unsafe/--policy-file file that has several")
	mf.pol = fs.String("policy", "", polUsage)
	mf.plaja = addPlajaFlags(fs)
	fs.Var(mf.defs, "D", "override a constant: -D `NAME=VALUE` (repeatable)")
	return mf
}

// loadedModel is a model with its selected property and policy, compiled
// for the explicit engine.
type loadedModel struct {
	m    *symbolic.Model
	prop *symbolic.Property   // nil when not required and the model has none
	decl *symbolic.PolicyDecl // nil: all labels
	g    *explicit.Generator
	dec  explicit.Decider // nil when decl is nil
	// rerun is "vigil run FILE" with the flags that load the same model:
	// -D and the PlaJA files (the start of a replay hint).
	rerun string
}

// rerun returns "vigil run FILE" with the -D and PlaJA flags of mf, quoted
// for a POSIX shell.
func (mf *modelFlags) rerun(file string) string {
	args := []string{"vigil", "run", shellQuote(file)}
	names := make([]string, 0, len(mf.defs))
	for n := range mf.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args = append(args, "-D", shellQuote(n+"="+mf.defs[n]))
	}
	for _, f := range []struct{ flag, val string }{{"--start", *mf.plaja.start}, {"--unsafe", *mf.plaja.unsafe}, {"--policy-file", *mf.plaja.policyFile}} {
		if f.val != "" {
			args = append(args, f.flag, shellQuote(f.val))
		}
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string { return verify.ShellQuote(s) }

// policyDefault says which policy a command takes when --policy is absent.
type policyDefault uint8

const (
	noPolicy   policyDefault = iota // none: all labels
	onlyPolicy                      // the model's only policy, else none
	thePolicy                       // the model's only policy; several are an error
)

// load loads file, applies the PlaJA files, selects the property
// (propRequired: a model without one is an error) and the policy, and
// compiles them. It prints what goes wrong and returns false.
func (mf *modelFlags) load(e *env, cmd, file string, propRequired bool, pd policyDefault) (*loadedModel, bool) {
	lm := &loadedModel{m: loadModel(e, file, mf.defs), rerun: mf.rerun(file)}
	if lm.m == nil || !mf.plaja.apply(e, lm.m, mf.prop, mf.pol) {
		return nil, false
	}
	var ok bool
	if lm.prop, ok = selectProperty(e, cmd, lm.m, *mf.prop, propRequired); !ok {
		return nil, false
	}
	if !mf.attachModelPA(e, cmd, file, lm) {
		return nil, false
	}
	if p := lm.prop; p != nil && len(p.Predicates) > 0 && !mf.readsPredicates {
		fmt.Fprintf(e.stderr, "vigil %s: note: the %s of PA property %s (%s) are used only by verify --engine ppa; ignored here\n",
			cmd, plural(len(p.Predicates), "predicate"), p.Name, p.PredicatePos[0])
	}
	byDefault := pd == thePolicy || (pd == onlyPolicy && len(lm.m.Policies) == 1)
	if lm.decl, ok = selectPolicy(e, cmd, lm.m, *mf.pol, byDefault); !ok {
		return nil, false
	}
	var err error
	if lm.g, err = explicit.New(lm.m, lm.prop); err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
		return nil, false
	}
	if lm.decl != nil {
		if lm.dec, err = explicit.NewDecider(lm.m, lm.decl); err != nil {
			fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
			return nil, false
		}
	}
	return lm, true
}

// janiPropertyName lets --property name a property of a JANI model by its
// JANI name when import gave it another identifier (a name starting with a
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

// attachModelPA attaches the network that the selected property names
// when it is a PA property of a JANI model with a "file" member (a
// .jani2nnet interface), as a PA property file given with --policy-file
// does; --policy and --policy-file override it. A "file" that cannot be
// loaded is an error: verifying over every label instead would answer for
// another system than the one the property describes.
func (mf *modelFlags) attachModelPA(e *env, cmd, file string, lm *loadedModel) bool {
	p := lm.prop
	if p == nil || !p.FromModel || *mf.pol != "" || *mf.plaja.policyFile != "" || !strings.EqualFold(filepath.Ext(file), ".jani") {
		return true
	}
	iface, err := jani.ModelPAPolicy(file, p.Name)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
		return false
	}
	if iface == "" {
		return true
	}
	refuse := func(why string) bool {
		fmt.Fprintf(e.stderr, "vigil %s: PA property %s of %s names the policy interface %s (its \"file\"), but %s; give the network with --policy-file FILE, or --policy NAME for a declared one\n", cmd, p.Name, file, iface, why)
		return false
	}
	d, err := jani.LoadPolicyFile(lm.m, iface)
	if err != nil {
		return refuse(fmt.Sprintf("vigil cannot load it: %v", err))
	}
	if _, err := os.Stat(d.File); err != nil {
		return refuse(fmt.Sprintf("its network %s cannot be read: %v", d.File, err))
	}
	taken := map[string]bool{}
	for _, q := range lm.m.Policies {
		taken[q.Name] = true
	}
	name := d.Name
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", d.Name, i)
	}
	d.Name = name
	lm.m.Policies = append(lm.m.Policies, d)
	warnFilter(e, d)
	*mf.pol = d.Name
	lm.rerun += " --policy-file " + shellQuote(iface) // explicit, though vigil run now attaches the property's network too
	fmt.Fprintf(e.stderr, "vigil %s: note: PA property %s names the network %s; it is the policy\n", cmd, p.Name, iface)
	return true
}

// warnFilter warns when the PlaJA interface of d asks for the policy
// semantics without applicability filtering, which vigil does not
// implement (jani.FilterWarning).
func warnFilter(e *env, d *symbolic.PolicyDecl) {
	if d == nil || d.Interface == "" {
		return
	}
	if w, err := jani.FilterWarning(d.Interface); err == nil && w != "" {
		fmt.Fprintln(e.stderr, "vigil: warning:", w)
	}
}
