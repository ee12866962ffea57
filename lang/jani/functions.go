package jani

// JANI functions (the "functions" feature): a model or an automaton declares
//
//	"functions": [{"name": F, "type": T, "parameters": [{"name": P, "type": T}, ...], "body": E}]
//
// and an expression calls one with {"op": "call", "function": F, "args": [E, ...]}.
// The import expands every call where it is lowered: the arguments are
// lowered in the caller's scope, and the body is lowered in the function's
// own scope (its parameters, bound to the arguments' values, then what is
// visible where the function is declared: constants and global variables,
// and for an automaton's function that automaton's local variables and
// functions). A parameter hides a constant or variable of its name. Since
// the arguments are substituted as lowered values, not as text, nothing in
// an argument can be captured by a name inside the body.
//
// As Storm (its JANI parser and FunctionEliminator): a call names a
// function of its automaton or of the model; recursion, direct or mutual,
// is refused (an expansion would not end); the number of arguments must
// be the number of parameters; the bounds of a bounded parameter type are
// ignored. vigil also refuses what Storm passes on silently: an argument of
// the wrong type (a boolean for an int, a real for an int), a body whose
// type is not the function's, and an automaton's function with a model
// function's name (Storm's parser calls the automaton's, its function
// eliminator the model's).
//
// An expansion is bounded: a function whose body, with every call in it
// expanded, has more than maxExpansion JSON nodes is refused where it is
// called, and so is a call whose lowered result has more than maxExpansion
// operators (a parameter used twice in a body used twice ... doubles at
// each level).

import (
	"fmt"
	"sort"
	"strings"

	"vigil/symbolic"
)

// fnPrefix marks a function name asked of a scope: sc(fnPrefix + F)
// resolves function F (ref.fn) where a call sits.
const fnPrefix = "\x00function:"

// maxExpansion bounds the size of one expanded call (JSON nodes of the
// expanded body, and operators of its lowered result).
const maxExpansion = 200000

// maxCallDepth bounds nested expansions (a guard: recursion is refused
// before any call is expanded).
const maxCallDepth = 200

type function struct {
	name   string
	node   *node      // the definition
	auto   *automaton // nil: a model function
	params []param
	ret    typ
	body   *node
	scope  scope // what the body sees besides its parameters
	// size is the number of JSON nodes of the body with every call in it
	// expanded (capped at maxExpansion+1); state drives the cycle check.
	size      int
	state     uint8 // 0 unvisited, 1 on the stack, 2 done
	recursive bool
	// called: an expression called it (bindCall); a function that
	// nothing calls is checked by its types alone (checkUncalled)
	called bool
}

type param struct {
	name string
	t    typ // the elements' type for an array
	node *node
	// array: the parameter is an array of t, and its argument the name
	// of an array variable (vigil imports arrays as variables, one per
	// element; an array value, av or ac, is no argument)
	array bool
}

func (f *function) describe() string {
	if f.auto != nil {
		return fmt.Sprintf("function %q of automaton %q", f.name, f.auto.name)
	}
	return fmt.Sprintf("function %q", f.name)
}

// readFunctions reads the "functions" of owner (the model when a is nil,
// else automaton a). Bodies are lowered where the functions are called.
func (ml *modelLoader) readFunctions(owner *node, a *automaton) map[string]*function {
	fs, ok := ml.arr(owner, "functions", false)
	if !ok || len(fs) == 0 {
		return nil
	}
	out := map[string]*function{}
	for _, fn := range fs {
		if !ml.obj(fn, "a function definition") {
			continue
		}
		ml.members(fn, "a function definition", "name", "type", "parameters", "body")
		name, nn, ok := ml.str(fn, "name")
		if !ok {
			continue
		}
		if prev := out[name]; prev != nil {
			ml.errorf(nn, "function %q declared twice (first at %s)", name, ml.pos(prev.node))
			continue
		}
		if a != nil && ml.funcs[name] != nil {
			ml.errorf(nn, "function %q of automaton %q has the name of a model function (declared at %s): tools differ on which one a call means (Storm's parser takes the automaton's, its function eliminator the model's); rename one of them", name, a.name, ml.pos(ml.funcs[name].node))
			continue
		}
		f := &function{name: name, node: fn, auto: a}
		tn := fn.get("type")
		if tn == nil {
			ml.errorf(fn, "function %q has no \"type\"", name)
			continue
		}
		if f.ret, ok = ml.paramType(tn, "the type of function "+name); !ok {
			continue
		}
		ps, ok := ml.arr(fn, "parameters", false)
		if !ok {
			continue
		}
		good := true
		seen := map[string]*node{}
		for _, pn := range ps {
			if !ml.obj(pn, "a function parameter") {
				good = false
				continue
			}
			ml.members(pn, "a function parameter", "name", "type")
			pname, pnn, ok := ml.str(pn, "name")
			if !ok {
				good = false
				continue
			}
			if seen[pname] != nil {
				ml.errorf(pnn, "parameter %q of function %q declared twice (first at %s)", pname, name, ml.pos(seen[pname]))
				good = false
				continue
			}
			seen[pname] = pn
			ptn := pn.get("type")
			if ptn == nil {
				ml.errorf(pn, "parameter %q of function %q has no \"type\"", pname, name)
				good = false
				continue
			}
			what := fmt.Sprintf("the type of parameter %q of function %s", pname, name)
			array := false
			if k := ptn.get("kind"); ptn.kind == kObject && k != nil && k.kind == kString && k.str == "array" {
				// an array parameter: its argument names an array
				// variable, which the body accesses (bindCall)
				ml.members(ptn, "an array type", "kind", "base")
				if ptn = ptn.get("base"); ptn == nil {
					ml.errorf(pn, "%s: an array type needs \"base\" (the type of its elements)", what)
					good = false
					continue
				}
				if k := ptn.get("kind"); ptn.kind == kObject && k != nil && k.kind == kString && k.str == "array" {
					ml.unsupported(ptn, "%s: an array of arrays", what)
					good = false
					continue
				}
				array = true
			}
			t, ok := ml.paramType(ptn, what)
			if !ok {
				good = false
				continue
			}
			f.params = append(f.params, param{name: pname, t: t, node: pn, array: array})
		}
		if f.body = fn.get("body"); f.body == nil {
			ml.errorf(fn, "function %q has no \"body\"", name)
			good = false
		}
		if !good {
			ml.rejectedFn[name] = true
			continue
		}
		if a != nil {
			f.scope = ml.localScope(a)
		} else {
			f.scope = ml.globalScope
		}
		out[name] = f
	}
	return out
}

// paramType reads the type of a function or a parameter: bool, int, real,
// or a bounded int or real, whose bounds are ignored (as Storm ignores
// them, with a warning).
func (ml *modelLoader) paramType(tn *node, what string) (typ, bool) {
	if tn.kind == kString {
		switch tn.str {
		case "bool":
			return tBool, true
		case "int":
			return tInt, true
		case "real":
			return tReal, true
		case "clock", "continuous":
			ml.unsupported(tn, "%s: type %q (vigil handles the discrete model types)", what, tn.str)
			return 0, false
		}
		ml.errorf(tn, "%s: unknown type %q (want bool, int, real or a bounded type)", what, tn.str)
		return 0, false
	}
	if tn.kind == kObject {
		if k := tn.get("kind"); k != nil && k.kind == kString {
			switch k.str {
			case "bounded":
				ml.members(tn, "a bounded type", "kind", "base", "lower-bound", "upper-bound")
				base := tn.get("base")
				if base != nil && base.kind == kString && (base.str == "int" || base.str == "real") {
					ml.note(tn, "%s: the bounds of a bounded type are ignored (as Storm does): the value is not checked against them", what)
					if base.str == "int" {
						return tInt, true
					}
					return tReal, true
				}
				ml.errorf(tn, "%s: the base of a bounded type must be \"int\" or \"real\"", what)
				return 0, false
			case "array":
				ml.unsupported(tn, "%s: an array (a function's result, or an array inside a parameter's array)", what)
				return 0, false
			}
		}
	}
	ml.errorf(tn, "%s: expected a type (bool, int, real or a bounded type), got %s", what, tn.describe())
	return 0, false
}

// lookupFn resolves function name as seen from automaton a (nil: the
// model level).
func (ml *modelLoader) lookupFn(a *automaton, name string) *function {
	if a != nil {
		if f := a.funcs[name]; f != nil {
			return f
		}
	}
	return ml.funcs[name]
}

// checkFunctions refuses recursion among fs (a cycle of calls through the
// functions' bodies) and computes every function's expanded size.
func (ml *modelLoader) checkFunctions(fs map[string]*function) {
	names := make([]string, 0, len(fs))
	for n := range fs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ml.fnSize(fs[n], nil, nil)
	}
}

// fnSize computes f.size by a depth-first walk of the call graph; stack
// holds the functions being expanded and calls the call nodes between
// them, so that a cycle is reported with the calls that close it.
func (ml *modelLoader) fnSize(f *function, stack []*function, calls []*node) int {
	switch f.state {
	case 2:
		return f.size
	case 1:
		// a cycle: from f's first appearance on the stack
		i := 0
		for stack[i] != f {
			i++
		}
		var parts []string
		for j := i; j < len(stack); j++ {
			parts = append(parts, fmt.Sprintf("%s calls %q at %s", stack[j].describe(), calledName(calls[j]), ml.pos(calls[j])))
		}
		last := calls[len(calls)-1]
		ml.errorf(last, "function %q is recursive (%s): vigil expands calls where they are made, and the expansion of a recursive function does not end (Storm refuses recursion too); write the recursion out to a fixed depth", f.name, strings.Join(parts, "; "))
		for j := i; j < len(stack); j++ {
			stack[j].recursive = true
		}
		return maxExpansion + 1
	}
	f.state = 1
	size := 0
	var walk func(n *node)
	walk = func(n *node) {
		if size > maxExpansion {
			return
		}
		size++
		if n.kind == kObject {
			if op := n.get("op"); op != nil && op.kind == kString && op.str == "call" {
				if fnn := n.get("function"); fnn != nil && fnn.kind == kString {
					if g := ml.lookupFn(f.auto, fnn.str); g != nil {
						size += ml.fnSize(g, append(stack, f), append(calls, n))
						if g.recursive {
							// reported once, where the cycle closes; a call
							// of f is refused without another error
							f.recursive = true
						}
					}
				}
			}
		}
		for _, c := range n.vals {
			walk(c)
		}
	}
	walk(f.body)
	f.size = min(size, maxExpansion+1)
	f.state = 2
	return f.size
}

func calledName(n *node) string {
	if fnn := n.get("function"); fnn != nil {
		return fnn.str
	}
	return ""
}

// call lowers {"op": "call", "function": F, "args": [...]} by expanding F.
func (l *lowerer) call(n *node, sc scope) (val, bool) {
	f, body, ok := l.bindCall(n, sc)
	if !ok {
		return val{}, false
	}
	l.callDepth++
	before := len(l.errs)
	v, ok := l.expr(f.body, body)
	l.callDepth--
	if !ok {
		l.bodyErrors(before, f, n)
		return val{}, false
	}
	return l.callResult(n, f, v)
}

// callFrac expands a call of a real function in a probability (probFrac):
// its body is lowered as a probability is, where a division by a
// variable is allowed (a function 1/(x+1) as a destination's probability
// was refused as "division by a non-constant expression outside a
// probability"; Storm substitutes the body, and computes it). A call of
// an int or bool function is lowered as anywhere else.
func (l *lowerer) callFrac(n *node, sc scope) (frac, bool) {
	fnn := n.get("function")
	if fnn == nil || fnn.kind != kString {
		v, ok := l.call(n, sc) // reports it
		return frac{v, constInt(1)}, ok
	}
	if r, ok := sc(fnPrefix + fnn.str); !ok || r.fn == nil || r.fn.ret != tReal {
		v, ok := l.call(n, sc)
		if ok && !v.numeric() {
			l.errorf(n, "type error: a probability must be a number, but %s is bool", r.fn.describe())
			return frac{}, false
		}
		return frac{v, constInt(1)}, ok
	}
	f, body, ok := l.bindCall(n, sc)
	if !ok {
		return frac{}, false
	}
	l.callDepth++
	before := len(l.errs)
	fr, ok := l.probFrac(f.body, body)
	l.callDepth--
	if !ok {
		l.bodyErrors(before, f, n)
		return frac{}, false
	}
	if sz := valSize(fr.num, maxExpansion+1) + valSize(fr.den, maxExpansion+1); sz > maxExpansion {
		l.errorf(n, "the call of %s expands to more than %d operators (a parameter used more than once, in a function called with a call as its argument, ... multiplies at each level); vigil expands calls where they are made: write the model without such nesting", f.describe(), maxExpansion)
		return frac{}, false
	}
	return fr, true
}

// bindCall checks the call n of a function (its name, its arguments) and
// returns the function and the scope its body is lowered in: the
// parameters bound to the arguments' values, then the function's scope.
func (l *lowerer) bindCall(n *node, sc scope) (*function, scope, bool) {
	fnn := n.get("function")
	if fnn == nil {
		l.errorf(n, "operator \"call\" needs \"function\" (the name of the function called)")
		return nil, nil, false
	}
	if fnn.kind != kString {
		l.errorf(fnn, "\"function\" must be a string, got %s", fnn.describe())
		return nil, nil, false
	}
	r, ok := sc(fnPrefix + fnn.str)
	if !ok || r.fn == nil {
		if !l.rejectedFn[fnn.str] {
			l.errorf(fnn, "call of undeclared function %q (a call sees the functions of the model and those of its own automaton)", fnn.str)
		}
		return nil, nil, false
	}
	f := r.fn
	f.called = true
	an := n.get("args")
	if an == nil {
		l.errorf(n, "operator \"call\" needs \"args\" (an array of the arguments; [] for none)")
		return nil, nil, false
	}
	if an.kind != kArray {
		l.errorf(an, "\"args\" must be an array, got %s", an.describe())
		return nil, nil, false
	}
	if len(an.vals) != len(f.params) {
		l.errorf(an, "%s takes %d argument%s (%s), got %d (declared at %s)", f.describe(), len(f.params), plural(len(f.params)), paramList(f.params), len(an.vals), l.pos(f.node))
		return nil, nil, false
	}
	if f.recursive {
		return nil, nil, false // reported at the definition
	}
	if f.size > maxExpansion {
		l.errorf(n, "%s is too large to expand: its body with every call in it expanded has more than %d JSON nodes (a function that calls another twice, which calls another twice, ... doubles at each level); vigil expands calls where they are made: write the model without such nesting", f.describe(), maxExpansion)
		return nil, nil, false
	}
	args := make([]val, len(an.vals))
	arrays := make([]ref, len(an.vals))
	good := true
	for i, a := range an.vals {
		if p := f.params[i]; p.array {
			r, ok := l.arrayArg(a, sc, i, f, p)
			arrays[i] = r
			good = good && ok
			continue
		}
		v, ok := l.expr(a, sc)
		if !ok {
			good = false
			continue
		}
		p := f.params[i]
		switch {
		case p.t == tBool && v.numeric():
			l.errorf(a, "type error: argument %d of %s is a number, but parameter %q is bool", i+1, f.describe(), p.name)
			good = false
		case p.t != tBool && !v.numeric():
			l.errorf(a, "type error: argument %d of %s is a boolean, but parameter %q is %s", i+1, f.describe(), p.name, p.t)
			good = false
		case p.t == tInt && v.t == tReal:
			l.errorf(a, "type error: argument %d of %s is a real, but parameter %q is int (wrap the argument in floor or ceil)", i+1, f.describe(), p.name)
			good = false
		}
		args[i] = v
	}
	if !good {
		return nil, nil, false
	}
	if l.callDepth >= maxCallDepth {
		l.errorf(n, "calls nested more than %d deep", maxCallDepth)
		return nil, nil, false
	}
	body := func(name string) (ref, bool) {
		for i, p := range f.params {
			if p.name == name && p.array {
				return arrays[i], true
			}
			if p.name == name {
				return ref{isConst: true, val: args[i]}, true
			}
		}
		return f.scope(name)
	}
	return f, body, true
}

// arrayArg checks the argument a of array parameter p (the i-th of f):
// the name of an array (a variable array, or an array parameter of the
// calling function) whose elements have p's type (an int array for a
// real one).
func (l *lowerer) arrayArg(a *node, sc scope, i int, f *function, p param) (ref, bool) {
	if a.kind != kString {
		l.unsupported(a, "argument %d of %s for array parameter %q: vigil passes an array parameter the name of an array variable, not an array value or another expression (%s): declare the array as a variable", i+1, f.describe(), p.name, a.describe())
		return ref{}, false
	}
	r, ok := sc(a.str)
	if !ok {
		if !l.rejected[a.str] {
			l.errorf(a, "undeclared identifier %q", a.str)
		}
		return ref{}, false
	}
	if r.elems == nil {
		if r.feature != "" {
			l.unsupported(a, "%s (%q)", r.feature, a.str)
		} else {
			l.errorf(a, "type error: argument %d of %s is %q, not an array, but parameter %q is an array", i+1, f.describe(), a.str, p.name)
		}
		return ref{}, false
	}
	switch {
	case r.isBool && p.t != tBool:
		l.errorf(a, "type error: argument %d of %s is an array of bool, but parameter %q is an array of %s", i+1, f.describe(), p.name, p.t)
		return ref{}, false
	case !r.isBool && p.t == tBool:
		l.errorf(a, "type error: argument %d of %s is an array of int, but parameter %q is an array of bool", i+1, f.describe(), p.name)
		return ref{}, false
	}
	return r, true
}

// callResult checks the value v of f's body, expanded for the call n,
// against f's type.
func (l *lowerer) callResult(n *node, f *function, v val) (val, bool) {
	switch {
	case f.ret == tBool && v.numeric():
		l.errorf(f.body, "type error: the body of %s is a number, but the function's type is bool", f.describe())
		return val{}, false
	case f.ret != tBool && !v.numeric():
		l.errorf(f.body, "type error: the body of %s is a boolean, but the function's type is %s", f.describe(), f.ret)
		return val{}, false
	case f.ret == tInt && v.t == tReal:
		l.errorf(f.body, "type error: the body of %s is a real, but the function's type is int", f.describe())
		return val{}, false
	}
	if f.ret == tReal && v.t == tInt {
		v.t = tReal
	}
	if sz := valSize(v, maxExpansion+1); sz > maxExpansion {
		l.errorf(n, "the call of %s expands to more than %d operators (a parameter used more than once, in a function called with a call as its argument, ... multiplies at each level); vigil expands calls where they are made: write the model without such nesting", f.describe(), maxExpansion)
		return val{}, false
	}
	return v, true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func paramList(ps []param) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.name + ": " + p.t.String()
		if p.array {
			s[i] = p.name + ": array of " + p.t.String()
		}
	}
	return strings.Join(s, ", ")
}

// valSize counts the operators of v's tree (shared subtrees count once per
// use), stopping at limit.
func valSize(v val, limit int) int {
	n := 0
	var ex func(e *symbolic.Expr)
	var co func(c *symbolic.Cond)
	ex = func(e *symbolic.Expr) {
		if e == nil || n >= limit {
			return
		}
		n++
		for _, a := range e.Args {
			ex(a)
		}
		co(e.Cond)
	}
	co = func(c *symbolic.Cond) {
		if c == nil || n >= limit {
			return
		}
		n++
		ex(c.L)
		ex(c.R)
		for _, a := range c.Args {
			co(a)
		}
	}
	ex(v.e)
	co(v.c)
	return n
}

// bodyErrors treats the errors from index from on, raised while the body
// of f was expanded for the call n: each is reported once, not once per
// call, and says the call that expanded it (the body's position alone
// does not say which call gave a parameter its value). An error is left
// out only while its first report is still in l.errs: a lowering that
// discards its errors (rewardAssign tries a reward as a cost, and drops
// them) must not silence the next call's. (The set of reported errors
// used to outlive them: a guard calling a function whose body vigil
// refuses, after a destination's reward had called it, lost its error and
// the edge with it, and the model loaded without the edge:
// s25x_jani_error_once.)
func (l *lowerer) bodyErrors(from int, f *function, n *node) {
	if l.bodyErrSeen == nil {
		l.bodyErrSeen = map[string]int{}
	}
	kept := l.errs[:from]
	for _, e := range l.errs[from:] {
		key := e.Path + "\x00" + e.Msg
		if i, ok := l.bodyErrSeen[key]; ok && i < from && l.errs[i].Path == e.Path && strings.HasPrefix(l.errs[i].Msg, e.Msg+" (expanding the call of ") {
			continue
		}
		l.bodyErrSeen[key] = len(kept)
		e.Msg += fmt.Sprintf(" (expanding the call of %s at %s)", f.describe(), l.pos(n))
		kept = append(kept, e)
	}
	l.errs = kept
}
