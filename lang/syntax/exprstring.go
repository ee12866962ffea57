package syntax

import "strings"

// ExprString renders an AST expression in canonical form (as the formatter
// writes it).
func ExprString(e *Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e *Expr) {
	if e == nil {
		return
	}
	switch e.Kind {
	case EInt, EDec, EBool, EName, EDead:
		b.WriteString(e.Text)
	case ENeg:
		b.WriteString("-")
		writeExpr(b, e.Args[0])
	case ENot:
		b.WriteString("!")
		writeExpr(b, e.Args[0])
	case EParen:
		b.WriteString("(")
		writeExpr(b, e.Args[0])
		b.WriteString(")")
	case ECall:
		b.WriteString(e.Op)
		b.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case EIf:
		b.WriteString("if ")
		writeExpr(b, e.Args[0])
		b.WriteString(" then ")
		writeExpr(b, e.Args[1])
		b.WriteString(" else ")
		writeExpr(b, e.Args[2])
	case EQuant:
		b.WriteString(e.Op + " " + e.Args[0].Text + " in ")
		writeExpr(b, e.Args[1])
		b.WriteString(" .. ")
		writeExpr(b, e.Args[2])
		b.WriteString(": ")
		writeExpr(b, e.Args[3])
	case EIndex:
		b.WriteString(e.Text)
		b.WriteString("[")
		writeExpr(b, e.Args[0])
		b.WriteString("]")
	case EArray:
		b.WriteString("[")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString("]")
	case EBin:
		writeExpr(b, e.Args[0])
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Args[1])
	}
}
