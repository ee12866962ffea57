package jani

// PlaJA's files around a JANI model: condition files (start.jani,
// reach.jani), "PA" property files that name a start condition, a reach
// (unsafe) condition and a policy interface, and .jani2nnet interfaces that
// connect an NNet network to the model's variables and actions.
//
// All of them name variables and actions by their JANI names; they are
// resolved against a lowered model, so the same files work for a model
// imported from JANI and for a .spec model that uses the same names.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/symbolic"
)

// modelScope resolves identifiers against a lowered model: variables by
// name (as written, or converted by ident), constants from m.Consts.
func modelScope(m *symbolic.Model) scope {
	return func(name string) (ref, bool) {
		if v := varIndex(m, name); v >= 0 {
			return ref{v: v, isBool: m.Vars[v].Bool}, true
		}
		for _, c := range m.Consts {
			if c.Name == name || c.Name == ident(name) {
				return ref{isConst: true, val: constInt(int64(c.Value))}, true
			}
		}
		// an array, imported as one variable per element (NAME[0],
		// NAME[1], ...): {"op": "aa", "exp": NAME, ...} was an
		// undeclared identifier
		var r ref
		for k := 0; ; k++ {
			v := varIndex(m, fmt.Sprintf("%s[%d]", name, k))
			if v < 0 {
				break
			}
			r.elems = append(r.elems, v)
			r.isBool = m.Vars[v].Bool
		}
		if r.elems != nil {
			r.feature = "arrays (a whole array; name an element)"
			return r, true
		}
		return ref{}, false
	}
}

func varIndex(m *symbolic.Model, name string) symbolic.VarID {
	if v := m.VarIndex(name); v >= 0 {
		return v
	}
	return m.VarIndex(ident(name))
}

// readJSON reads and parses a file, returning a lowerer for its errors.
func readJSON(path string) (*lowerer, *node, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, nil, plainf("%v", err)
	}
	root, err := parseJSON(path, data)
	if err != nil {
		return nil, nil, err
	}
	return newLowerer(path, data), root, nil
}

// LoadCondition reads a PlaJA condition file and lowers it over m's
// variables. Accepted forms:
//
//   - {"op": "state-condition", "exp": E, "locations": [{"automaton": A, "location": L}, ...]}:
//     E holds and every listed automaton is at the listed location;
//   - {"op": "states-values", "values": [{"variables": [{"var": x, "value": v}, ...], "locations": [...]}, ...]}:
//     the state is one of the listed states; variables a state does not list
//     take their initial values (those without one are unconstrained);
//   - a bare JANI Boolean expression.
func LoadCondition(path string, m *symbolic.Model) (*symbolic.Cond, error) {
	l, root, err := readJSON(path)
	if err != nil {
		return nil, err
	}
	c, ok := l.condition(root, m)
	if err := l.errs.Err(); err != nil || !ok {
		return nil, err
	}
	return c, nil
}

func (l *lowerer) condition(n *node, m *symbolic.Model) (*symbolic.Cond, bool) {
	if l.bounds == nil {
		l.bounds = exactBounds(m) // an array index that reads variables
	}
	return l.conditionIn(n, m, modelScope(m))
}

// conditionIn is condition with the identifiers of expressions resolved by sc.
func (l *lowerer) conditionIn(n *node, m *symbolic.Model, sc scope) (*symbolic.Cond, bool) {
	before := len(l.errs)
	if l.conditionMembers(n); len(l.errs) > before {
		return nil, false
	}
	op := n.get("op")
	if op == nil || op.kind != kString {
		return l.cond(n, sc)
	}
	switch op.str {
	case "state-condition":
		c := symbolic.True()
		if e := n.get("exp"); e != nil {
			var ok bool
			if c, ok = l.cond(e, sc); !ok {
				return nil, false
			}
		}
		locs, ok := l.locations(n, m)
		if !ok {
			return nil, false
		}
		return symbolic.And(c, locs), true
	case "states-values":
		vals, ok := l.arr(n, "values", true)
		if !ok {
			return nil, false
		}
		var states []*symbolic.Cond
		for _, sv := range vals {
			c, ok := l.stateValues(sv, m)
			if !ok {
				return nil, false
			}
			states = append(states, c)
		}
		return symbolic.Or(states...), true
	}
	return l.cond(n, sc)
}

// stateValues lowers one {"variables": [...], "locations": [...]} state.
func (l *lowerer) stateValues(n *node, m *symbolic.Model) (*symbolic.Cond, bool) {
	if !l.obj(n, "a state") {
		return nil, false
	}
	vs, ok := l.arr(n, "variables", false)
	if !ok {
		return nil, false
	}
	listed := map[symbolic.VarID]bool{}
	var conj []*symbolic.Cond
	for _, vn := range vs {
		if !l.obj(vn, "a variable value") {
			return nil, false
		}
		name, nn, ok := l.str(vn, "var")
		if !ok {
			return nil, false
		}
		v := varIndex(m, name)
		if v < 0 {
			l.errorf(nn, "undeclared variable %q", name)
			return nil, false
		}
		x := vn.get("value")
		if x == nil {
			l.errorf(vn, "missing \"value\"")
			return nil, false
		}
		c, ok := l.constant(x, modelScope(m), "a state value")
		if !ok {
			return nil, false
		}
		k, ok := ratInt(c.k)
		if !ok {
			l.errorf(x, "a state value must be an integer or a boolean")
			return nil, false
		}
		listed[v] = true
		conj = append(conj, symbolic.Compare(symbolic.V(v), symbolic.Eq, symbolic.Lit(k)))
	}
	locs, ok := l.locations(n, m)
	if !ok {
		return nil, false
	}
	locs.Vars(func(v symbolic.VarID) { listed[v] = true })
	conj = append(conj, locs)
	for i := range m.Vars {
		if v := &m.Vars[i]; !listed[symbolic.VarID(i)] && v.HasInit {
			conj = append(conj, symbolic.Compare(symbolic.V(symbolic.VarID(i)), symbolic.Eq, symbolic.Lit(v.Init)))
		}
	}
	return symbolic.And(conj...), true
}

// locations lowers an optional "locations" list to a conjunction.
func (l *lowerer) locations(n *node, m *symbolic.Model) (*symbolic.Cond, bool) {
	ls, ok := l.arr(n, "locations", false)
	if !ok {
		return nil, false
	}
	var conj []*symbolic.Cond
	for _, ln := range ls {
		if !l.obj(ln, "a location") {
			return nil, false
		}
		aut, _, ok1 := l.str(ln, "automaton")
		loc, locn, ok2 := l.str(ln, "location")
		if !ok1 || !ok2 {
			return nil, false
		}
		c, ok := locationCond(m, aut, loc)
		if !ok {
			l.errorf(locn, "automaton %q has no location %q in this model", aut, loc)
			return nil, false
		}
		conj = append(conj, c)
	}
	return symbolic.And(conj...), true
}

// locationCond is the condition "automaton aut is at location loc": the
// LocationPred of the model, or true when the automaton has a single
// location (no LocationVar).
func locationCond(m *symbolic.Model, aut, loc string) (*symbolic.Cond, bool) {
	name := LocationPred(aut, loc)
	for i := range m.Preds {
		if m.Preds[i].Name == name {
			return m.Preds[i].Cond, true
		}
	}
	if m.VarIndex(LocationVar(aut)) < 0 {
		return symbolic.True(), true
	}
	return nil, false
}

// AddProperty builds a property from PlaJA files and appends it to m:
// the start condition from startPath (the initial values when ""), the
// unsafe condition from unsafePath. Each file is a condition file (see
// LoadCondition) or a PA property file, of which the "start" or the "reach"
// member is used; a PA property's "objective" becomes the goal and its
// "predicates" the property's Predicates. The property is named after the
// PA property, else "safety" (made unique among m's properties). A file
// with several PA properties is an error that lists them: AddPropertyNamed
// chooses one.
func AddProperty(m *symbolic.Model, startPath, unsafePath string) error {
	return AddPropertyNamed(m, startPath, unsafePath, "")
}

// AddPropertyNamed is AddProperty, choosing the PA property called choose
// (its JANI name or vigil's identifier for it) in a file that has several;
// choose is ignored for files with one.
func AddPropertyNamed(m *symbolic.Model, startPath, unsafePath, choose string) error {
	if unsafePath == "" {
		return plainf("a property needs an unsafe condition (--unsafe FILE)")
	}
	p := &symbolic.Property{Name: "safety"}
	if startPath != "" {
		c, _, err := conditionFrom(startPath, "start", choose, m)
		if err != nil {
			return err
		}
		// The start condition chooses among the model's initial states
		// as restrict-initial allows them, and in place of the
		// variables' initial values (PlaJA starts anywhere the start
		// condition holds; its models give every variable an initial
		// value, and it refuses a restrict-initial, so its start files
		// never met one). It replaced restrict-initial too: a model that
		// restricts x <= 1 was verified from x = 2 too.
		// (A .spec that vigil import wrote has it as the predicate
		// restrict-initial: a --start on it widened the start states.)
		if r := restrictInitial(m); r != nil {
			c = symbolic.And(r, c)
		}
		p.Start = c
	}
	c, pa, err := conditionFrom(unsafePath, "reach", choose, m)
	if err != nil {
		return err
	}
	p.Unsafe = c
	p.Pos = symbolic.Pos{File: unsafePath}
	if pa == nil && startPath != "" && startPath != unsafePath {
		// The goal and predicates of a PA property given as --start.
		if _, pa, err = conditionFrom(startPath, "start", choose, m); err != nil {
			return err
		}
	}
	if p.Start == nil {
		// no start states of its own (no --start, or a PA property
		// without "start"): the model's, restrict-initial included, not
		// the initial values alone
		p.Start = modelStart(m)
	}
	if pa != nil {
		if pa.name != "" {
			p.Name = ident(pa.name)
		}
		p.Goal, p.Predicates, p.PredicatePos = pa.goal, pa.preds, pa.predPos
	}
	taken := namer{}
	for _, q := range m.Properties {
		taken[q.Name] = true
	}
	p.Name = taken.unique(p.Name)
	m.Properties = append(m.Properties, p)
	return nil
}

// paInfo is what a PA property gives besides its start and reach
// conditions: its name, its objective's goal and its predicates.
type paInfo struct {
	name    string
	goal    *symbolic.Cond
	preds   []*symbolic.Cond
	predPos []symbolic.Pos
}

// conditionFrom reads the condition of a condition file, or member key of
// the chosen PA property of a property file (with the property's name,
// objective and predicates; nil for a condition file). A PA property
// without the member has no such states: false for "reach" (it must then
// have an objective), the initial values (nil) for "start".
func conditionFrom(path, key, choose string, m *symbolic.Model) (*symbolic.Cond, *paInfo, error) {
	l, root, err := readJSON(path)
	if err != nil {
		return nil, nil, err
	}
	if root.get("properties") == nil {
		c, ok := l.condition(root, m)
		if err := l.errs.Err(); err != nil || !ok {
			return nil, nil, err
		}
		return c, nil, nil
	}
	pa, name, ok := l.paProperty(root, choose)
	if !ok {
		return nil, nil, l.errs.Err()
	}
	info := &paInfo{name: name}
	dir, sc := filepath.Dir(path), modelScope(m)
	c, ok := l.paCondition(pa, key, dir, m, sc)
	if ok {
		info.goal, ok = l.paCondition(pa, "objective", dir, m, sc)
	}
	if ok {
		info.preds, info.predPos, ok = l.paPredicates(pa, dir, sc)
	}
	if err := l.errs.Err(); err != nil || !ok {
		return nil, nil, err
	}
	if c == nil && key == "reach" {
		if info.goal == nil {
			// Neither unsafe nor goal states: every verdict would be vacuous.
			l.errorf(pa, "the PA property %q has neither \"reach\" (unsafe states) nor \"objective\" (goal states)", name)
			return nil, nil, l.errs.Err()
		}
		c = symbolic.False()
	}
	return c, info, nil
}

// paCondition lowers member key ("start", "reach" or "objective") of a PA
// property: a condition written in place, or {"file": F} naming a
// condition file relative to dir. An objective is {"op": "objective",
// "goal": C}, or C itself. A missing member is nil.
func (l *lowerer) paCondition(pa *node, key, dir string, m *symbolic.Model, sc scope) (*symbolic.Cond, bool) {
	n := pa.get(key)
	if n == nil {
		return nil, true
	}
	fl, n, ok := l.paFile(n, dir)
	if !ok {
		return nil, false
	}
	if key == "objective" && opIs(n, "objective") {
		obj := n
		if n = obj.get("goal"); n == nil {
			fl.errorf(obj, "the objective has no \"goal\"")
			if fl != l {
				l.errs = append(l.errs, fl.errs...)
			}
			return nil, false
		}
	}
	c, ok := fl.conditionIn(n, m, sc)
	if fl != l {
		l.errs = append(l.errs, fl.errs...)
	}
	return c, ok && len(fl.errs) == 0
}

// paPredicates lowers a PA property's "predicates": a list of Boolean
// expressions, in place or in the file {"file": F} names.
func (l *lowerer) paPredicates(pa *node, dir string, sc scope) ([]*symbolic.Cond, []symbolic.Pos, bool) {
	n := pa.get("predicates")
	if n == nil {
		return nil, nil, true
	}
	fl, n, ok := l.paFile(n, dir)
	if !ok {
		return nil, nil, false
	}
	defer func() {
		if fl != l {
			l.errs = append(l.errs, fl.errs...)
		}
	}()
	if n.kind != kArray {
		fl.errorf(n, "\"predicates\" must be a list of Boolean expressions, got %s", n.describe())
		return nil, nil, false
	}
	var cs []*symbolic.Cond
	var ps []symbolic.Pos
	for _, e := range n.vals {
		c, ok := fl.cond(e, sc)
		if !ok {
			return nil, nil, false
		}
		cs, ps = append(cs, c), append(ps, fl.pos(e))
	}
	return cs, ps, true
}

// paFile follows {"file": F} (F relative to dir) to the root of F, with a
// lowerer for F's errors; any other node is returned as is with l.
func (l *lowerer) paFile(n *node, dir string) (*lowerer, *node, bool) {
	f := n.get("file")
	if n.kind != kObject || f == nil {
		return l, n, true
	}
	if f.kind != kString {
		l.errorf(f, "\"file\" must be a string")
		return nil, nil, false
	}
	fl, root, err := readJSON(filepath.Join(dir, f.str))
	if err != nil {
		l.errorf(f, "%s", Message(err))
		return nil, nil, false
	}
	return fl, root, true
}

// paProperty returns the expression and name of the property with op "PA":
// the only one, or the one called choose. Several PA properties and no
// (matching) choice is an error listing their names, and so is a member
// PlaJA does not define in the chosen one (paMembers).
func (l *lowerer) paProperty(root *node, choose string) (*node, string, bool) {
	e, name, ok := l.choosePA(root, choose)
	if !ok {
		return nil, "", false
	}
	before := len(l.errs)
	l.paMembers(e)
	return e, name, len(l.errs) == before
}

// paMembers refuses a member PlaJA does not define in PA property e, in
// its objective, its {"file": F} references and the conditions it writes
// in place (conditionMembers), and checks the members of its expressions
// as a model's properties are checked (propertyMembers): a misspelt
// "reach" (or "exp" in its state-condition) would leave a property with no
// unsafe states, which every engine calls safe. The files it names are
// checked when they are read (conditionIn, paPredicates). "file" is the
// policy interface (LoadPolicyFile).
func (l *lowerer) paMembers(e *node) {
	l.membersBy(e, "the PA property", "PlaJA", "op", "start", "reach", "objective", "predicates", "file")
	for _, k := range []string{"start", "reach", "objective"} {
		n := e.get(k)
		switch {
		case n == nil || n.kind != kObject:
		case n.get("file") != nil:
			l.membersBy(n, fmt.Sprintf("the PA property's %q file reference", k), "PlaJA", "file")
		case k == "objective" && opIs(n, "objective"):
			// step-reward and accumulate: PlaJA's cost of a step; vigil
			// reads the goal only
			l.membersBy(n, "the objective", "PlaJA", "op", "goal", "step-reward", "accumulate")
			l.propertyMembers(n.get("goal"))
			l.propertyMembers(n.get("step-reward"))
			if a := n.get("accumulate"); a != nil {
				l.accumulate(a)
			}
		default:
			l.propertyMembers(n)
		}
	}
	if pn := e.get("predicates"); pn != nil {
		switch pn.kind {
		case kObject:
			l.membersBy(pn, "the PA property's \"predicates\" file reference", "PlaJA", "file")
		case kArray:
			for _, x := range pn.vals {
				l.propertyMembers(x)
			}
		}
	}
}

// conditionMembers refuses a member PlaJA does not define in condition n
// (state-condition or states-values; a bare expression is checked when
// lowered): a state-condition's misspelt "exp" made it a condition on the
// locations only, true in every state when it lists none. "index" in a
// location reference is the automaton's position, which vigil does not
// need.
func (l *lowerer) conditionMembers(n *node) {
	locations := func(n *node) {
		if ls := n.get("locations"); ls != nil && ls.kind == kArray {
			for _, ln := range ls.vals {
				l.membersBy(ln, "a location reference", "PlaJA", "automaton", "location", "index")
			}
		}
	}
	switch {
	case opIs(n, "state-condition"):
		l.membersBy(n, "a state-condition", "PlaJA", "op", "exp", "locations")
		locations(n)
	case opIs(n, "states-values"):
		l.membersBy(n, "a states-values condition", "PlaJA", "op", "values")
		if vs := n.get("values"); vs != nil && vs.kind == kArray {
			for _, sv := range vs.vals {
				l.membersBy(sv, "a state", "PlaJA", "variables", "locations")
				locations(sv)
				if xs := sv.get("variables"); xs != nil && xs.kind == kArray {
					for _, x := range xs.vals {
						l.membersBy(x, "a variable value", "PlaJA", "var", "value")
					}
				}
			}
		}
	}
}

// choosePA is paProperty without the check of the members.
func (l *lowerer) choosePA(root *node, choose string) (*node, string, bool) {
	ps, ok := l.arr(root, "properties", true)
	if !ok {
		return nil, "", false
	}
	type pa struct {
		e    *node
		name string
	}
	var all []pa
	for i, p := range ps {
		e := p.get("expression")
		if opIs(e, "PA") {
			name := fmt.Sprintf("property%d", i+1)
			if n := p.get("name"); n != nil && n.kind == kString {
				name = n.str
			}
			all = append(all, pa{e, name})
		}
	}
	switch len(all) {
	case 0:
		l.errorf(root.get("properties"), "no property with op \"PA\"")
		return nil, "", false
	case 1:
		return all[0].e, all[0].name, true
	}
	names := make([]string, len(all))
	for i, p := range all {
		if choose != "" && (p.name == choose || ident(p.name) == choose) {
			return p.e, p.name, true
		}
		names[i] = p.name
	}
	if choose != "" {
		l.errorf(root.get("properties"), "no PA property %q; the file has: %s", choose, strings.Join(names, ", "))
	} else {
		l.errorf(root.get("properties"), "%d PA properties (%s); choose one with --property NAME", len(all), strings.Join(names, ", "))
	}
	return nil, "", false
}

// LoadPolicyFile reads a policy interface for m: a .jani2nnet file, or a
// PlaJA PA property file whose "file" member names one (resolved against
// the property file's directory). The declaration is of kind nn: File is the
// network named by the interface's "file", resolved against the
// interface's directory; Interface is the interface file; Inputs are the
// interface's input variables in order (coefficient 1; the location of an
// automaton is its LocationVar); Outputs are its output actions in order;
// ArgMaxAll follows the interface's "filter" as PlaJA reads it (absent or
// false: the arg-max over all outputs; true: over the applicable ones).
// The network itself is loaded by the nn package (symbolic.Instantiate).
func LoadPolicyFile(m *symbolic.Model, path string) (*symbolic.PolicyDecl, error) {
	return LoadPolicyFileNamed(m, path, "")
}

// LoadPolicyFileNamed is LoadPolicyFile, choosing the PA property called
// choose in a property file that has several.
func LoadPolicyFileNamed(m *symbolic.Model, path, choose string) (*symbolic.PolicyDecl, error) {
	return loadPolicyFile(m, path, choose, map[string]bool{})
}

// loadPolicyFile is LoadPolicyFileNamed; seen holds the PA property files
// whose "file" led here (a cycle is an error).
func loadPolicyFile(m *symbolic.Model, path, choose string, seen map[string]bool) (*symbolic.PolicyDecl, error) {
	seen[fileKey(path)] = true
	l, root, err := readJSON(path)
	if err != nil {
		return nil, err
	}
	if root.get("properties") != nil {
		pa, _, ok := l.paProperty(root, choose)
		if !ok {
			return nil, l.errs.Err()
		}
		f := pa.get("file")
		if f == nil || f.kind != kString {
			l.errorf(pa, "the PA property names no policy interface (\"file\"); pass the .jani2nnet file itself")
			return nil, l.errs.Err()
		}
		next := filepath.Join(filepath.Dir(path), f.str)
		if seen[fileKey(next)] {
			// a PA property naming itself was followed until the stack
			// overflowed
			l.errorf(f, "the policy interface %s leads back here (a cycle of file references); name the .jani2nnet file", f.str)
			return nil, l.errs.Err()
		}
		return loadPolicyFile(m, next, "", seen)
	}
	d, ok := l.policyInterface(root, path, m)
	if err := l.errs.Err(); err != nil || !ok {
		return nil, err
	}
	return d, nil
}

func (l *lowerer) policyInterface(root *node, path string, m *symbolic.Model) (*symbolic.PolicyDecl, bool) {
	if !l.obj(root, "a policy interface") {
		return nil, false
	}
	file, _, ok := l.str(root, "file")
	if !ok {
		return nil, false
	}
	f := root.get("filter")
	if f != nil && f.kind != kBool {
		l.errorf(f, "\"filter\" (PlaJA's applicability filtering) must be true or false, got %s", f.describe())
		return nil, false
	}
	base := filepath.Base(path)
	d := &symbolic.PolicyDecl{
		Name:      ident(strings.TrimSuffix(base, filepath.Ext(base))),
		Kind:      symbolic.KindNN,
		File:      filepath.Join(filepath.Dir(path), file),
		Interface: path,
		// PlaJA's default (no "filter", or false): the arg-max over all
		// outputs, stuck where it is not applicable.
		ArgMaxAll: f == nil || !f.b,
		Pos:       l.pos(root),
	}
	ins, ok := l.arr(root, "input", true)
	if !ok {
		return nil, false
	}
	for _, in := range ins {
		if !l.obj(in, "an input") {
			return nil, false
		}
		name, nn, ok := l.str(in, "name")
		if !ok {
			return nil, false
		}
		a := symbolic.Affine{Pos: l.pos(in)}
		aut := in.get("automaton")
		switch {
		case aut == nil:
			// The location of automaton name; index is its number.
			if idx := in.get("index"); idx != nil && (idx.kind != kNumber || idx.str != "0" && !isCount(idx.str)) {
				l.errorf(idx, "the index of automaton %q must be a non-negative integer below 2^20, got %s", name, idx.describe())
				return nil, false
			}
			if v := m.VarIndex(LocationVar(name)); v >= 0 {
				a.Terms = []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: v}}
			} else {
				a.Const = symbolic.Rat{Num: 0, Den: 1} // a single location: always 0
			}
		case in.get("index") != nil:
			l.unsupported(in, "arrays (input %s[%s])", name, in.get("index").str)
			return nil, false
		default:
			v := varIndex(m, name)
			if aut.kind == kString {
				if w := varIndex(m, aut.str+"_"+name); w >= 0 {
					v = w
				}
			}
			if v < 0 {
				l.errorf(nn, "input variable %q is not a variable of the model", name)
				return nil, false
			}
			a.Terms = []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: v}}
		}
		d.Inputs = append(d.Inputs, a)
	}
	outs, ok := l.arr(root, "output", true)
	if !ok {
		return nil, false
	}
	seen := map[string]int{}
	for i, o := range outs {
		if j, dup := seen[o.str]; dup && o.kind == kString {
			l.errorf(o, "output %q is listed twice (also output[%d]); each network output is one action", o.str, j)
			return nil, false
		}
		seen[o.str] = i
		if o.kind != kString {
			l.errorf(o, "an output must be an action name, got %s", o.describe())
			return nil, false
		}
		lb := labelIndex(m, o.str)
		if lb == symbolic.NoLabel {
			l.errorf(o, "output %q is not an action of the model", o.str)
			return nil, false
		}
		d.Outputs = append(d.Outputs, lb)
	}
	return d, true
}

// isCount reports whether a JSON number literal is an integer in 1..2^20.
func isCount(lit string) bool {
	n, err := strconv.Atoi(lit)
	return err == nil && n >= 1 && n <= 1<<20
}

// Attach applies the --start, --unsafe and --policy-file flags of vigil's
// commands to m: it appends the property built from start and unsafe (when
// unsafe != "") and the policy declared by policyFile (when != ""), and
// returns their names ("" for those not given) so that the command can
// select them. start without unsafe is an error. choose (--property) picks
// the PA property of files that have several.
func Attach(m *symbolic.Model, start, unsafe, policyFile, choose string) (property, policy string, err error) {
	if start != "" && unsafe == "" {
		return "", "", plainf("--start %s needs --unsafe FILE", start)
	}
	if unsafe != "" {
		if err := AddPropertyNamed(m, start, unsafe, choose); err != nil {
			return "", "", err
		}
		property = m.Properties[len(m.Properties)-1].Name
	}
	if policyFile != "" {
		d, err := LoadPolicyFileNamed(m, policyFile, choose)
		if err != nil {
			return "", "", err
		}
		taken := namer{}
		for _, p := range m.Policies {
			taken[p.Name] = true
		}
		d.Name = taken.unique(d.Name)
		m.Policies = append(m.Policies, d)
		policy = d.Name
	}
	return property, policy, nil
}
