package lang

// Policies that exist for some instances only: `policy nn NAME "FILE"
// when N == 4 { ... }`. A benchmark file that serves every size of a
// domain through -D declares the networks trained for each size; a
// network for N = 6 names array elements and labels that do not exist
// when N = 4. policyPrepare runs before the other expansions and drops
// every policy whose condition folds to false, so that the stages never
// see it (and vigil check loads no file of it).

// policyPrepare drops the policies whose `when` condition is false.
func (c *checker) policyPrepare() {
	any := false
	for _, dr := range c.decls {
		if d, ok := dr.d.(*PolicyDecl); ok && d.When != nil {
			any = true
		}
	}
	if !any {
		return
	}
	q := newQuants(c)
	out := c.decls[:0:0]
	for _, dr := range c.decls {
		d, ok := dr.d.(*PolicyDecl)
		if !ok || d.When == nil {
			out = append(out, dr)
			continue
		}
		holds, ok := q.holds(d.When, "the condition of policy "+d.Name.Name)
		if !ok {
			c.badDecl[d] = true
		}
		if holds || !ok {
			out = append(out, dr) // a wrong condition is reported, the policy kept
		}
	}
	c.decls = out
}

// holds folds a constant condition: true, false, comparisons of constant
// integer expressions, !, &&, || and =>; the right operand of &&, || and
// => only where the left does not decide it.
func (q *quants) holds(e *Expr, what string) (bool, bool) {
	switch e.Kind {
	case EBool:
		return e.Text == "true", true
	case EParen:
		return q.holds(e.Args[0], what)
	case ENot:
		v, ok := q.holds(e.Args[0], what)
		return !v, ok
	case EQuant:
		if e.Op == "forall" || e.Op == "exists" {
			// as count folds them: the number of values that hold
			c := *e
			c.Op = "count"
			n, ok := q.aggregate(&c, what)
			if !ok {
				return false, false
			}
			lo, _ := q.eval(e.Args[1], what)
			hi, _ := q.eval(e.Args[2], what)
			if e.Op == "exists" {
				return n > 0, true
			}
			return n == max(hi-lo+1, 0), true
		}
	case EBin:
		switch e.Op {
		case "&&", "||", "=>":
			// from the left, as evaluation goes (spec.md, "Indexing"):
			// a left operand that decides leaves the right unevaluated,
			// so count k in 0 .. 3: k < N && G[k] > 0 never reads G[N]
			a, ok1 := q.holds(e.Args[0], what)
			if ok1 && a == (e.Op == "||") {
				return e.Op != "&&", true
			}
			b, ok2 := q.holds(e.Args[1], what)
			switch e.Op {
			case "&&":
				return a && b, ok1 && ok2
			case "||":
				return a || b, ok1 && ok2
			}
			return !a || b, ok1 && ok2
		case "==", "!=", "<", "<=", ">", ">=":
			a, ok1 := q.eval(e.Args[0], what)
			b, ok2 := q.eval(e.Args[1], what)
			if !ok1 || !ok2 {
				return false, false
			}
			return compareInts(e.Op, a, b), true
		}
	}
	q.errorf(e.Pos, e.End, "E0207", "%s must be a constant condition (comparisons of constants, !, &&, ||), not %s", what, exprString(e))
	return false, false
}

// compareInts is a .spec comparison operator (==, !=, <, <=, >, >=)
// applied to two integers.
func compareInts(op string, a, b int) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}
