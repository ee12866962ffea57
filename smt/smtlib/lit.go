package smtlib

import "vigil/symbolic"

// Lit is a bound literal of an invariant box: Var >= K, or Var <= K when
// Upper. It has the fields of the Z3 binding's smt.Lit, so a caller
// converts with Lit(l), but this package does not import the binding: it
// builds without cgo (CGO_ENABLED=0 go build ./smt/smtlib), and a bug in
// the binding's encoder cannot reach the text it writes.
type Lit struct {
	Var   symbolic.VarID
	Upper bool
	K     int
}

// Boxes converts an invariant whose literals have Lit's fields (such as
// the binding's smt.Lit) to Lits.
func Boxes[L ~struct {
	Var   symbolic.VarID
	Upper bool
	K     int
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
