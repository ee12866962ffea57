package jani

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/symbolic"
)

// Load reads the JANI model at path and lowers it to the IR. defines sets
// constants (-D NAME=VALUE): every open constant (one declared without a
// value) must be defined; a define may also override a constant that has a
// value. Notes about ignored parts of the model are dropped; use LoadNotes
// to see them.
func Load(path string, defines map[string]string) (*symbolic.Model, error) {
	m, _, err := LoadNotes(path, defines)
	return m, err
}

// LoadNotes is Load that also returns the import's notes.
func LoadNotes(path string, defines map[string]string) (*symbolic.Model, []Note, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, nil, plainf("%v", err)
	}
	return Decode(path, data, defines)
}

// Decode lowers the JANI model in data; name is the file name used in
// positions. On error the model is nil and the error is an *Error or an
// ErrorList.
func Decode(name string, data []byte, defines map[string]string) (*symbolic.Model, []Note, error) {
	return decode(context.Background(), name, data, defines, true)
}

// DecodeContext is Decode stopped by ctx (Ctrl-C): once it is done, the
// lowering of edges and their composition stop with the error
// "interrupted before the model was loaded".
func DecodeContext(ctx context.Context, name string, data []byte, defines map[string]string) (*symbolic.Model, []Note, error) {
	return decode(ctx, name, data, defines, true)
}

// DecodeDynamics is Decode without the properties section: the model a .spec
// file imports, whose properties are the .spec's own.
func DecodeDynamics(name string, data []byte, defines map[string]string) (*symbolic.Model, []Note, error) {
	return decode(context.Background(), name, data, defines, false)
}

func decode(ctx context.Context, name string, data []byte, defines map[string]string, props bool) (*symbolic.Model, []Note, error) {
	root, err := parseJSON(name, data)
	if err != nil {
		return nil, nil, err
	}
	ml := &modelLoader{
		lowerer: newLowerer(name, data),
		defines: defines,
		m:       &symbolic.Model{},
		consts:  map[string]val{},
		globals: map[string]*varInfo{},
		silent:  symbolic.NoLabel,
		props:   props,
		ctx:     ctx,
	}
	ml.bounds = exactBounds(ml.m)
	ml.levelsBelowZero = negativeLevels(root)
	ml.model(root)
	if err := ml.errs.Err(); err != nil {
		return nil, ml.notes, err
	}
	return ml.m, ml.notes, nil
}

// Supported and rejected model types.
var (
	discreteTypes   = map[string]bool{"lts": true, "mdp": true, "dtmc": true}
	continuousTypes = map[string]bool{"ctmc": true, "ma": true, "pta": true, "sta": true, "ta": true,
		"pts": true, "ha": true, "pha": true, "sha": true, "ctmdp": true}
)

type modelLoader struct {
	*lowerer
	ctx     context.Context // nil: never stopped (DecodeContext)
	stopped bool
	defines map[string]string
	m       *symbolic.Model
	consts  map[string]val
	globals map[string]*varInfo
	autos   []*automaton
	silent  symbolic.LabelID
	// transient Booleans in declaration order (globals, then each
	// automaton's locals): they become predicates.
	transients []*varInfo
	// transient numeric variables (rewards), and the one read back as
	// the commands' costs (nil: none; see costs)
	rewards []*varInfo
	costVar *varInfo
	props   bool // read the properties section
	// initial is the model's restrict-initial expression other than true
	// (nil: none): the start condition of every property.
	initial *node
	// composed and outcomes count the commands the synchronisation
	// vectors combine and the outcomes of every composed command (see
	// maxComposed, maxTotalOutcomes).
	composed, outcomes int
	// unnarrowed is the bounds before narrow (nil outside it): an
	// assignment performed after others (leveled) reads their values,
	// which the guard does not bound. levelsBelowZero: some assignment's
	// index may be negative (performed before index 0).
	unnarrowed func(*symbolic.Expr) (lo, hi int)
	// edgeGuard is the guard of the edge whose destinations are being
	// lowered (edgeDests; nil elsewhere): where a choice of its may be
	// empty (emptyChoice)
	edgeGuard *symbolic.Cond
	// edgeGuardSize is edgeGuard's tree size and edgeGuardVars the
	// variables it reads, computed once per edge (-1 and nil until
	// emptyChoice needs them): the choices of an edge share them
	edgeGuardSize int64
	edgeGuardVars map[symbolic.VarID]bool
	// emptySpent is the work emptyChoice has spent, states enumerated
	// times the nodes evaluated in each (within maxEmptySpent over the
	// model)
	emptySpent      int
	levelsBelowZero bool
	// labelOf caches label's answers by JANI name, for labelCount labels
	// (a linear search per edge made large models quadratic to load).
	labelOf    map[string]symbolic.LabelID
	labelCount int
	// zeroSums holds the label and guard (text) of every zeroSum command
	// added (addZeroSum)
	zeroSums map[string]bool
	// funcs holds the model's functions (functions.go)
	funcs map[string]*function
	// splitVars collects, while an edge's destinations are lowered, the
	// variables that the bounds of its PlaJA choices read where two of a
	// choice's values may be equal in some states; pinned gives them
	// values while a piece of the split edge is lowered (splitChoices)
	splitVars map[symbolic.VarID]bool
	pinned    map[symbolic.VarID]int
}

type varInfo struct {
	id        symbolic.VarID
	isBool    bool
	transient bool
	array     bool
	reward    bool       // a transient numeric variable
	elems     []*varInfo // an array's elements, variables name[0], name[1], ...
	name      string     // the JANI name
	node      *node
	// A transient Boolean (a JANI label): its initial value, and once the
	// locations' transient-values are read, the condition it stands for.
	labelInit bool
	label     *symbolic.Cond
}

type automaton struct {
	name     string
	node     *node
	locs     map[string]int
	locNames []string
	locVar   symbolic.VarID // -1 with a single location
	locals   map[string]*varInfo
	edges    []*edge
	tvals    []tval               // the locations' transient-values, read once all variables are declared
	byAction map[string][]*edge   // edges by action name (compose.go's byAction)
	funcs    map[string]*function // the automaton's functions (functions.go)
}

// tval is one entry {"ref": x, "value": v} of a location's transient-values.
type tval struct {
	loc  int
	node *node
}

type edge struct {
	node   *node
	auto   *automaton
	loc    int
	action string // "" for silent edges
	guard  *symbolic.Cond
	dests  []*dest
	writes map[symbolic.VarID]bool
}

type dest struct {
	node    *node
	loc     int
	prob    val // constant 1 when absent
	hasProb bool
	// A state-dependent probability: pnum/pden (prob is then not constant).
	pnum, pden *symbolic.Expr
	// share, when set, is the constant share of a state-dependent
	// probability that this destination has of the one written (one
	// value of a PlaJA non-deterministic assignment: expandChoices)
	share *big.Rat
	// mult is how many combinations of the values k of its choices this
	// destination stands for (0: one), which weigh it where no
	// destination states a probability (outcomes are then uniform)
	mult    int64
	assigns []asg
	// the transient numeric variable the destination assigns, and its
	// value (costBad: one that cannot be a cost, or two)
	costVar *varInfo
	cost    *symbolic.Expr
	costBad bool
}

type asg struct {
	v     *varInfo
	level int
	value *symbolic.Expr // Booleans: OpBool or a 0/1 literal
	node  *node
}

func (ml *modelLoader) model(root *node) {
	if !ml.obj(root, "a JANI model") {
		return
	}
	if v := root.get("jani-version"); v != nil && (v.kind != kNumber || !isCount(v.str)) {
		ml.errorf(v, "\"jani-version\" must be a positive integer such as 1, got %s", v.describe())
	}
	if n := root.get("name"); n != nil && n.kind == kString {
		ml.m.Name = ident(n.str)
	} else {
		ml.m.Name = ident(strings.TrimSuffix(filepath.Base(ml.file), filepath.Ext(ml.file)))
	}
	if root.get("type") == nil && root.get("automata") == nil && root.get("variables") == nil &&
		(root.get("op") != nil || root.get("properties") != nil || root.get("input") != nil || root.get("output") != nil) {
		// a PlaJA start/unsafe/property file (or an interface) given as
		// the model: say what it is and where it goes
		ml.errorf(root, "%s is not a JANI model (it has no \"type\", \"variables\" or \"automata\"); it looks like a PlaJA property or interface file: give it beside its model, with --start FILE, --unsafe FILE or --policy-file FILE", filepath.Base(ml.file))
		return
	}
	typ, tn, ok := ml.str(root, "type")
	if !ok {
		return
	}
	switch {
	case discreteTypes[typ]:
		ml.m.Type = typ // vigil prob fuses a dtmc's enabled edges
	case continuousTypes[typ]:
		ml.errorf(tn, "model type %q is not supported: vigil handles the discrete types lts, mdp and dtmc", typ)
		return
	default:
		ml.errorf(tn, "unknown model type %q (want lts, mdp or dtmc)", typ)
		return
	}
	// checked once the file is a model: a PlaJA property file read as one
	// has "missing \"type\"" as its one error
	ml.members(root, "the model", "jani-version", "name", "metadata", "type", "features", "actions", "constants",
		"variables", "restrict-initial", "properties", "automata", "system", "functions", "datatypes")
	ml.features(root)
	ml.actions(root)
	ml.declaredVars(root)
	// functions before constants: a constant's value may call one (whose
	// body is lowered where it is called)
	ml.funcs = ml.readFunctions(root, nil)
	ml.checkFunctions(ml.funcs)
	ml.constants(root)
	if len(ml.errs) > 0 {
		return // everything below depends on the constants
	}
	if vs, ok := ml.arr(root, "variables", false); ok {
		for _, v := range vs {
			if n := v.get("name"); n != nil && n.kind == kString && ml.globals[n.str] != nil {
				ml.errorf(n, "variable %q declared twice (first at %s)", n.str, ml.pos(ml.globals[n.str].node))
				continue
			}
			if ml.clash(v, "") {
				continue
			}
			if vi := ml.variable(v, ml.constScope); vi != nil {
				ml.globals[vi.name] = vi
			}
		}
	}
	ml.restrictInitial(root, true)
	for _, key := range []string{"rewards", "reward-structures"} {
		if n := root.get(key); n != nil {
			ml.note(n, "%s ignored: vigil verifies safety and imports no rewards", key)
		}
	}
	ml.automata(root)
	if len(ml.errs) > 0 {
		return
	}
	ml.costs()
	ml.compose(root)
	if len(ml.errs) == 0 && ml.props {
		ml.properties(root)
	}
	if len(ml.errs) == 0 && (ml.initial != nil || ml.uninitialised()) {
		ml.startCondition()
	}
	if !ml.stopped {
		ml.checkUncalled()
	}
	if len(ml.errs) == 0 && !ml.stopped && ml.props {
		ml.checkTreeSizes() // an imported model: lang checks the program (E0705)
	}
}

// startCondition makes the model's restrict-initial the start condition
// of every property (vigil export --jani writes a property's start
// condition there). A model without properties gets one, "initial", with
// no unsafe states, so that its start states are those restrict-initial
// allows. restrict-initial restricts the initial states the variables'
// initial values and the automata's initial locations give (JANI, as
// Storm reads it), so each variable that has an initial value keeps it:
// without that, x with initial value 0 and restrict-initial x <= 2 had
// three start states. (vigil export --jani writes no initial values when
// it writes a start condition.)
//
// A variable without an initial value starts at any value of its type
// (JANI; Storm enumerates them), so a model with one gets a start
// condition even without a restrict-initial (or with restrict-initial
// true): the variables' ranges, less those that have initial values. It
// was refused as a variable "with no initial value and no start
// condition".
func (ml *modelLoader) startCondition() {
	start := symbolic.True()
	if ml.initial != nil {
		var ok bool
		if start, ok = ml.cond(ml.initial, ml.propertyScope()); !ok {
			return
		}
	}
	// a restrict-initial that folds to true (0 <= 1, a constant true)
	// restricts nothing: the initial values alone are the start states
	restricts := start.Op != symbolic.CTrue
	if restricts {
		ml.m.RestrictInitial = start
	}
	start = startWith(ml.m, start)
	for i := range ml.m.Vars {
		ml.m.StartsRestricted = ml.m.StartsRestricted || !ml.m.Vars[i].HasInit
	}
	ml.m.StartsRestricted = ml.m.StartsRestricted || restricts
	if ml.m.StartsRestricted {
		ml.m.Start = start
	}
	if len(ml.m.Properties) == 0 {
		ml.m.Properties = append(ml.m.Properties, &symbolic.Property{Name: "initial", Unsafe: symbolic.False(), Pos: ml.pos(ml.initial), FromModel: true})
	}
	for _, p := range ml.m.Properties {
		switch {
		case p.Start == nil:
			p.Start = start
		case ml.m.RestrictInitial != nil:
			// a PA property's own "start" (paInline) replaces the
			// initial values, not restrict-initial, as a PlaJA --start
			// does (AddPropertyNamed): it started a model restricted to
			// x <= 1 from x = 2 (s25r_jani_pa_inline_restrict)
			p.Start = symbolic.And(ml.m.RestrictInitial, p.Start)
		}
	}
}

// startWith is the start condition of a model whose restrict-initial is
// restrict (True: none): restrict and the initial value of every
// variable that has one. A conjunct restrict already has is not added
// again: vigil export --jani writes an array the start condition fixes
// both as a JANI array with that initial value and in restrict-initial,
// and each export ∘ import round added the elements' equations once more.
func startWith(m *symbolic.Model, restrict *symbolic.Cond) *symbolic.Cond {
	conj := []*symbolic.Cond{restrict}
	have := map[string]bool{}
	conjuncts(restrict, func(c *symbolic.Cond) { have[m.CondString(c)] = true })
	for i := range m.Vars {
		v := &m.Vars[i]
		var c *symbolic.Cond
		switch {
		case v.HasInit && v.Bool:
			// A Boolean as a condition: compared with 0 or 1, vigil import
			// printed on[0] == 0, which the .spec checker refuses (E0201).
			c = &symbolic.Cond{Op: symbolic.CVar, Var: symbolic.VarID(i)}
			if v.Init == 0 {
				c = symbolic.Not(c)
			}
		case v.HasInit:
			c = symbolic.Compare(symbolic.V(symbolic.VarID(i)), symbolic.Eq, symbolic.Lit(v.Init))
		default:
			continue
		}
		if !have[m.CondString(c)] {
			conj = append(conj, c)
		}
	}
	return symbolic.And(conj...)
}

// uninitialised reports whether some variable of the model has no
// initial value (startCondition).
func (ml *modelLoader) uninitialised() bool {
	for i := range ml.m.Vars {
		if !ml.m.Vars[i].HasInit {
			return true
		}
	}
	return false
}

var knownFeatures = map[string]string{
	"derived-operators":       "",
	"state-exit-rewards":      "",
	"arrays":                  "reported where used",
	"functions":               "",
	"datatypes":               "reported where used",
	"nondet-selection":        "reported where used",
	"trigonometric-functions": "reported where used",
	"hyperbolic-functions":    "reported where used",
	"rounding-functions":      "",
	"x-mcsta-rounding":        "",
}

func (ml *modelLoader) features(root *node) {
	fs, ok := ml.arr(root, "features", false)
	if !ok {
		return
	}
	for _, f := range fs {
		if f.kind != kString {
			ml.errorf(f, "a feature must be a string, got %s", f.describe())
			continue
		}
		if _, known := knownFeatures[f.str]; !known {
			ml.note(f, "unknown feature %q: the import fails where the model uses it", f.str)
		}
	}
}

func (ml *modelLoader) actions(root *node) {
	as, ok := ml.arr(root, "actions", false)
	if !ok {
		return
	}
	seen := map[string]bool{}
	labels := namer{}
	for _, a := range as {
		if !ml.obj(a, "an action") {
			continue
		}
		ml.members(a, "an action", "name")
		name, nn, ok := ml.str(a, "name")
		if !ok {
			continue
		}
		if seen[name] {
			ml.errorf(nn, "action %q declared twice", name)
			continue
		}
		seen[name] = true
		ml.m.Labels = append(ml.m.Labels, symbolic.Label{Name: labels.unique(labelIdent(name)), Pos: ml.pos(a)})
	}
}

// label returns the LabelID of a declared action by its JANI name.
func (ml *modelLoader) label(name string) symbolic.LabelID {
	if ml.labelOf == nil || ml.labelCount != len(ml.m.Labels) {
		ml.labelOf, ml.labelCount = map[string]symbolic.LabelID{}, len(ml.m.Labels)
	}
	if l, ok := ml.labelOf[name]; ok {
		return l
	}
	l := labelIndex(ml.m, name)
	ml.labelOf[name] = l
	return l
}

// labelIndex finds a label by JANI name: exact first, then as converted by ident.
func labelIndex(m *symbolic.Model, name string) symbolic.LabelID {
	if l := m.LabelIndex(name); l != symbolic.NoLabel {
		return l
	}
	return m.LabelIndex(ident(name))
}

// silentLabel returns the label of silent transitions, creating it on first use.
func (ml *modelLoader) silentLabel() symbolic.LabelID {
	if ml.silent == symbolic.NoLabel {
		name := SilentLabel
		for ml.m.LabelIndex(name) != symbolic.NoLabel {
			name += "_"
		}
		ml.m.Labels = append(ml.m.Labels, symbolic.Label{Name: name, Pos: symbolic.Pos{File: ml.file}})
		ml.silent = symbolic.LabelID(len(ml.m.Labels) - 1)
	}
	return ml.silent
}

// SilentLabel names the label of transitions without an action (JANI's
// silent action τ). If the model declares an action "tau", underscores are
// appended until the name is free.
const SilentLabel = "tau"

// constScope resolves constants only (and the model's functions).
func (ml *modelLoader) constScope(name string) (ref, bool) {
	if fn, ok := strings.CutPrefix(name, fnPrefix); ok {
		if f := ml.funcs[fn]; f != nil {
			return ref{fn: f}, true
		}
		return ref{}, false
	}
	if v, ok := ml.consts[name]; ok {
		return ref{isConst: true, val: v}, true
	}
	return ref{}, false
}

// globalScope resolves global variables and constants.
func (ml *modelLoader) globalScope(name string) (ref, bool) {
	if vi, ok := ml.globals[name]; ok {
		return vi.ref(), true
	}
	return ml.constScope(name)
}

// clash refuses variable v when its name is a constant's or, for a local
// variable of automaton auto (auto != ""), a global variable's. JANI wants
// a variable's name "unique among all constants and global variables";
// read anyway, the two declarations disagreed: a global x shadowing a
// constant x was the variable in expressions but the constant in bounds
// and initial values (which see constants only), and a local shadowing a
// global is resolved differently by different tools.
func (ml *modelLoader) clash(v *node, auto string) bool {
	n := v.get("name")
	if n == nil || n.kind != kString {
		return false // variable reports it
	}
	what := fmt.Sprintf("global variable %q", n.str)
	if auto != "" {
		what = fmt.Sprintf("variable %q of automaton %q", n.str, auto)
	}
	if _, ok := ml.consts[n.str]; ok {
		ml.errorf(n, "%s has the name of a constant: JANI wants a variable's name unique among all constants and global variables; rename one of them", what)
		ml.rejected[n.str] = true
		return true
	}
	if g := ml.globals[n.str]; auto != "" && g != nil {
		ml.errorf(n, "%s has the name of a global variable (declared at %s): JANI wants a variable's name unique among all constants and global variables, and tools differ on which one a use means; rename one of them", what, ml.pos(g.node))
		return true
	}
	return false
}

func (vi *varInfo) ref() ref {
	if vi.array {
		r := ref{feature: "arrays (a whole array; name an element)"}
		for _, e := range vi.elems {
			r.elems = append(r.elems, e.id)
		}
		r.isBool = len(vi.elems) > 0 && vi.elems[0].isBool
		return r
	}
	return ref{v: vi.id, isBool: vi.isBool, transient: vi.transient, label: vi.label}
}

func (ml *modelLoader) constants(root *node) {
	cs, ok := ml.arr(root, "constants", false)
	if !ok {
		return
	}
	used := map[string]bool{}
	literal := map[string]bool{}
	for _, c := range cs {
		if n := c.get("name"); n != nil && n.kind == kString {
			literal[n.str] = true
		}
	}
	for _, c := range cs {
		if !ml.obj(c, "a constant") {
			continue
		}
		ml.members(c, "a constant", "name", "type", "value")
		name, nn, ok := ml.str(c, "name")
		if !ok {
			continue
		}
		if _, dup := ml.consts[name]; dup {
			ml.errorf(nn, "constant %q declared twice", name)
			continue
		}
		// A constant refused below (no value, a bad type or value) is
		// reported once: its uses are not undeclared identifiers too.
		ml.rejected[name] = true
		tn := c.get("type")
		if tn == nil {
			ml.errorf(c, "constant %q has no type", name)
			continue
		}
		t, lo, hi, ok := ml.constType(tn)
		if !ok {
			continue
		}
		var v val
		// A constant that import renames (goal is goal_ in the .spec,
		// in reports and in run files, whose hint says -D goal_=...)
		// takes -D under that name too, unless another constant has it.
		dname := name
		if alt := ident(name); alt != name && !literal[alt] {
			if _, ok := ml.defines[alt]; ok {
				if _, both := ml.defines[name]; both {
					ml.errorf(c, "-D %s and -D %s set the same constant %q: give one", name, alt, name)
					used[name], used[alt] = true, true
					continue
				}
				dname = alt
			}
		}
		if def, ok := ml.defines[dname]; ok {
			used[dname] = true
			if v, ok = parseDefine(def, t); !ok {
				ml.errorf(c, "-D %s=%s: not a %s value", name, def, t)
				continue
			}
		} else if vn := c.get("value"); vn != nil {
			if v, ok = ml.constant(vn, ml.constScope, "the value of constant "+name); !ok {
				continue
			}
		} else {
			ml.errorf(c, "constant %q has no value: set it with -D %s=VALUE", name, name)
			continue
		}
		if (t == tBool) != (v.t == tBool) || (t == tInt && !v.k.IsInt()) {
			ml.errorf(c, "type error: constant %q of type %s has value %s", name, t, v.k.RatString())
			continue
		}
		if t == tReal {
			v.t = tReal
		}
		if lo != nil && (v.k.Cmp(lo) < 0 || v.k.Cmp(hi) > 0) {
			ml.errorf(c, "constant %q = %s is outside its bounds %s..%s", name, v.k.RatString(), lo.RatString(), hi.RatString())
			continue
		}
		ml.consts[name] = v
		delete(ml.rejected, name)
		if i, ok := ratInt(v.k); ok && t != tReal {
			ml.m.Consts = append(ml.m.Consts, symbolic.Const{Name: ident(name), Value: i, Pos: ml.pos(c)})
		} else if t == tReal {
			ml.m.Reals = append(ml.m.Reals, symbolic.RealConst{Name: ident(name), Value: v.k.RatString(), Pos: ml.pos(c)})
		}
	}
	var unknown []string
	for d := range ml.defines {
		if !used[d] {
			unknown = append(unknown, d)
		}
	}
	sort.Strings(unknown)
	for _, d := range unknown {
		var names []string
		for _, c := range cs {
			if n := c.get("name"); n != nil && n.kind == kString {
				names = append(names, n.str)
			}
		}
		ml.errorf(root.get("constants"), "-D %s: the model has no constant %q (constants: %s)", d, d, strings.Join(names, ", "))
	}
}

// constType reads a constant's type; lo and hi are set for bounded types.
func (ml *modelLoader) constType(tn *node) (t typ, lo, hi *big.Rat, ok bool) {
	if tn.kind == kString {
		switch tn.str {
		case "int":
			return tInt, nil, nil, true
		case "bool":
			return tBool, nil, nil, true
		case "real":
			return tReal, nil, nil, true
		}
		ml.unsupported(tn, "constants of type %q", tn.str)
		return 0, nil, nil, false
	}
	if tn.kind == kObject {
		if k := tn.get("kind"); k != nil && k.kind == kString && k.str == "bounded" {
			ml.members(tn, "a bounded type", "kind", "base", "lower-bound", "upper-bound")
			base := tn.get("base")
			var t typ
			switch {
			case base != nil && base.kind == kString && base.str == "int":
				t = tInt
			case base != nil && base.kind == kString && base.str == "real":
				t = tReal
			case base == nil:
				ml.errorf(tn, "bounded type has no \"base\" (JANI: \"int\" or \"real\")")
				return 0, nil, nil, false
			default:
				// before, any other base was read as int
				ml.errorf(base, "the base of a bounded type must be \"int\" or \"real\", got %s", base.describe())
				return 0, nil, nil, false
			}
			lo, hi := new(big.Rat).SetInt64(-1<<62), new(big.Rat).SetInt64(1<<62)
			if n := tn.get("lower-bound"); n != nil {
				v, ok := ml.constant(n, ml.constScope, "a bound")
				if !ok {
					return 0, nil, nil, false
				}
				lo = v.k
			}
			if n := tn.get("upper-bound"); n != nil {
				v, ok := ml.constant(n, ml.constScope, "a bound")
				if !ok {
					return 0, nil, nil, false
				}
				hi = v.k
			}
			return t, lo, hi, true
		}
	}
	ml.unsupported(tn, "constant type %s", tn.describe())
	return 0, nil, nil, false
}

// parseDefine reads a -D value: an integer, true/false, a decimal or p/q.
func parseDefine(s string, t typ) (val, bool) {
	s = strings.TrimSpace(s)
	if t == tBool {
		switch s {
		case "true":
			return constBool(true), true
		case "false":
			return constBool(false), true
		}
		return val{}, false
	}
	if strings.ContainsAny(s, "eE") && len(s) > 12 {
		return val{}, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return val{}, false
	}
	return constRat(r, t), true
}

// variable declares one global or local variable and returns its info
// (nil on error). sc resolves the bounds and the initial value.
func (ml *modelLoader) variable(v *node, sc scope) (vi *varInfo) {
	if !ml.obj(v, "a variable") {
		return nil
	}
	ml.members(v, "a variable", "name", "type", "transient", "initial-value")
	if tr := v.get("transient"); tr != nil && tr.kind != kBool {
		ml.errorf(tr, "\"transient\" must be true or false, got %s", tr.describe())
	}
	name, _, ok := ml.str(v, "name")
	if !ok {
		return nil
	}
	defer func() {
		if vi == nil {
			ml.rejected[name] = true
		}
	}()
	vi = &varInfo{name: name, node: v, id: -1}
	if tr := v.get("transient"); tr != nil && tr.kind == kBool && tr.b {
		vi.transient = true
		if tn := v.get("type"); tn == nil || tn.kind != kString || tn.str != "bool" {
			// a reward: noted in costs, which may read it as the costs
			vi.reward = true
			ml.rewards = append(ml.rewards, vi)
			return vi
		}
		vi.isBool = true
		ml.transients = append(ml.transients, vi)
		if iv := v.get("initial-value"); iv != nil {
			c, ok := ml.constant(iv, sc, "the initial value of "+name)
			if !ok || c.t != tBool {
				if ok {
					ml.errorf(iv, "type error: initial value of %q has the wrong type", name)
				}
				return nil
			}
			vi.labelInit = boolOf(c)
		}
		return vi
	}
	tn := v.get("type")
	if tn == nil {
		ml.errorf(v, "variable %q has no type", name)
		return nil
	}
	irv := symbolic.Var{Name: varIdent(name), Pos: ml.pos(v)}
	switch {
	case tn.kind == kString && tn.str == "bool":
		irv.Bool, irv.Lo, irv.Hi = true, 0, 1
	case tn.kind == kString && tn.str == "int":
		ml.unsupported(tn, "unbounded integer variable %q (give it a bounded type)", name)
		return nil
	case tn.kind == kString:
		ml.unsupported(tn, "variables of type %q (%q)", tn.str, name)
		return nil
	case tn.kind == kObject:
		kind := tn.get("kind")
		switch {
		case kind != nil && kind.kind == kString && kind.str == "array":
			vi.array = true
			if !ml.arrayVar(vi, v, tn, irv, sc) {
				return vi // its uses are refused as unsupported
			}
			return vi
		case kind == nil || kind.kind != kString || kind.str != "bounded":
			ml.unsupported(tn, "variable type %s (%q)", tn.describe(), name)
			return nil
		}
		ml.members(tn, "a bounded type", "kind", "base", "lower-bound", "upper-bound")
		if base := tn.get("base"); base == nil || base.kind != kString || base.str != "int" {
			ml.unsupported(tn, "bounded variables whose base is not int (%q)", name)
			return nil
		}
		lo, hi := tn.get("lower-bound"), tn.get("upper-bound")
		if lo == nil || hi == nil {
			ml.unsupported(tn, "half-bounded integer variable %q (give it both bounds)", name)
			return nil
		}
		l, ok1 := ml.bound(lo, sc)
		h, ok2 := ml.bound(hi, sc)
		if !ok1 || !ok2 {
			return nil
		}
		if l > h {
			ml.errorf(tn, "variable %q has an empty range %d..%d", name, l, h)
			return nil
		}
		irv.Lo, irv.Hi = l, h
	default:
		ml.errorf(tn, "bad type %s for variable %q", tn.describe(), name)
		return nil
	}
	if iv := v.get("initial-value"); iv != nil {
		c, ok := ml.constant(iv, sc, "the initial value of "+name)
		if !ok {
			return nil
		}
		if irv.Bool != (c.t == tBool) {
			ml.errorf(iv, "type error: initial value of %q has the wrong type", name)
			return nil
		}
		i, ok := ratInt(c.k)
		if !ok {
			ml.errorf(iv, "initial value %s of %q is not an integer", c.k.RatString(), name)
			return nil
		}
		if i < irv.Lo || i > irv.Hi {
			ml.errorf(iv, "initial value %d of %q is outside its range %d..%d", i, name, irv.Lo, irv.Hi)
			return nil
		}
		irv.HasInit, irv.Init = true, i
	}
	vi.isBool = irv.Bool
	vi.id = symbolic.VarID(len(ml.m.Vars))
	ml.m.Vars = append(ml.m.Vars, irv)
	return vi
}

// Variable bounds are kept within int32 so that IR arithmetic never
// overflows.
const maxBound = 1 << 31

// MaxBound is the largest magnitude of a variable bound the import
// reads (vigil export --jani notes a variable beyond it: Storm reads the
// file, vigil's import refuses it).
const MaxBound = maxBound

func (ml *modelLoader) bound(n *node, sc scope) (int, bool) {
	v, ok := ml.constant(n, sc, "a variable bound")
	if !ok {
		return 0, false
	}
	if v.t == tBool || !v.k.IsInt() {
		ml.errorf(n, "a variable bound must be an integer, got %s", v.k.RatString())
		return 0, false
	}
	i, ok := ratInt(v.k)
	if !ok || i > maxBound || i < -maxBound {
		ml.errorf(n, "bound %s is too large (vigil keeps bounds within ±2^31)", v.k.RatString())
		return 0, false
	}
	return i, true
}

// restrictInitial reads a restrict-initial: the model's (root) is kept
// for startCondition; an automaton's is refused unless true.
func (ml *modelLoader) restrictInitial(n *node, root bool) {
	ri := n.get("restrict-initial")
	if ri == nil {
		return
	}
	ml.members(ri, "restrict-initial", "exp")
	e := ri.get("exp")
	if e == nil {
		ml.errorf(ri, "restrict-initial has no \"exp\"")
		return
	}
	if e.kind == kBool && e.b {
		return
	}
	if root {
		ml.initial = e
		return
	}
	ml.unsupported(e, "an automaton's restrict-initial other than true (give initial values, or a start condition with --start)")
}

func (ml *modelLoader) automata(root *node) {
	as, ok := ml.arr(root, "automata", true)
	if !ok {
		return
	}
	byName := map[string]*node{}
	for _, a := range as {
		if !ml.obj(a, "an automaton") {
			continue
		}
		ml.members(a, "an automaton", "name", "variables", "restrict-initial", "locations", "initial-locations", "edges", "functions")
		name, nn, ok := ml.str(a, "name")
		if !ok {
			continue
		}
		if byName[name] != nil {
			ml.errorf(nn, "automaton %q declared twice", name)
			continue
		}
		byName[name] = a
	}
	sys := root.get("system")
	if sys == nil {
		ml.errorf(root, "missing \"system\"")
		return
	}
	if !ml.obj(sys, "system") {
		return
	}
	if c := sys.get("composition"); c != nil || sys.get("op") != nil {
		// Older nested compositions: only flat parallel composition is JANI.
		ml.unsupported(sys, "nested composition (use system.elements and system.syncs)")
		return
	}
	ml.members(sys, "system", "elements", "syncs")
	els, ok := ml.arr(sys, "elements", true)
	if !ok {
		return
	}
	inst := map[string]bool{}
	for _, el := range els {
		if !ml.obj(el, "a system element") {
			return
		}
		ml.members(el, "a system element", "automaton", "input-enable")
		name, nn, ok := ml.str(el, "automaton")
		if !ok {
			return
		}
		a := byName[name]
		if a == nil {
			ml.errorf(nn, "system element names undeclared automaton %q", name)
			return
		}
		if inst[name] {
			ml.unsupported(nn, "automaton %q instantiated twice", name)
			return
		}
		inst[name] = true
		if ie := el.get("input-enable"); ie != nil && ie.kind == kArray && len(ie.vals) > 0 {
			ml.unsupported(ie, "input-enable")
			return
		}
		ml.autos = append(ml.autos, &automaton{name: name, node: a, locVar: -1})
	}
	for name, a := range byName {
		if !inst[name] {
			ml.note(a, "automaton %q is not part of the system and is ignored", name)
		}
	}
	// Local variable names: kept when no other automaton declares the
	// name, else prefixed with the automaton's name (a.x, b.x are a_x, b_x).
	// A local cannot have a global's or a constant's name (clash refuses
	// it); a converted name that meets another (x.y and x_y) is made
	// unique by nameVars.
	count := map[string]int{}
	for _, a := range ml.autos {
		vs, _ := ml.arr(a.node, "variables", false)
		for _, v := range vs {
			if n := v.get("name"); n != nil && n.kind == kString {
				count[n.str]++
			}
		}
	}
	for _, a := range ml.autos {
		ml.locations(a)
		a.locals = map[string]*varInfo{}
		vs, ok := ml.arr(a.node, "variables", false)
		if !ok {
			continue
		}
		for _, v := range vs {
			if ml.clash(v, a.name) {
				continue
			}
			vi := ml.variable(v, ml.constScope)
			if vi == nil {
				continue
			}
			if _, dup := a.locals[vi.name]; dup {
				ml.errorf(v, "variable %q declared twice in automaton %q", vi.name, a.name)
				continue
			}
			a.locals[vi.name] = vi
			want := ident(vi.name)
			if count[vi.name] > 1 {
				want = ident(a.name + "_" + vi.name)
			}
			if vi.id >= 0 {
				ml.m.Vars[vi.id].Name = want // made unique below
			}
			for k, e := range vi.elems {
				ml.m.Vars[e.id].Name = want + "[" + strconv.Itoa(k) + "]"
			}
		}
		ml.restrictInitial(a.node, false)
	}
	for _, a := range ml.autos {
		a.funcs = ml.readFunctions(a.node, a)
		ml.checkFunctions(a.funcs)
	}
	ml.nameVars()
	ml.labels()
	for _, a := range ml.autos {
		ml.edges(a)
	}
}

// nameVars gives every IR variable a unique identifier: globals keep their
// (converted) JANI names, locals got theirs in automata, location variables
// are loc_<automaton>.
func (ml *modelLoader) nameVars() {
	nm := namer{}
	prev, prevBase, prevK := "", "", 0
	for i := range ml.m.Vars {
		v := &ml.m.Vars[i]
		if base, k, ok := symbolic.ArrayElem(v.Name); ok {
			// an array's elements keep one (unique) name; a new array
			// starts at index 0 (a JANI array) or where the index or the
			// name breaks the run (variables named like elements, as
			// export writes the arrays it cannot write as JANI arrays)
			if k == 0 || prev == "" || base != prevBase || k != prevK+1 {
				prev = nm.unique(base)
			}
			prevBase, prevK = base, k
			v.Name = prev + "[" + strconv.Itoa(k) + "]"
			continue
		}
		prev = ""
		v.Name = nm.unique(v.Name)
	}
}

func (ml *modelLoader) locations(a *automaton) {
	ls, ok := ml.arr(a.node, "locations", true)
	if !ok {
		return
	}
	a.locs = map[string]int{}
	for _, ln := range ls {
		if !ml.obj(ln, "a location") {
			continue
		}
		ml.members(ln, "a location", "name", "time-progress", "transient-values")
		name, nn, ok := ml.str(ln, "name")
		if !ok {
			continue
		}
		if _, dup := a.locs[name]; dup {
			ml.errorf(nn, "location %q declared twice in automaton %q", name, a.name)
			continue
		}
		a.locs[name] = len(a.locNames)
		a.locNames = append(a.locNames, name)
		if tp := ln.get("time-progress"); tp != nil {
			ml.note(tp, "time-progress ignored in a discrete model")
		}
		if tv := ln.get("transient-values"); tv != nil {
			vs, _ := ml.arr(ln, "transient-values", false)
			for _, x := range vs {
				a.tvals = append(a.tvals, tval{loc: len(a.locNames) - 1, node: x})
			}
		}
	}
	if len(a.locNames) == 0 {
		ml.errorf(a.node, "automaton %q has no locations", a.name)
		return
	}
	inits, ok := ml.arr(a.node, "initial-locations", true)
	if !ok {
		return
	}
	if len(inits) != 1 {
		if len(inits) == 0 {
			ml.errorf(a.node.get("initial-locations"), "automaton %q has no initial location", a.name)
		} else {
			ml.unsupported(a.node.get("initial-locations"), "several initial locations (automaton %q)", a.name)
		}
		return
	}
	if inits[0].kind != kString {
		ml.errorf(inits[0], "an initial location must be a string")
		return
	}
	i, ok := a.locs[inits[0].str]
	if !ok {
		ml.errorf(inits[0], "undeclared location %q", inits[0].str)
		return
	}
	if len(a.locNames) > 1 {
		a.locVar = symbolic.VarID(len(ml.m.Vars))
		ml.m.Vars = append(ml.m.Vars, symbolic.Var{
			Name: LocationVar(a.name), Lo: 0, Hi: len(a.locNames) - 1,
			HasInit: true, Init: i, Pos: ml.pos(a.node.get("locations")),
		})
		for j, ln := range a.locNames {
			ml.m.Preds = append(ml.m.Preds, symbolic.Pred{
				Name: LocationPred(a.name, ln),
				Cond: symbolic.Compare(symbolic.V(a.locVar), symbolic.Eq, symbolic.Lit(j)),
				Pos:  ml.pos(ls[j]),
			})
		}
	}
}

// LocationVar names the variable that holds the location of an automaton
// with more than one location: loc_<automaton>, its value the index of the
// location in the automaton's "locations" list. An automaton with a single
// location gets no variable.
func LocationVar(automaton string) string { return ident("loc_" + automaton) }

// LocationPred names the predicate "automaton is at location":
// at_<automaton>_<location>, declared for automata with a location variable.
func LocationPred(automaton, location string) string {
	return ident("at_" + automaton + "_" + location)
}

func (ml *modelLoader) localScope(a *automaton) scope {
	return func(name string) (ref, bool) {
		if vi, ok := a.locals[name]; ok {
			return vi.ref(), true
		}
		if fn, ok := strings.CutPrefix(name, fnPrefix); ok && a.funcs[fn] != nil {
			return ref{fn: a.funcs[fn]}, true
		}
		return ml.globalScope(name)
	}
}

// lookupVar finds a variable assignable from automaton a.
func (ml *modelLoader) lookupVar(a *automaton, name string) *varInfo {
	if vi, ok := a.locals[name]; ok {
		return vi
	}
	return ml.globals[name]
}

// interrupted reports whether ml.ctx is done, the first time adding the
// error that stops the load.
func (ml *modelLoader) interrupted() bool {
	if ml.stopped {
		return true
	}
	if ml.ctx == nil || ml.ctx.Err() == nil {
		return false
	}
	ml.stopped = true
	ml.errorf(nil, "interrupted before the model was loaded")
	return true
}

func (ml *modelLoader) edges(a *automaton) {
	es, ok := ml.arr(a.node, "edges", false)
	if !ok {
		return
	}
	sc := ml.localScope(a)
	for i, en := range es {
		if i%16 == 0 && ml.interrupted() {
			return
		}
		if !ml.obj(en, "an edge") {
			continue
		}
		ml.members(en, "an edge", "location", "action", "rate", "guard", "destinations")
		e := &edge{node: en, auto: a, writes: map[symbolic.VarID]bool{}}
		locName, ln, ok := ml.str(en, "location")
		if !ok {
			continue
		}
		if e.loc, ok = a.locs[locName]; !ok {
			ml.errorf(ln, "undeclared location %q in automaton %q", locName, a.name)
			continue
		}
		if an := en.get("action"); an != nil {
			if an.kind != kString {
				ml.errorf(an, "an action must be a string")
				continue
			}
			if ml.label(an.str) == symbolic.NoLabel {
				ml.errorf(an, "undeclared action %q", an.str)
				continue
			}
			e.action = an.str
		}
		if r := en.get("rate"); r != nil {
			ml.unsupported(r, "rates in a discrete model")
			continue
		}
		e.guard = symbolic.True()
		if g := en.get("guard"); g != nil {
			ml.members(g, "a guard", "exp")
			x := g.get("exp")
			if x == nil {
				ml.errorf(g, "guard has no \"exp\"")
				continue
			}
			if e.guard, ok = ml.cond(x, sc); !ok {
				continue
			}
		}
		ds, ok := ml.arr(en, "destinations", true)
		if !ok {
			continue
		}
		if len(ds) == 0 {
			ml.errorf(en.get("destinations"), "edge has no destinations")
			continue
		}
		ml.splitVars = map[symbolic.VarID]bool{}
		good := ml.edgeDests(a, e, ds, sc)
		split := ml.splitVars
		ml.splitVars = nil
		if !good {
			continue
		}
		if len(ml.autos) > 1 && e.action != "" {
			// an edge that may synchronise is not split: the composition
			// multiplies the pieces of the edges it joins (two automata
			// whose choices read two variables of 8 values each: 64 x 64
			// commands, 56 s and 1.6 GB to load where the unsplit edges
			// took 1.8 s and 160 MB, TestS31wSyncChoiceNotSplit); its
			// values equal in every state are still one outcome
			split = nil
		}
		if pieces := ml.splitChoices(a, e, ds, sc, split); pieces != nil {
			a.edges = append(a.edges, pieces...)
			continue
		}
		a.edges = append(a.edges, e)
	}
}

// edgeDests lowers the destinations ds of edge e into e.dests (and
// e.writes), where e.guard holds; it reports whether all lowered.
func (ml *modelLoader) edgeDests(a *automaton, e *edge, ds []*node, sc scope) bool {
	good := true
	restore := ml.narrow(e.guard) // destinations are taken where the guard holds
	defer restore()
	ml.edgeGuard, ml.edgeGuardSize, ml.edgeGuardVars = e.guard, -1, nil
	defer func() { ml.edgeGuard = nil }()
	for _, dn := range ds {
		ds := ml.destination(a, dn, sc)
		if ds == nil {
			good = false
			continue
		}
		for _, d := range ds {
			for _, as := range d.assigns {
				e.writes[as.v.id] = true
			}
		}
		e.dests = append(e.dests, ds...)
	}
	return good
}

// maxChoiceSplit bounds the pieces splitChoices splits one edge into.
const maxChoiceSplit = 64

// splitChoices splits edge e, whose destinations have PlaJA choices whose
// bounds read the variables split (expandChoices), into one edge per
// value of those variables where e's guard holds, each guarded by e's
// guard and those values, so that in each piece the bounds are constants
// and each value of a choice is one outcome with its k's shares summed.
// Outcomes of one choice that give the same value in some states only
// (x := any of x..4, with x in 0..4: max(x, 1) and max(x, 2) both write 3
// where x is 3, each with its share) are so merged in every state: in
// blocksworld_8_7 each such edge had 5 outcomes for the choice, 4 of them
// equal where x is 3, and has now 5 pieces of 5 - x outcomes. The
// transitions are the same, with the same probabilities; the edge is not
// split (nil) when there is nothing to split, when its pieces would be
// more than maxChoiceSplit, or when an assignment has an index other
// than 0 (a bound may then read a value written before it).
func (ml *modelLoader) splitChoices(a *automaton, e *edge, ds []*node, sc scope, split map[symbolic.VarID]bool) []*edge {
	if len(split) == 0 || ml.levelsBelowZero {
		return nil
	}
	for _, d := range e.dests {
		for _, as := range d.assigns {
			if as.level != 0 {
				return nil
			}
		}
	}
	vars := make([]symbolic.VarID, 0, len(split))
	for v := range split {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i] < vars[j] })
	restore := ml.narrow(e.guard)
	los, his := make([]int, len(vars)), make([]int, len(vars))
	n := 1
	for i, v := range vars {
		los[i], his[i] = ml.bounds(symbolic.V(v))
		if his[i] < los[i] {
			restore()
			return nil
		}
		if r := his[i] - los[i] + 1; n > maxChoiceSplit/r {
			restore()
			return nil
		} else {
			n *= r
		}
	}
	restore()
	var pieces []*edge
	vals := append([]int(nil), los...)
	for {
		pin := map[symbolic.VarID]int{}
		conj := []*symbolic.Cond{e.guard}
		for i, v := range vars {
			pin[v] = vals[i]
			conj = append(conj, symbolic.Compare(symbolic.V(v), symbolic.Eq, symbolic.Lit(vals[i])))
		}
		p := &edge{node: e.node, auto: a, loc: e.loc, action: e.action, guard: symbolic.And(conj...), writes: map[symbolic.VarID]bool{}}
		ml.pinned = pin
		ok := ml.edgeDests(a, p, ds, sc)
		ml.pinned = nil
		if !ok {
			return nil // reported (the edge itself lowered: not expected)
		}
		pieces = append(pieces, p)
		i := 0
		for ; i < len(vars); i++ {
			if vals[i] < his[i] {
				vals[i]++
				break
			}
			vals[i] = los[i]
		}
		if i == len(vars) {
			return pieces
		}
	}
}

// pin replaces e by its value when it reads only variables that
// ml.pinned gives values (splitChoices), else returns it as it is.
func (ml *modelLoader) pin(e *symbolic.Expr) *symbolic.Expr {
	if ml.pinned == nil {
		return e
	}
	all := true
	e.Vars(func(v symbolic.VarID) {
		if _, ok := ml.pinned[v]; !ok {
			all = false
		}
	})
	if !all {
		return e
	}
	s := make(symbolic.State, len(ml.m.Vars))
	for v, x := range ml.pinned {
		s[v] = x
	}
	return symbolic.Lit(e.Eval(s))
}

// destination lowers one destination. A destination with PlaJA's
// non-deterministic assignments becomes several (see choices).
func (ml *modelLoader) destination(a *automaton, dn *node, sc scope) []*dest {
	if !ml.obj(dn, "a destination") {
		return nil
	}
	ml.members(dn, "a destination", "location", "probability", "assignments")
	d := &dest{node: dn, prob: constInt(1)}
	locName, ln, ok := ml.str(dn, "location")
	if !ok {
		return nil
	}
	if d.loc, ok = a.locs[locName]; !ok {
		ml.errorf(ln, "undeclared location %q in automaton %q", locName, a.name)
		return nil
	}
	if p := dn.get("probability"); p != nil && !ml.probability(d, p, sc) {
		return nil
	}
	as, ok := ml.arr(dn, "assignments", false)
	if !ok {
		return nil
	}
	var choices []choice
	good := true
	for _, an := range as {
		narrowed := ml.bounds
		if ml.leveled(an) {
			ml.bounds = ml.unnarrowed
		}
		ch, ok := ml.assignment(a, d, an, sc)
		ml.bounds = narrowed
		good = good && ok
		if ch != nil {
			choices = append(choices, *ch)
		}
	}
	if !good {
		return nil
	}
	return ml.expandChoices(d, choices)
}

// probability sets d's probability from its "probability" member p: a
// constant in [0, 1], or a state-dependent fraction of integer
// expressions. It reports whether p was well-formed.
func (ml *modelLoader) probability(d *dest, p *node, sc scope) bool {
	ml.members(p, "a probability", "exp")
	x := p.get("exp")
	if x == nil {
		ml.errorf(p, "probability has no \"exp\"")
		return false
	}
	f, ok := ml.probFrac(x, sc)
	if !ok {
		return false
	}
	var v val
	if f.num.isConst() && f.den.isConst() {
		if f.den.k.Sign() == 0 {
			ml.errorf(x, "division by zero")
			return false
		}
		v = constRat(new(big.Rat).Quo(f.num.k, f.den.k), tReal)
		if v.k.Sign() < 0 || v.k.Cmp(big.NewRat(1, 1)) > 0 {
			ml.errorf(x, "probability %s is outside [0, 1]", v.k.RatString())
			return false
		}
	} else {
		if d.pnum, d.pden, ok = ml.intFrac(x, f); !ok {
			return false
		}
		v = val{t: tReal, e: d.pnum, den: 1}
	}
	d.prob, d.hasProb = v, true
	return true
}

// assignment lowers one assignment of destination d into d (an element
// assignment, a reward, a variable's new value); a non-deterministic one
// (lower-bound and upper-bound instead of value) it returns as a choice,
// for expandChoices. ok is false after an error.
func (ml *modelLoader) assignment(a *automaton, d *dest, an *node, sc scope) (ch *choice, ok bool) {
	if !ml.obj(an, "an assignment") {
		return nil, false
	}
	// lower-bound and upper-bound: PlaJA's non-deterministic assignment
	ml.members(an, "an assignment", "ref", "value", "index", "lower-bound", "upper-bound")
	rn := an.get("ref")
	if rn == nil {
		ml.errorf(an, "assignment has no \"ref\"")
		return nil, false
	}
	if rn.kind != kString {
		if op := rn.get("op"); op != nil && op.kind == kString && op.str == "aa" {
			as, ok := ml.elementAssign(a, an, rn, sc)
			d.assigns = append(d.assigns, as...)
			return nil, ok
		}
		ml.errorf(rn, "assignment target must be a variable name, got %s", rn.describe())
		return nil, false
	}
	vi, level, ok := ml.assignTarget(a, an, rn)
	if !ok {
		return nil, false
	}
	vn := an.get("value")
	if vn == nil && (an.get("lower-bound") != nil || an.get("upper-bound") != nil) {
		c, ok := ml.choice(an, vi, level, sc)
		switch {
		case !ok:
			return nil, false
		case !vi.transient:
			return &c, true
		case vi.reward:
			d.costBad = true
		}
		return nil, true
	}
	if vn == nil {
		ml.errorf(an, "assignment has no \"value\"")
		return nil, false
	}
	if vi.reward {
		ml.rewardAssign(d, vi, vn, sc)
		return nil, true
	}
	if vi.transient {
		if vi.isBool {
			ml.note(an, "transient %q assigned on an edge ignored: vigil's labels are state predicates (a location's transient-values)", rn.str)
		}
		return nil, true // rewards: noted at the declaration
	}
	var value *symbolic.Expr
	if vi.isBool {
		c, ok := ml.cond(vn, sc)
		if !ok {
			return nil, false
		}
		value = boolAssign(c)
	} else {
		if value, ok = ml.intExpr(vn, sc); !ok {
			return nil, false
		}
	}
	d.assigns = append(d.assigns, asg{v: vi, level: level, value: value, node: an})
	return nil, true
}

// assignTarget resolves the variable an assignment names (rn, a string)
// and its "index", the transient level it is assigned at.
func (ml *modelLoader) assignTarget(a *automaton, an, rn *node) (vi *varInfo, level int, ok bool) {
	vi = ml.lookupVar(a, rn.str)
	if vi == nil {
		switch _, isConst := ml.consts[rn.str]; {
		case isConst:
			ml.errorf(rn, "cannot assign to constant %q", rn.str)
		case !ml.rejected[rn.str]:
			// (a variable refused at its declaration is reported there:
			// a bound beyond ±2^31 was also "undeclared" at every
			// assignment)
			ml.errorf(rn, "assignment to undeclared variable %q", rn.str)
		}
		return nil, 0, false
	}
	if vi.array {
		ml.unsupported(rn, "arrays (assignment to the whole array %q; assign its elements)", rn.str)
		return nil, 0, false
	}
	if ix := an.get("index"); ix != nil {
		v, ok := ml.constant(ix, ml.constScope, "an assignment index")
		if !ok {
			return nil, 0, false
		}
		if level, ok = ratInt(v.k); !ok || v.t == tBool {
			ml.errorf(ix, "an assignment index must be an integer")
			return nil, 0, false
		}
	}
	return vi, level, true
}

// choice is PlaJA's non-deterministic assignment {"ref": x,
// "lower-bound": lb, "upper-bound": ub}: x takes any value in lb..ub (both
// read in the old state).
type choice struct {
	v      *varInfo
	level  int
	lb, ub val
	node   *node
}

// maxChoices bounds the destinations one destination expands into.
const maxChoices = 1024

func (ml *modelLoader) choice(an *node, vi *varInfo, level int, sc scope) (choice, bool) {
	if vi.isBool || vi.array {
		ml.unsupported(an, "non-deterministic assignment to non-integer variable %q", vi.name)
		return choice{}, false
	}
	ch := choice{v: vi, level: level, node: an}
	if vi.id >= 0 {
		ch.lb, ch.ub = constInt(int64(ml.m.Vars[vi.id].Lo)), constInt(int64(ml.m.Vars[vi.id].Hi))
	}
	for _, b := range []struct {
		key string
		dst *val
	}{{"lower-bound", &ch.lb}, {"upper-bound", &ch.ub}} {
		bn := an.get(b.key)
		if bn == nil {
			continue
		}
		v, ok := ml.expr(bn, sc)
		if !ok {
			return choice{}, false
		}
		if _, ok := ml.integer(bn, v); !ok {
			return choice{}, false
		}
		*b.dst = v
	}
	return ch, true
}

// expandChoices turns a destination with non-deterministic assignments into
// one destination per combination of values k, each assigning
// clamp(k) = max(lb, min(ub, k)), where k runs over the variable's range
// widened by one value on each side that lb..ub may reach beyond it: every
// value of lb..ub inside the range is reached, and a value outside it is
// reached (the one next to the range, a range error) exactly when lb..ub
// holds one. An empty lb..ub (lb > ub, no value to choose) is a range error
// too: each outcome then assigns the value above the range. (Clamping to the
// range alone dropped the values beyond it: a model that may leave its
// range had none of its range errors, and an empty choice assigned lb.)
// The destination's probability is shared equally among the k.
//
// The k that give the same value in every state are one outcome, with
// their shares summed (exact rationals): clamp(k) is lb for every k up to
// the least value lb takes, ub (where lb..ub is not empty) for every k
// from the largest value ub takes, and the value itself when lb and ub
// are constants (an empty choice: the value above the range for every
// k). Each k was an outcome of its own, so a choice 2..3 of x in 0..5 had
// six outcomes, three writing 2 and three writing 3, and an empty one six
// writing 6. (A destination whose probability reads the state gave each
// k the destination's whole probability, not its share: their sum was
// the probability times the number of k, which vigil prob divided out
// against the other destinations as weights; the share is now a constant
// factor of the outcome's probability, dest.share.)
func (ml *modelLoader) expandChoices(d *dest, choices []choice) []*dest {
	if len(choices) == 0 {
		return []*dest{d}
	}
	ml.note(choices[0].node, "non-deterministic assignments (lower-bound/upper-bound) become one outcome per value of the variable's range (a value of lower-bound..upper-bound outside it, or an empty lower-bound..upper-bound, is a range error)")
	type part struct {
		d     *dest
		share *big.Rat // of the destination's probability
	}
	out := []part{{d, big.NewRat(1, 1)}}
	for _, ch := range choices {
		v := ml.m.Vars[ch.v.id]
		lbE, ok1 := ml.integer(ch.node, ch.lb)
		ubE, ok2 := ml.integer(ch.node, ch.ub)
		if !ok1 || !ok2 {
			return nil
		}
		// the k: the variable's range, widened where lb..ub may leave it
		// over all states (also in a piece of a split edge, where lb and
		// ub are constants: its shares are the edge's)
		lo, hi := v.Lo, v.Hi
		if l, _ := ml.m.Bounds(lbE); l < v.Lo {
			lo = v.Lo - 1 // lb..ub may hold values below the range
		}
		if _, h := ml.m.Bounds(ubE); h > v.Hi {
			hi = v.Hi + 1 // ... or above it
		}
		lbText, ubText := ml.m.ExprString(lbE), ml.m.ExprString(ubE) // as written, for the note
		lbE, ubE = ml.pin(lbE), ml.pin(ubE)
		lb, ub := ch.lb, ch.ub
		if lbE.Op == symbolic.OpConst {
			lb = constInt(int64(lbE.K))
		}
		if ubE.Op == symbolic.OpConst {
			ub = constInt(int64(ubE.K))
		}
		lbLo, lbHi := ml.m.Bounds(lbE)
		ubLo, ubHi := ml.m.Bounds(ubE)
		lbMin, ubMax := lbLo, ubHi // over every state: clamp(k) is lb for k <= lbMin, ub for k >= ubMax
		// lb > ub possible: an empty choice writes v.Hi+1
		var empty *symbolic.Cond
		if dLo, dHi, ok := diffBounds(ml.m, lbE, ubE); ok {
			// lb - ub as one linear form: y+1 .. y+2 is never empty
			lbLo, lbHi, ubLo, ubHi = dLo, dHi, 0, 0
		}
		if lbLo > ubHi {
			empty = &symbolic.Cond{Op: symbolic.CTrue} // always empty
		} else if lbHi > ubLo {
			empty = symbolic.Compare(lbE, symbolic.Gt, ubE)
		}
		kind := emptyNever
		if empty != nil {
			if kind = ml.emptyChoice(ch, empty); kind == emptyNever {
				empty = nil // never where the edge is taken
			}
		}
		if ml.pinned == nil {
			// the engines report an empty choice as the range error of
			// the value it writes: say here what that value means
			// (where it may happen: the pieces of a split edge are the
			// edge's states, which its own lowering has told)
			switch kind {
			case emptyPossible:
				ml.note(ch.node, "where lower-bound > upper-bound (%s > %s) in a state where the edge is taken, this choice of %s has no value to choose: vigil then reports a range error that sets %s to %d, the value just above its range %d..%d; strengthen the edge's guard so that lower-bound <= upper-bound where it is enabled",
					lbText, ubText, ch.v.name, ch.v.name, v.Hi+1, v.Lo, v.Hi)
			case emptyUndecided:
				ml.note(ch.node, "lower-bound > upper-bound (%s > %s) may hold in a state where the edge is taken (vigil did not decide it: too many values to enumerate, or too large a guard to evaluate in each); where it does, this choice of %s has no value to choose: vigil then reports a range error that sets %s to %d, the value just above its range %d..%d; strengthen the edge's guard so that lower-bound <= upper-bound where it is enabled",
					lbText, ubText, ch.v.name, ch.v.name, v.Hi+1, v.Lo, v.Hi)
			}
		}
		n := hi - lo + 1
		if len(out)*n > maxChoices {
			ml.unsupported(ch.node, "non-deterministic assignments with more than %d combinations", maxChoices)
			return nil
		}
		// the values the k give, each once, with how many k give it
		type value struct {
			e *symbolic.Expr
			k int
		}
		var vals []value
		index := map[string]int{}
		for k := lo; k <= hi; k++ {
			var e *symbolic.Expr
			switch {
			case empty != nil && empty.Op == symbolic.CTrue:
				e = symbolic.Lit(v.Hi + 1)
			case k <= lbMin:
				e = lbE // min(ub, k) <= k <= lb
			case k >= ubMax:
				e = ubE // min(ub, k) = ub, and lb <= ub where the choice is not empty
			default:
				m, ok1 := ml.binary(ch.node, "min", ub, constInt(int64(k)))
				val, ok2 := ml.binary(ch.node, "max", lb, m)
				if !ok1 || !ok2 {
					return nil
				}
				var ok bool
				if e, ok = ml.integer(ch.node, val); !ok {
					return nil
				}
			}
			if empty != nil && empty.Op != symbolic.CTrue {
				e = &symbolic.Expr{Op: symbolic.OpIte, Cond: empty, Args: []*symbolic.Expr{symbolic.Lit(v.Hi + 1), e}}
			}
			key := ml.m.ExprString(e)
			if i, ok := index[key]; ok {
				vals[i].k++
				continue
			}
			index[key] = len(vals)
			vals = append(vals, value{e, 1})
		}
		if ml.splitVars != nil && len(vals) > 1 && (lbE.Op != symbolic.OpConst || ubE.Op != symbolic.OpConst) {
			// two values may be equal in some states (lb and ub where
			// they meet, max(x, 1) and max(x, 2) where x is 2):
			// splitChoices splits the edge by what lb and ub read
			for _, x := range []*symbolic.Expr{lbE, ubE} {
				x.Vars(func(v symbolic.VarID) { ml.splitVars[v] = true })
			}
		}
		var next []part
		for _, base := range out {
			for _, x := range vals {
				nd := *base.d
				nd.assigns = append(append([]asg(nil), base.d.assigns...), asg{v: ch.v, level: ch.level, value: x.e, node: ch.node})
				nd.mult = max(base.d.mult, 1) * int64(x.k)
				next = append(next, part{&nd, new(big.Rat).Mul(base.share, big.NewRat(int64(x.k), int64(n)))})
			}
		}
		out = next
	}
	ds := make([]*dest, len(out))
	for i, p := range out {
		ds[i] = p.d
		switch {
		case p.share.Cmp(big.NewRat(1, 1)) == 0:
		case p.d.prob.isConst():
			p.d.prob = constRat(new(big.Rat).Mul(p.d.prob.k, p.share), tReal)
		default:
			p.d.share = p.share
		}
	}
	return ds
}

// diffBounds bounds a - b over the variables' ranges when it is linear
// (exact: each variable once in its linear form).
func diffBounds(m *symbolic.Model, a, b *symbolic.Expr) (lo, hi int, ok bool) {
	l, ok := symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, b}})
	if !ok {
		return 0, 0, false
	}
	if outside(l.Const, 1<<50) || len(l.Terms) > 1<<10 {
		return 0, 0, false
	}
	lo, hi = l.Const, l.Const
	for _, t := range l.Terms {
		if outside(t.Coef, 1<<20) {
			return 0, 0, false // (products within 2^51: no overflow)
		}
		v := m.Vars[t.Var]
		x, y := t.Coef*v.Lo, t.Coef*v.Hi
		lo, hi = lo+min(x, y), hi+max(x, y)
	}
	return lo, hi, true
}

// outside reports whether x lies outside -lim..lim.
func outside(x, lim int) bool { return x < -lim || x > lim }

// boolAssign is the IR value of a Boolean assignment: a 0/1 literal or OpBool.
func boolAssign(c *symbolic.Cond) *symbolic.Expr {
	switch c.Op {
	case symbolic.CTrue:
		return symbolic.Lit(1)
	case symbolic.CFalse:
		return symbolic.Lit(0)
	}
	return &symbolic.Expr{Op: symbolic.OpBool, Cond: c}
}

// declaredVars records the names of the model's variables, global and
// automaton-local, before any expression is lowered: an identifier that
// names one where it cannot be read (an initial value, which reads
// constants only, or another automaton's edge) is told so, not called
// undeclared.
func (ml *modelLoader) declaredVars(root *node) {
	ml.declared = map[string]string{}
	add := func(vs *node, what string) {
		if vs == nil || vs.kind != kArray {
			return
		}
		for _, v := range vs.vals {
			if n := v.get("name"); n != nil && n.kind == kString {
				if _, ok := ml.declared[n.str]; !ok {
					ml.declared[n.str] = what
				}
			}
		}
	}
	add(root.get("variables"), "a global variable")
	if as := root.get("automata"); as != nil && as.kind == kArray {
		for _, a := range as.vals {
			if n := a.get("name"); n != nil && n.kind == kString {
				add(a.get("variables"), fmt.Sprintf("a variable of automaton %q", n.str))
			}
		}
	}
}

// maxEmptySpent bounds the work emptyChoice spends over a model: the
// states it enumerates (each choice within maxSumStates) times the nodes
// of the condition it evaluates in each (its tree size). Counting states
// alone let a guard's size multiply it: 64 choices under a guard of
// 200 disjuncts (a 35 KB file) evaluated 2^22 states of some 1200 nodes
// each, about a minute (s32k_jani_empty_walk). At about 10 ns a node,
// this is about a second at most; a choice past it keeps its range
// error and the "may" note.
const maxEmptySpent = 1 << 27

// stateCount is the number of combinations of values of the variables
// read, -1 beyond maxSumStates.
func stateCount(m *symbolic.Model, read map[symbolic.VarID]bool) int {
	n := 1
	for v := range read {
		if n *= m.Vars[v].Size(); n > maxSumStates || n <= 0 {
			return -1
		}
	}
	return n
}

// What emptyChoice found.
const (
	emptyNever     = iota // lower-bound <= upper-bound wherever the edge is taken
	emptyPossible         // some state where the edge is taken has lower-bound > upper-bound
	emptyUndecided        // too many states to tell
)

// emptyChoice decides whether choice ch, which interval reasoning found
// may be empty (empty: lower-bound > upper-bound, or always), is empty in
// some state within the variables' ranges where its edge's guard holds,
// by enumerating the values of the variables the guard and the bounds
// read (findState). Interval reasoning alone noted choices that are
// never empty: cost := any of c..4 with c in 0..5 under a guard c <= 4,
// or any of x..y under x < y. An assignment with an index (or a model
// with a negative one) reads values written before it, which the
// source state's guard does not bound: it is not enumerated.
func (ml *modelLoader) emptyChoice(ch choice, empty *symbolic.Cond) int {
	if empty.Op == symbolic.CTrue {
		return emptyPossible
	}
	if ch.level != 0 || ml.levelsBelowZero || ml.edgeGuard == nil {
		return emptyUndecided
	}
	// the variables c = guard && empty reads and c's tree size, the
	// guard's found once per edge (a guard of a million nodes as a tree
	// under a thousand choices is not walked a thousand times); each
	// size saturates near 2^62, so the sum does not wrap
	if ml.edgeGuardSize < 0 {
		ml.edgeGuardSize = symbolic.NewTreeSizer().Cond(ml.edgeGuard)
		ml.edgeGuardVars = map[symbolic.VarID]bool{}
		ml.edgeGuard.Vars(func(v symbolic.VarID) { ml.edgeGuardVars[v] = true })
	}
	read := maps.Clone(ml.edgeGuardVars)
	empty.Vars(func(v symbolic.VarID) { read[v] = true })
	n := stateCount(ml.m, read)
	if n < 0 {
		return emptyUndecided
	}
	size := ml.edgeGuardSize + symbolic.NewTreeSizer().Cond(empty) + 1
	if size > int64(maxEmptySpent-ml.emptySpent)/int64(n) {
		return emptyUndecided
	}
	ml.emptySpent += n * int(size)
	st, complete := findState(ml.m, symbolic.And(ml.edgeGuard, empty))
	switch {
	case st != nil:
		return emptyPossible
	case complete:
		return emptyNever
	}
	return emptyUndecided
}
