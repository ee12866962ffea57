package smtlib

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// Lit is a bound literal of an invariant box: Var >= K, or Var <= K when
// Upper; with Form set, the linear atom Form >= K (or <= K), written
// (>= (+ (* c x) ...) K) with exact integer coefficients. It has the fields of the Z3 binding's smt.Lit, so a caller
// converts with Lit(l), but this package does not import the binding: it
// builds without cgo (CGO_ENABLED=0 go build ./smt/smtlib), and a bug in
// the binding's encoder cannot reach the text it writes.
type Lit struct {
	Var   symbolic.VarID
	Upper bool
	K     int
	Form  *symbolic.Form
}

// Boxes converts an invariant whose literals have Lit's fields (such as
// the binding's smt.Lit) to Lits.
func Boxes[L ~struct {
	Var   symbolic.VarID
	Upper bool
	K     int
	Form  *symbolic.Form
}](inv [][]L) [][]Lit {
	out := make([][]Lit, len(inv))
	for i, b := range inv {
		out[i] = make([]Lit, len(b))
		for j, l := range b {
			out[i][j] = Lit(l)
		}
	}
	return out
}

// atom writes l over the names vs ("" and an error when l names a
// variable vs lacks, which the caller completes with ", which model M
// lacks": never a silently dropped atom).
func atom(l Lit, vs []string) (string, error) {
	op := ">="
	if l.Upper {
		op = "<="
	}
	if l.Form == nil {
		if int(l.Var) < 0 || int(l.Var) >= len(vs) {
			return "", fmt.Errorf("literal on variable %d", l.Var)
		}
		return "(" + op + " " + vs[l.Var] + " " + lit(l.K) + ")", nil
	}
	ts := l.Form.Terms()
	parts := make([]string, len(ts))
	for i, t := range ts {
		if int(t.Var) < 0 || int(t.Var) >= len(vs) {
			return "", fmt.Errorf("linear atom %s %s %d on variable %d", l.Form.Key(), op, l.K, t.Var)
		}
		if t.Coef == 1 {
			parts[i] = vs[t.Var]
		} else {
			parts[i] = "(* " + lit(t.Coef) + " " + vs[t.Var] + ")"
		}
	}
	sum := parts[0]
	if len(parts) > 1 {
		sum = "(+ " + strings.Join(parts, " ") + ")"
	}
	return "(" + op + " " + sum + " " + lit(l.K) + ")", nil
}
