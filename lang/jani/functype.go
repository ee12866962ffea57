package jani

// The check of a function that no expression calls. A call expands the
// function's body and checks it there (functions.go); a function never
// called was not checked beyond its declaration, where Storm's parser
// reads every function's body with its parameters in scope and refuses an
// undeclared name or an operand of the wrong type (a model Storm refuses,
// vigil loaded). typeOf checks the body as Storm does, by the types alone:
// it lowers nothing, so what vigil supports only for some arguments (a
// division by a parameter, an index that stays in range) is no error
// here. A body whose type is not the function's gets a note: Storm warns
// of it, and vigil refuses a call of such a function.

import (
	"fmt"
	"sort"
)

// checkUncalled checks the body of every function that no expression
// called while the model was lowered.
func (ml *modelLoader) checkUncalled() {
	all := []map[string]*function{ml.funcs}
	for _, a := range ml.autos {
		all = append(all, a.funcs)
	}
	for _, fs := range all {
		names := make([]string, 0, len(fs))
		for n, f := range fs {
			if !f.called && !f.recursive {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			ml.checkUncalledFn(fs[n])
		}
	}
}

func (ml *modelLoader) checkUncalledFn(f *function) {
	sc := func(name string) (ref, bool) {
		for _, p := range f.params {
			if p.name != name {
				continue
			}
			if p.array {
				return ref{elems: nil, isBool: p.t == tBool, feature: "array parameter"}, true
			}
			return ref{isConst: true, val: val{t: p.t}}, true
		}
		return f.scope(name)
	}
	before := len(ml.errs)
	t, known, ok := ml.typeOf(f.body, sc)
	for i := before; i < len(ml.errs); i++ {
		ml.errs[i].Msg += fmt.Sprintf(" (in the body of %s, which nothing calls: Storm checks every function's body)", f.describe())
	}
	if !ok || !known {
		return
	}
	if t != f.ret && !(t == tInt && f.ret == tReal) {
		ml.note(f.body, "the body of %s is %s, but the function's type is %s: Storm warns of it, and vigil refuses a call of the function (nothing calls it)", f.describe(), t, f.ret)
	}
}

// typeOf is the type of expression n in scope sc; known is false for an
// expression whose type the check does not compute (an operator vigil
// does not lower, which the lowering reports where it is used). It
// reports an undeclared name or an operand of the wrong type.
func (l *lowerer) typeOf(n *node, sc scope) (t typ, known, ok bool) {
	switch n.kind {
	case kBool:
		return tBool, true, true
	case kNumber:
		r, ok := l.number(n)
		if !ok {
			return 0, false, false
		}
		if r.IsInt() {
			return tInt, true, true
		}
		return tReal, true, true
	case kString:
		r, found := sc(n.str)
		switch {
		case !found:
			if !l.rejected[n.str] {
				l.errorf(n, "undeclared identifier %q", n.str)
			}
			return 0, false, false
		case r.elems != nil || r.feature == "array parameter":
			l.errorf(n, "type error: %q is an array: name an element ({\"op\": \"aa\", \"exp\": %q, \"index\": ...})", n.str, n.str)
			return 0, false, false
		case r.feature != "":
			return 0, false, true
		case r.isConst:
			return r.val.t, true, true
		case r.isBool, r.label != nil:
			return tBool, true, true
		}
		return tInt, true, true
	case kObject:
	default:
		l.errorf(n, "expected an expression, got %s", n.describe())
		return 0, false, false
	}
	opn := n.get("op")
	if opn == nil || opn.kind != kString {
		l.errorf(n, "expression object has no \"op\" string")
		return 0, false, false
	}
	op := opn.str
	sub := func(key string) (typ, bool, bool) {
		c := n.get(key)
		if c == nil {
			l.errorf(n, "operator %q needs %q", op, key)
			return 0, false, false
		}
		return l.typeOf(c, sc)
	}
	// want checks operand key: bool (wantBool) or numeric.
	want := func(key string, wantBool bool) (typ, bool, bool) {
		t, known, ok := sub(key)
		if ok && known && (t == tBool) != wantBool {
			what := "a number"
			if wantBool {
				what = "a boolean"
			}
			l.errorf(n.get(key), "type error: %q expects %s, got %s", op, what, t)
			return 0, false, false
		}
		return t, known, ok
	}
	join := func(a, b typ) typ {
		if a == tReal || b == tReal {
			return tReal
		}
		return tInt
	}
	switch op {
	case "∧", "∨", "⇒":
		_, _, ok1 := want("left", true)
		_, _, ok2 := want("right", true)
		return tBool, true, ok1 && ok2
	case "¬":
		_, _, ok := want("exp", true)
		return tBool, true, ok
	case "<", "≤", ">", "≥":
		_, _, ok1 := want("left", false)
		_, _, ok2 := want("right", false)
		return tBool, true, ok1 && ok2
	case "=", "≠":
		a, ka, ok1 := sub("left")
		b, kb, ok2 := sub("right")
		if ok1 && ok2 && ka && kb && (a == tBool) != (b == tBool) {
			l.errorf(n, "type error: %q compares %s with %s", op, a, b)
			return 0, false, false
		}
		return tBool, true, ok1 && ok2
	case "+", "*", "%", "min", "max", "pow", "-":
		if op == "-" && n.get("left") == nil && n.get("exp") != nil {
			return want("exp", false)
		}
		a, ka, ok1 := want("left", false)
		b, kb, ok2 := want("right", false)
		return join(a, b), ka && kb, ok1 && ok2
	case "/", "log":
		_, _, ok1 := want("left", false)
		_, _, ok2 := want("right", false)
		return tReal, true, ok1 && ok2
	case "floor", "ceil", "trc", "sgn":
		_, _, ok := want("exp", false)
		return tInt, true, ok
	case "abs":
		return want("exp", false)
	case "ite":
		_, _, ok1 := want("if", true)
		a, ka, ok2 := sub("then")
		b, kb, ok3 := sub("else")
		if !ok1 || !ok2 || !ok3 {
			return 0, false, false
		}
		if ka && kb && (a == tBool) != (b == tBool) {
			l.errorf(n, "type error: the branches of \"ite\" are %s and %s", a, b)
			return 0, false, false
		}
		if a == tBool {
			return tBool, ka && kb, true
		}
		return join(a, b), ka && kb, true
	case "let":
		return sub("expression")
	case "aa":
		exp := n.get("exp")
		if exp == nil || exp.kind != kString {
			return 0, false, true // reported where it is lowered
		}
		r, found := sc(exp.str)
		if !found {
			if !l.rejected[exp.str] {
				l.errorf(exp, "undeclared identifier %q", exp.str)
			}
			return 0, false, false
		}
		if r.elems == nil && r.feature != "array parameter" {
			l.errorf(exp, "%q is not an array", exp.str)
			return 0, false, false
		}
		it, ki, ok := want("index", false)
		if ok && ki && it != tInt {
			l.errorf(n.get("index"), "type error: an array index must be an int, got %s", it)
			return 0, false, false
		}
		if r.isBool {
			return tBool, true, ok
		}
		return tInt, true, ok
	case "call":
		return l.callType(n, sc)
	}
	return 0, false, true
}

// callType is typeOf of a call: the function's type, once its name and
// its arguments check.
func (l *lowerer) callType(n *node, sc scope) (typ, bool, bool) {
	fnn, an := n.get("function"), n.get("args")
	if fnn == nil || fnn.kind != kString || an == nil || an.kind != kArray {
		l.errorf(n, "operator \"call\" needs \"function\" (a name) and \"args\" (an array)")
		return 0, false, false
	}
	r, found := sc(fnPrefix + fnn.str)
	if !found || r.fn == nil {
		if !l.rejectedFn[fnn.str] {
			l.errorf(fnn, "call of undeclared function %q (a call sees the functions of the model and those of its own automaton)", fnn.str)
		}
		return 0, false, false
	}
	f := r.fn
	if len(an.vals) != len(f.params) {
		l.errorf(an, "%s takes %d argument%s (%s), got %d (declared at %s)", f.describe(), len(f.params), plural(len(f.params)), paramList(f.params), len(an.vals), l.pos(f.node))
		return 0, false, false
	}
	good := true
	for i, a := range an.vals {
		p := f.params[i]
		if p.array {
			ar, found := ref{}, false
			if a.kind == kString {
				ar, found = sc(a.str)
			}
			if !found || (ar.elems == nil && ar.feature != "array parameter") || ar.isBool != (p.t == tBool) {
				l.errorf(a, "type error: argument %d of %s must name an array of %s (parameter %q)", i+1, f.describe(), p.t, p.name)
				good = false
			}
			continue
		}
		t, known, ok := l.typeOf(a, sc)
		switch {
		case !ok:
			good = false
		case !known:
		case (t == tBool) != (p.t == tBool) || (p.t == tInt && t == tReal):
			l.errorf(a, "type error: argument %d of %s is %s, but parameter %q is %s", i+1, f.describe(), t, p.name, p.t)
			good = false
		}
	}
	return f.ret, true, good
}
