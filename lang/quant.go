package lang

// Quantifiers and aggregates: `forall k in LO .. HI: C`, `exists`,
// `sum k in LO .. HI: E` and `count k in LO .. HI: C`. Like schemas
// (schema.go) they are expanded before the checker's stages, which never
// see them: forall into a conjunction of C with k replaced by each value
// (true when the range is empty), exists into a disjunction (false), sum
// into a sum (0), count into a sum of `if C then 1 else 0` (0). The terms
// are combined as a balanced tree, so that expansion adds only log2(n) to
// an expression's depth. They run after schemas, so a quantifier's bounds
// may use the parameters of its action schema and the names bound by
// enclosing quantifiers.
//
// The bounds are constant integer expressions: literals, constants
// (including -D values, enum values and a JANI model's constants),
// + - * /, min, max and abs. They are folded here, by the same arithmetic
// as the checker's (overflow is an error, / rounds toward negative
// infinity), before the checker runs.

import (
	"fmt"
	"math"
	"strconv"

	"vigil/symbolic"
)

// MaxQuantTerms bounds the terms the quantifiers of one expression expand
// to, nested ones multiplied.
const MaxQuantTerms = 100_000

// MaxQuantTotal bounds the terms and assignments the quantifiers of a
// whole model expand to: many expressions (or the assignments of one
// forall, or an action schema's commands) of MaxQuantTerms terms each
// would take the front end's memory. Blocks (specs/blocks.spec) at
// N = 45, the largest the per-expression limit takes, stays within it.
const MaxQuantTotal = 500_000

type quants struct {
	c      *checker
	consts map[string]*ConstDecl
	state  map[string]int // 1 evaluating, 2 done, 3 bad, 4 bad where quiet (not reported)
	values map[string]int
	names  map[string]bool // declared names, which bound names may not take
	terms  int             // of the current top-level expression
	total  int             // of every expression and forall assignment
	failed bool            // an error in the current top-level expression
	quiet  bool            // fold without reporting (array.go's intervals)

	// arrays are the array constants once arrayPrepare has taken them out
	// of the declarations (nil before: they are read from consts and -D)
	arrays map[string]*array
	inElem map[string]bool // array constants whose element is being folded
}

// spend adds n terms to the model's total, reporting (once) and
// returning false when it passes MaxQuantTotal.
func (q *quants) spend(n int, p, end symbolic.Pos) bool {
	if q.total > MaxQuantTotal {
		return false // reported
	}
	if q.total += n; q.total > MaxQuantTotal {
		q.overLimit()
		q.errorf(p, end, "E0704", "the quantifiers of the model expand to more than %d terms and assignments in all (this one brings them to %d); narrow their ranges", MaxQuantTotal, q.total)
		return false
	}
	return true
}

// errorf reports an error unless q is quiet.
func (q *quants) errorf(p, end symbolic.Pos, code, format string, args ...any) {
	if !q.quiet {
		q.c.errorf(p, end, code, format, args...)
	}
}

// overLimit marks the checker as past a size limit (check.go's
// overLimit), unless this folder's errors are discarded.
func (q *quants) overLimit() {
	if !q.quiet {
		q.c.overLimit = true
	}
}

// quantPrepare expands the quantifiers of the checker's declarations.
func (c *checker) quantPrepare() {
	any := false
	for _, f := range c.files {
		any = any || f.Quants
	}
	if !any {
		return
	}
	q := newQuants(c)
	for i, dr := range c.decls {
		if c.interrupted() {
			return
		}
		if nd := q.decl(dr.d); nd != dr.d {
			c.decls[i].d = nd
			c.fileOf[nd] = dr.file
		}
	}
}

// newQuants builds the folder of constant bounds over the checker's
// declarations (array.go uses it too).
func newQuants(c *checker) *quants {
	q := &quants{c: c, consts: map[string]*ConstDecl{}, state: map[string]int{}, values: map[string]int{}, names: map[string]bool{}}
	for _, dr := range c.decls {
		switch d := dr.d.(type) {
		case *ConstDecl:
			if q.consts[d.Name.Name] == nil {
				q.consts[d.Name.Name] = d
			}
			q.names[d.Name.Name] = true
		case *VarDecl:
			q.names[d.Name.Name] = true
		case *PredDecl:
			q.names[d.Name.Name] = true
		case *ActionDecl:
			q.names[d.Label.Name] = true
		}
	}
	if c.jani != nil {
		for _, k := range c.jani.Consts {
			q.state[k.Name], q.values[k.Name] = 2, k.Value
			q.names[k.Name] = true
		}
		for _, v := range c.jani.Vars {
			q.names[v.Name] = true
		}
	}
	return q
}

// decl returns d with its expressions expanded (d itself when it has no
// quantifier).
func (q *quants) decl(d Decl) Decl {
	x := q.top
	switch d := d.(type) {
	case *ConstDecl:
		if v := x(d.Value); v != d.Value {
			cp := *d
			cp.Value = v
			return &cp
		}
	case *VarDecl:
		lo, hi, init := x(d.Lo), x(d.Hi), x(d.Init)
		if lo != d.Lo || hi != d.Hi || init != d.Init {
			cp := *d
			cp.Lo, cp.Hi, cp.Init = lo, hi, init
			return &cp
		}
	case *PredDecl:
		if v := x(d.Cond); v != d.Cond {
			cp := *d
			cp.Cond = v
			return &cp
		}
	case *ActionDecl:
		cp := *d
		changed := false
		cp.Guard, cp.Cost = x(d.Guard), x(d.Cost)
		changed = cp.Guard != d.Guard || cp.Cost != d.Cost
		cp.Outcomes = make([]*OutcomeNode, len(d.Outcomes))
		for i, o := range d.Outcomes {
			cp.Outcomes[i] = o
			var assigns []*AssignNode
			for j, as := range o.Assigns {
				if as.Each != nil {
					if assigns == nil {
						assigns = append(make([]*AssignNode, 0, len(o.Assigns)), o.Assigns[:j]...)
					}
					assigns = append(assigns, q.each(as)...)
					continue
				}
				v, idx := x(as.Value), x(as.Index)
				if (v != as.Value || idx != as.Index) && assigns == nil {
					assigns = append(make([]*AssignNode, 0, len(o.Assigns)), o.Assigns[:j]...)
				}
				if assigns != nil {
					assigns = append(assigns, &AssignNode{Pos: as.Pos, Var: as.Var, Value: v, Index: idx})
				}
			}
			if assigns != nil {
				oc := *o
				oc.Assigns = assigns
				cp.Outcomes[i], changed = &oc, true
			}
		}
		if changed {
			return &cp
		}
	case *PolicyDecl:
		var items []*PolicyItem
		for i, it := range d.Items {
			cp := *it
			cp.When = x(it.When)
			changed := cp.When != it.When
			if it.Inputs != nil {
				cp.Inputs = make([]*Expr, len(it.Inputs))
				for j, e := range it.Inputs {
					cp.Inputs[j] = x(e)
					changed = changed || cp.Inputs[j] != e
				}
			}
			if changed && items == nil {
				items = append(make([]*PolicyItem, 0, len(d.Items)), d.Items[:i]...)
			}
			if items != nil {
				if changed {
					items = append(items, &cp)
				} else {
					items = append(items, it)
				}
			}
		}
		if items != nil {
			cp := *d
			cp.Items = items
			return &cp
		}
	case *PropertyDecl:
		return rewriteClauses(d, x)
	}
	return d
}

// rewriteArgs returns f applied to each of args in order, or nil when f
// returns every argument itself (so that the caller keeps its node); a
// new slice shares the arguments f kept.
func rewriteArgs(args []*Expr, f func(*Expr) *Expr) []*Expr {
	var out []*Expr
	for i, a := range args {
		b := f(a)
		if b != a && out == nil {
			out = append(make([]*Expr, 0, len(args)), args[:i]...)
		}
		if out != nil {
			out = append(out, b)
		}
	}
	return out
}

// rewriteClauses returns d with f applied to every clause's condition:
// d itself when f changes none, else a copy that shares the unchanged
// clauses.
func rewriteClauses(d *PropertyDecl, f func(*Expr) *Expr) *PropertyDecl {
	var clauses []*PropClause
	for i, cl := range d.Clauses {
		v := f(cl.Cond)
		if v != cl.Cond && clauses == nil {
			clauses = append(make([]*PropClause, 0, len(d.Clauses)), d.Clauses[:i]...)
		}
		if clauses != nil {
			clauses = append(clauses, &PropClause{Span: cl.Span, Kind: cl.Kind, Cond: v})
		}
	}
	if clauses == nil {
		return d
	}
	cp := *d
	cp.Clauses = clauses
	return &cp
}

// each expands `forall k in LO .. HI: ASSIGN` into one assignment per
// value of k (none when the range is empty).
func (q *quants) each(as *AssignNode) []*AssignNode {
	e := as.Each
	name := e.Name.Name
	if q.names[name] || keywords[name] {
		q.errorf(e.Name.Pos, identEnd(e.Name), "E0704", "forall %s: %s is a declared name or a keyword; choose another name for the assignments' variable", name, name)
		return nil
	}
	q.terms, q.failed = 0, false
	lo, ok1 := q.eval(e.Lo, "forall")
	hi, ok2 := q.eval(e.Hi, "forall")
	if !ok1 || !ok2 {
		return nil
	}
	if hi >= lo && (hi-lo < 0 || hi-lo >= MaxQuantTerms) {
		q.overLimit()
		q.errorf(e.Name.Pos, identEnd(e.Name), "E0704", "forall %s makes more than %d assignments; narrow its range", name, MaxQuantTerms)
		return nil
	}
	if hi >= lo && !q.spend(hi-lo+1, e.Name.Pos, identEnd(e.Name)) {
		return nil
	}
	var out []*AssignNode
	for k := lo; k <= hi; k++ {
		sub := map[string]int{name: k}
		q.terms, q.failed = 0, false
		a := &AssignNode{Pos: as.Pos, Var: as.Var, Value: q.expand(substitute(as.Value, sub))}
		if as.Index != nil {
			a.Index = q.expand(substitute(as.Index, sub))
		}
		out = append(out, a)
		if k == hi {
			break
		}
	}
	return out
}

// top expands one top-level expression.
func (q *quants) top(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	q.terms, q.failed = 0, false
	return q.expand(e)
}

// expand returns e with its quantifiers expanded, sharing what has none.
func (q *quants) expand(e *Expr) *Expr {
	if e.Kind == EQuant {
		return q.quant(e)
	}
	args := rewriteArgs(e.Args, q.expand)
	if args == nil {
		return e
	}
	return &Expr{Kind: e.Kind, Op: e.Op, Text: e.Text, Args: args, Pos: e.Pos, End: e.End, Height: e.Height}
}

// binderName is the name a quantifier binds as written: where an
// enclosing quantifier or parameter of the same name was substituted,
// substitute keeps it in the binder's Op.
func binderName(v *Expr) string {
	if v.Kind == EInt && v.Op != "" {
		return v.Op
	}
	return exprString(v)
}

// empty is what a quantifier over no values is (and what stands in for
// one whose error is reported).
func empty(e *Expr) *Expr {
	switch e.Op {
	case "forall":
		return &Expr{Kind: EBool, Text: "true", Pos: e.Pos, End: e.End}
	case "exists":
		return &Expr{Kind: EBool, Text: "false", Pos: e.Pos, End: e.End}
	}
	return &Expr{Kind: EInt, Text: "0", Pos: e.Pos, End: e.End}
}

func (q *quants) quant(e *Expr) *Expr {
	v := e.Args[0]
	if q.failed {
		return empty(e)
	}
	if v.Kind != EName {
		q.errorf(e.Pos, e.End, "E0704", "the name %s quantifies over is already bound (a parameter of its action, or an enclosing quantifier's name); choose another", binderName(v))
		q.failed = true
		return empty(e)
	}
	if q.names[v.Text] || keywords[v.Text] {
		q.errorf(v.Pos, v.End, "E0704", "%s %s: %s is a declared name or a keyword; choose another name for the quantifier's variable", e.Op, v.Text, v.Text)
		q.failed = true
		return empty(e)
	}
	lo, ok1 := q.eval(e.Args[1], e.Op)
	hi, ok2 := q.eval(e.Args[2], e.Op)
	if !ok1 || !ok2 {
		q.failed = true
		return empty(e)
	}
	if hi < lo {
		return empty(e)
	}
	n := hi - lo + 1
	if n <= 0 || q.terms+n > MaxQuantTerms || q.terms+n < q.terms {
		// Nested in (or beside) others, this quantifier's own values
		// are not the expression's terms: say both, as "(this one to
		// 896)" read as though 896 passed 100000.
		what := fmt.Sprintf("this one to %d", uint(hi-lo)+1)
		if q.terms > 0 {
			what = fmt.Sprintf("%d terms so far, and this one's %d values of %s", q.terms, uint(hi-lo)+1, v.Text)
		}
		q.overLimit()
		q.errorf(e.Pos, e.End, "E0704", "the quantifiers of this expression expand to more than %d terms (%s); narrow their ranges", MaxQuantTerms, what)
		q.failed = true
		return empty(e)
	}
	if !q.spend(n, e.Pos, e.End) {
		q.failed = true
		return empty(e)
	}
	q.terms += n
	terms := make([]*Expr, 0, n)
	sub := map[string]int{}
	body := e.Args[3]
	for k := lo; ; k++ {
		sub[v.Text] = k
		t := q.expand(substitute(body, sub))
		if q.failed {
			return empty(e)
		}
		if e.Op == "count" {
			one := &Expr{Kind: EInt, Text: "1", Pos: body.Pos, End: body.End}
			zero := &Expr{Kind: EInt, Text: "0", Pos: body.Pos, End: body.End}
			t = &Expr{Kind: EIf, Args: []*Expr{t, one, zero}, Pos: body.Pos, End: body.End, Height: t.Height + 1}
			t = &Expr{Kind: EParen, Args: []*Expr{t}, Pos: body.Pos, End: body.End, Height: t.Height + 1}
		}
		terms = append(terms, t)
		if k == hi {
			break
		}
	}
	op := map[string]string{"forall": "&&", "exists": "||", "sum": "+", "count": "+"}[e.Op]
	if len(terms) == 1 {
		// with the neutral element, so that the expansion has the
		// quantifier's type (a condition, or an integer) even for one term
		terms = append(terms, empty(e))
	}
	out := balance(terms, op)
	return &Expr{Kind: EParen, Args: []*Expr{out}, Pos: e.Pos, End: e.End, Height: out.Height + 1}
}

// balance combines terms with a left-associative operator as a balanced
// tree (the operators are associative, so the value is the same).
func balance(terms []*Expr, op string) *Expr {
	if len(terms) == 1 {
		return terms[0]
	}
	m := len(terms) / 2
	a, b := balance(terms[:m], op), balance(terms[m:], op)
	return &Expr{Kind: EBin, Op: op, Args: []*Expr{a, b}, Pos: a.Pos, End: b.End, Height: max(a.Height, b.Height) + 1}
}

// eval folds a quantifier's bound.
func (q *quants) eval(e *Expr, op string) (int, bool) {
	switch e.Kind {
	case EInt:
		v, err := strconv.Atoi(e.Text)
		if err != nil {
			q.errorf(e.Pos, e.End, "E0303", "integer %s is too large", e.Text)
			return 0, false
		}
		return v, true
	case EParen:
		return q.eval(e.Args[0], op)
	case ENeg:
		if minLiteral(e) {
			return math.MinInt, true
		}
		v, ok := q.eval(e.Args[0], op)
		if ok && v == -v && v != 0 {
			q.errorf(e.Pos, e.End, "E0303", "integer overflow in -%d", v)
			return 0, false
		}
		return -v, ok
	case EName:
		return q.constant(e, op)
	case EIndex:
		return q.element(e, op)
	case EQuant:
		if e.Op == "sum" || e.Op == "count" {
			return q.aggregate(e, op)
		}
	case ECall:
		if e.Op == "abs" && len(e.Args) == 1 || e.Op != "abs" && len(e.Args) == 2 {
			var vs []int
			for _, a := range e.Args {
				v, ok := q.eval(a, op)
				if !ok {
					return 0, false
				}
				vs = append(vs, v)
			}
			switch e.Op {
			case "min":
				return min(vs[0], vs[1]), true
			case "max":
				return max(vs[0], vs[1]), true
			}
			if vs[0] < 0 && vs[0] == -vs[0] {
				q.errorf(e.Pos, e.End, "E0303", "integer overflow in %s", exprString(e))
				return 0, false
			}
			return max(vs[0], -vs[0]), true
		}
	case EBin:
		a, ok1 := q.eval(e.Args[0], op)
		if !ok1 {
			return 0, false
		}
		b, ok2 := q.eval(e.Args[1], op)
		if !ok2 {
			return 0, false
		}
		var v int
		ok := true
		switch e.Op {
		case "+":
			v, ok = symbolic.AddExact(a, b)
		case "-":
			v, ok = symbolic.SubExact(a, b)
		case "*":
			v, ok = symbolic.MulExact(a, b)
		case "/":
			if b <= 0 {
				q.errorf(e.Args[1].Pos, e.Args[1].End, "E0205", "%s", divisorMsg(exprString(e.Args[1]), b))
				return 0, false
			}
			v = symbolic.FloorDiv(a, b)
		default:
			q.errorf(e.Pos, e.End, "E0207", "%s, not the condition %s", mustBe(op, "an integer", "integers"), exprString(e))
			return 0, false
		}
		if !ok {
			q.errorf(e.Pos, e.End, "E0303", "integer overflow in %s", exprString(e))
		}
		return v, ok
	}
	q.errorf(e.Pos, e.End, "E0207", "%s (constants, + - * /, min, max, abs, sum, count, elements of array constants), not %s", mustBe(op, "a constant integer expression", "constant integer expressions"), exprString(e))
	return 0, false
}

// element folds an element of an array constant, K[1] (with K's -D
// value), as the array stage will: the index is folded too and must lie
// in K's range. So a constant defined from an element (const M = K[1])
// serves as a bound like any other constant.
func (q *quants) element(e *Expr, op string) (int, bool) {
	name := e.Text
	elems, ok := q.arrayConst(name)
	if !ok {
		q.errorf(e.Pos, e.End, "E0207", "%s; %s is not an array constant, so %s is not constant", mustBe(op, "a constant expression", "constant expressions"), name, exprString(e))
		return 0, false
	}
	if elems == nil {
		return 0, false // a -D value that does not read: the array stage reports it
	}
	if q.inElem[name] {
		q.errorf(e.Pos, e.End, "E0206", "array constant %s is defined in terms of itself: its element reads %s", name, exprString(e))
		return 0, false
	}
	k, ok := q.eval(e.Args[0], op)
	if !ok {
		return 0, false
	}
	if k < 0 || k >= len(elems) {
		q.errorf(e.Args[0].Pos, e.Args[0].End, "E0803", "index %d is outside the range 0 .. %d of array constant %s", k, len(elems)-1, name)
		return 0, false
	}
	if q.inElem == nil {
		q.inElem = map[string]bool{}
	}
	q.inElem[name] = true
	defer delete(q.inElem, name)
	return q.eval(elems[k], op)
}

// arrayConst is the elements of the array constant name, with its -D
// value if it has one; false if name is none. A -D value that does not
// read is reported by the array stage.
func (q *quants) arrayConst(name string) ([]*Expr, bool) {
	if q.arrays != nil {
		a := q.arrays[name]
		if a == nil || a.decl != nil {
			return nil, false
		}
		return a.elems, true
	}
	d := q.consts[name]
	if d == nil || d.Value == nil || d.Value.Kind != EArray {
		return nil, false
	}
	if v, set := q.c.opts.Defines[name]; set {
		elems, err := q.c.parseArrayDefine(v, d.Name)
		if err != "" {
			return nil, true
		}
		return elems, true
	}
	return d.Value.Args, true
}

// aggregate folds `sum k in LO .. HI: E` and `count k in LO .. HI: C` in a
// constant expression, as their expansion would fold: a bound naming a
// constant defined by one (const T = sum k in 1 .. N: k) folds like the
// others. The terms count against MaxQuantTerms per aggregate.
func (q *quants) aggregate(e *Expr, op string) (int, bool) {
	v := e.Args[0]
	if v.Kind != EName || q.names[v.Text] || keywords[v.Text] {
		q.errorf(v.Pos, v.End, "E0704", "%s %s: %s is a declared name, a keyword or already bound; choose another name for the quantifier's variable", e.Op, binderName(v), binderName(v))
		return 0, false
	}
	lo, ok1 := q.eval(e.Args[1], op)
	hi, ok2 := q.eval(e.Args[2], op)
	if !ok1 || !ok2 {
		return 0, false
	}
	if hi >= lo && (hi-lo < 0 || hi-lo >= MaxQuantTerms) {
		q.errorf(e.Pos, e.End, "E0704", "%s %s makes more than %d terms; narrow its range", e.Op, v.Text, MaxQuantTerms)
		return 0, false
	}
	total := 0
	for k := lo; k <= hi; k++ {
		body := substitute(e.Args[3], map[string]int{v.Text: k})
		var t int
		if e.Op == "count" {
			h, ok := q.holds(body, op)
			if !ok {
				return 0, false
			}
			if h {
				t = 1
			}
		} else {
			var ok bool
			if t, ok = q.eval(body, op); !ok {
				return 0, false
			}
		}
		var ok bool
		if total, ok = symbolic.AddExact(total, t); !ok {
			q.errorf(e.Pos, e.End, "E0303", "integer overflow in %s", exprString(e))
			return 0, false
		}
		if k == hi {
			break
		}
	}
	return total, true
}

// mustBe says what op's folded expressions must be, for the messages:
// "the bounds of forall must be integers" for a quantifier, else what the
// caller named ("the upper bound of parameter i must be an integer").
func mustBe(op, one, many string) string {
	switch op {
	case "forall", "exists", "sum", "count":
		return "the bounds of " + op + " must be " + many
	}
	return op + " must be " + one
}

// constant folds a name in a bound: a constant, as the checker will.
func (q *quants) constant(e *Expr, op string) (int, bool) {
	c := q.c
	name := e.Text
	switch q.state[name] {
	case 2:
		return q.values[name], true
	case 1, 3:
		return 0, false // a cycle: the consts stage reports it
	case 4:
		if q.quiet {
			return 0, false
		}
		// it failed where the folder was quiet (array.go's intervals and
		// constant conditions): fold it again to say why, or the use
		// that needs it was dropped without an error (E0003)
	}
	if _, isArray := q.arrayConst(name); isArray {
		q.errorf(e.Pos, e.End, "E0801", "%s is an array constant: name one element, %s[INDEX]", name, name)
		return 0, false
	}
	d := q.consts[name]
	if d == nil {
		what := "undeclared"
		if q.names[name] {
			what = "not a constant"
		}
		q.errorf(e.Pos, e.End, "E0207", "%s; %s is %s", mustBe(op, "a constant expression", "constant expressions"), name, what)
		return 0, false
	}
	q.state[name] = 1
	var v int
	ok := true
	if s, set := c.opts.Defines[name]; set {
		var err error
		v, err = strconv.Atoi(s)
		if k, isValue := c.enumDefine(s); isValue {
			v, err = k, nil // -D START=red
		}
		ok = err == nil // the consts stage reports a bad -D
	} else {
		v, ok = q.eval(d.Value, op)
	}
	if !ok {
		q.state[name] = 3
		if q.quiet {
			q.state[name] = 4 // failed without saying why
		}
		return 0, false
	}
	q.state[name], q.values[name] = 2, v
	return v, true
}
