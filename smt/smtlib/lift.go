package smtlib

import (
	"fmt"
	"math"
	"strings"

	"vigil/symbolic"
)

// Lifting the integer if-then-else terms of an atom to the Boolean level.
//
// Z3 4.8.11 and 4.8.12 (the z3 and libz3 of Debian 12 and Ubuntu 22.04)
// register every define-fun with parameters as a recursive function
// (cmd_context::insert_macro calls recfun's set_definition), and
// recfun::util::set_definition first runs redirect_ite on the body: it
// scores every ite by the number of ite terms above it, counted along
// every path of the term DAG, and while some ite scores more than 4 it
// moves the highest-scoring one into a fresh function fold-rec-N of all
// the parameters, recomputing the scores over the whole body each time;
// def::compute_cases then splits the body into one case per path through
// every ite that contains such a function. A clamp of a clamp,
// (let ((b (ite (<= 1 x) 1 x))) (ite (>= -4 b) -4 b)), already scores 7
// (the shared b counts twice), so the definition of a transition whose
// assignments nest a few min and max takes Z3's parser seconds, and one
// more command can make it minutes (smt/testdata/slowparse.smt2). Z3
// 4.8.13 skips redirect_ite for define-fun (commit 0ba518b "avoid perf
// abyss for macros"); stock z3 4.8.12 still reads vigil's files.
//
// So definitions are written without integer ite terms: an atom
// P(..., ite(c, a, b), ...) is written as the disjunction over the cases
// of its operands, (or (and c P(..., a, ...)) (and (not c) P(..., b,
// ...))), each case's guard the conjunction of the conditions that lead
// to it and each case's values ite-free. The cases of an operand are
// exclusive and cover every state, so the disjunction is equivalent to
// the atom. min, max and abs are cases too; a condition nested in an if
// is itself written lifted. Cases whose guard compares two numerals are
// decided at once. An atom whose operands would have more than maxCases
// cases is written with ite terms as before (exact, but possibly slow
// for that Z3); vigil's own models stay far below.

// maxCases bounds the cases of one lifted atom.
const maxCases = 64

// valCase is one case of an expression: when every guard holds, the
// expression's value is val, an ite-free term (the numeral k when isK).
type valCase struct {
	guard []string
	val   string
	k     int
	isK   bool
}

// cases returns e's cases, or false when there would be more than
// maxCases of them.
func (p *printer) cases(e *symbolic.Expr) ([]valCase, bool) {
	if e == nil {
		return []valCase{{val: p.exprString(e)}}, true // records the error
	}
	switch e.Op {
	case symbolic.OpConst:
		return []valCase{{val: lit(e.K), k: e.K, isK: true}}, true
	case symbolic.OpVar, symbolic.OpMul, symbolic.OpDiv, symbolic.OpSub, symbolic.OpNeg, symbolic.OpAdd:
		if !hasIte(e) {
			return []valCase{{val: p.exprString(e)}}, true
		}
	}
	switch e.Op {
	case symbolic.OpAdd, symbolic.OpSub, symbolic.OpNeg, symbolic.OpMul, symbolic.OpDiv:
		if e.Op == symbolic.OpAdd && len(e.Args) == 1 {
			return p.cases(e.Args[0])
		}
		return p.combine(e.Args, func(v []valCase) valCase {
			var b strings.Builder
			switch e.Op {
			case symbolic.OpAdd:
				b.WriteString("(+")
			case symbolic.OpSub, symbolic.OpNeg:
				b.WriteString("(-")
			case symbolic.OpMul:
				b.WriteString("(* " + lit(e.K))
			case symbolic.OpDiv:
				b.WriteString("(div")
			}
			for _, x := range v {
				b.WriteString(" " + x.val)
			}
			if e.Op == symbolic.OpDiv {
				b.WriteString(" " + lit(e.K))
			}
			b.WriteString(")")
			return valCase{val: b.String()}
		}, nil)
	case symbolic.OpMin, symbolic.OpMax:
		if len(e.Args) != 2 {
			break
		}
		// min(a, b) is a where a <= b, else b; max with >=
		cmp, other := "<=", ">"
		if e.Op == symbolic.OpMax {
			cmp, other = ">=", "<"
		}
		return p.combine(e.Args, nil, func(v []valCase) []valCase {
			a, b := v[0], v[1]
			if a.isK && b.isK {
				if (a.k <= b.k) == (e.Op == symbolic.OpMin) {
					return []valCase{a}
				}
				return []valCase{b}
			}
			a.guard = []string{"(" + cmp + " " + a.val + " " + b.val + ")"}
			b.guard = []string{"(" + other + " " + a.val + " " + b.val + ")"}
			return []valCase{a, b}
		})
	case symbolic.OpAbs:
		if len(e.Args) != 1 {
			break
		}
		return p.combine(e.Args, nil, func(v []valCase) []valCase {
			a := v[0]
			if a.isK && a.k != math.MinInt {
				if a.k < 0 {
					a.k, a.val = -a.k, lit(-a.k)
				}
				return []valCase{a}
			}
			neg := valCase{val: "(- " + a.val + ")", guard: []string{"(< " + a.val + " 0)"}}
			a.guard = []string{"(>= " + a.val + " 0)"}
			return []valCase{a, neg}
		})
	case symbolic.OpIte:
		if len(e.Args) != 2 {
			break
		}
		return p.branch(p.condString(e.Cond), func(then bool) ([]valCase, bool) {
			if then {
				return p.cases(e.Args[0])
			}
			return p.cases(e.Args[1])
		})
	case symbolic.OpBool:
		return p.branch(p.condString(e.Cond), func(then bool) ([]valCase, bool) {
			if then {
				return []valCase{{val: "1", k: 1, isK: true}}, true
			}
			return []valCase{{val: "0", k: 0, isK: true}}, true
		})
	}
	// an operator the lifting does not know, or a malformed node: the
	// plain printer writes it (or records its error)
	return []valCase{{val: p.exprString(e)}}, true
}

// branch returns the cases of an if on the condition c: those of the
// then branch under c and those of the else branch under its negation.
func (p *printer) branch(c string, arm func(then bool) ([]valCase, bool)) ([]valCase, bool) {
	switch c {
	case "true":
		return arm(true)
	case "false":
		return arm(false)
	}
	if p.branched != nil {
		p.branched[c] = true
	}
	th, ok := arm(true)
	if !ok {
		return nil, false
	}
	el, ok := arm(false)
	if !ok || len(th)+len(el) > maxCases {
		return nil, false
	}
	out := make([]valCase, 0, len(th)+len(el))
	for _, x := range th {
		x.guard = append([]string{c}, x.guard...)
		out = append(out, x)
	}
	for _, x := range el {
		x.guard = append([]string{"(not " + c + ")"}, x.guard...)
		out = append(out, x)
	}
	return out, true
}

// combine returns the cases of an operator over the operands es: for
// every combination of the operands' cases, the guards conjoined and the
// values given to one (a single case) or split (several cases, their
// guards added to the combination's).
func (p *printer) combine(es []*symbolic.Expr, one func([]valCase) valCase, split func([]valCase) []valCase) ([]valCase, bool) {
	per := make([][]valCase, len(es))
	total := 1
	for i, a := range es {
		cs, ok := p.cases(a)
		if !ok {
			return nil, false
		}
		per[i] = cs
		total *= len(cs)
		if total > maxCases {
			return nil, false
		}
	}
	var out []valCase
	pick := make([]valCase, len(es))
	var walk func(i int, guard []string) bool
	walk = func(i int, guard []string) bool {
		if i == len(es) {
			// the operands' guards are the combination's (guard): the
			// operator sees their values alone
			vs := make([]valCase, len(pick))
			for j, c := range pick {
				vs[j] = valCase{val: c.val, k: c.k, isK: c.isK}
			}
			var rs []valCase
			if one != nil {
				rs = []valCase{one(vs)}
			} else {
				rs = split(vs)
			}
			for _, r := range rs {
				if len(out) == maxCases {
					return false
				}
				r.guard = append(append([]string(nil), guard...), r.guard...)
				out = append(out, r)
			}
			return true
		}
		for _, c := range per[i] {
			pick[i] = c
			if !walk(i+1, append(guard[:len(guard):len(guard)], c.guard...)) {
				return false
			}
		}
		return true
	}
	if !walk(0, nil) {
		return nil, false
	}
	return out, true
}

// lifted writes atom over the values of the operands es without integer
// ite terms: atom itself when no operand has one, else the disjunction
// over the combinations of the operands' cases of the guards and the
// atom over the cases' values. With more than maxCases cases it writes
// atom over the operands as the plain printer does.
func (p *printer) lifted(es []*symbolic.Expr, atom func(v []string) string) string {
	// the plain text, which also records the errors of malformed nodes
	v := make([]string, len(es))
	any := false
	for i, e := range es {
		v[i] = p.exprString(e)
		any = any || hasIte(e)
	}
	if !any || p.err != nil {
		return atom(v)
	}
	// the conditions this atom's cases branch on (branch adds them), its
	// own: the text of an atom does not depend on what was printed before
	outer := p.branched
	p.branched = map[string]bool{}
	defer func() { p.branched = outer }()
	cs, ok := p.combine(es, nil, func(v []valCase) []valCase {
		vals := make([]string, len(v))
		for i, x := range v {
			vals[i] = x.val
		}
		return []valCase{{val: atom(vals)}}
	})
	if !ok {
		return atom(v)
	}
	// A condition branched on is a guard of several cases (the then
	// branch's and, negated, the else branch's): long ones are bound with
	// let and named in the guards, so that a condition over an operand
	// with an if, itself lifted, is written once and the text stays
	// linear in the nesting (written in every case, it doubled per
	// level).
	base := func(g string) string {
		if in, ok := strings.CutPrefix(g, "(not "); ok && strings.HasSuffix(in, ")") && p.branched[in[:len(in)-1]] {
			return in[:len(in)-1]
		}
		if p.branched[g] {
			return g
		}
		return ""
	}
	uses := map[string]int{}
	var order []string
	for _, c := range cs {
		for _, g := range c.guard {
			if b := base(g); b != "" {
				if uses[b] == 0 {
					order = append(order, b)
				}
				uses[b]++
			}
		}
	}
	bound := map[string]string{}
	var lets []string
	for _, b := range order {
		if len(bound) < letConds && uses[b] > 1 && len(b) > letCondLen {
			bound[b] = letCond(len(bound))
			lets = append(lets, "("+bound[b]+" "+b+")")
		}
	}
	var ds []string
	for _, c := range cs {
		// each guard once (an operand's condition recurs in the cases of
		// the operators above it)
		seen := map[string]bool{}
		var g []string
		for _, x := range append(c.guard, c.val) {
			if b := base(x); bound[b] != "" {
				if x == b {
					x = bound[b]
				} else {
					x = "(not " + bound[b] + ")"
				}
			}
			if !seen[x] {
				seen[x] = true
				g = append(g, x)
			}
		}
		ds = append(ds, and(g...))
	}
	if len(lets) == 0 {
		return or(ds...)
	}
	// the bound conditions are closed terms over the state variables,
	// read in the enclosing scope; nested lifted atoms that reuse the
	// names bind them within their own text
	return "(let (" + strings.Join(lets, " ") + ") " + or(ds...) + ")"
}

// letCondLen is the length above which a condition that guards several
// cases is bound with let (lifted).
const letCondLen = 40

// letCond names the i-th condition a lifted atom binds.
func letCond(i int) string { return fmt.Sprintf("vigil.c%d", i) }

// hasIte reports whether e prints with an ite term (min, max, abs, if, or
// a condition as a number).
func hasIte(e *symbolic.Expr) bool {
	if e == nil {
		return false
	}
	switch e.Op {
	case symbolic.OpMin, symbolic.OpMax, symbolic.OpAbs, symbolic.OpIte, symbolic.OpBool:
		return true
	}
	for _, a := range e.Args {
		if hasIte(a) {
			return true
		}
	}
	return false
}
