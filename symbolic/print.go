package symbolic

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// Print writes m as canonical .spec text: constants folded into every
// expression (their declarations kept), predicates inlined at their uses
// (their declarations kept), one declaration per line. Lowering the output
// gives back the same model.
func Print(w io.Writer, m *Model) error {
	bw := bufio.NewWriter(w)
	p := &printer{m: m}
	if m.Name != "" {
		fmt.Fprintf(bw, "model %s\n", m.Name)
	}
	if len(m.Consts) > 0 {
		bw.WriteString("\n")
		for _, c := range m.Consts {
			fmt.Fprintf(bw, "const %s = %d\n", c.Name, c.Value)
		}
	}
	if len(m.Vars) > 0 {
		bw.WriteString("\n")
		for _, run := range m.VarRuns() {
			v := &m.Vars[run.First]
			fmt.Fprintf(bw, "var %s : ", run.Name)
			if run.Array {
				fmt.Fprintf(bw, "[%d .. %d] of ", run.Lo, run.Lo+run.N-1)
			}
			if v.Bool {
				bw.WriteString("bool")
			} else {
				fmt.Fprintf(bw, "%s .. %s", intLit(v.Lo), intLit(v.Hi))
			}
			if v.HasInit {
				bw.WriteString(" = ")
				if run.Array {
					bw.WriteString("[")
				}
				for i := run.First; i < run.First+run.N; i++ {
					if i > run.First {
						bw.WriteString(", ")
					}
					if v.Bool {
						fmt.Fprintf(bw, "%t", m.Vars[i].Init != 0)
					} else {
						bw.WriteString(intLit(m.Vars[i].Init))
					}
				}
				if run.Array {
					bw.WriteString("]")
				}
			}
			bw.WriteString("\n")
		}
	}
	if len(m.Preds) > 0 {
		bw.WriteString("\n")
		for _, pr := range m.Preds {
			fmt.Fprintf(bw, "pred %s = %s\n", pr.Name, p.cond(pr.Cond, 0))
		}
	}
	if len(m.Commands) > 0 {
		bw.WriteString("\n")
	}
	for i := range m.Commands {
		bw.WriteString(p.command(&m.Commands[i]))
	}
	for _, pol := range m.Policies {
		bw.WriteString("\n")
		bw.WriteString(p.policy(pol))
	}
	for _, pr := range m.Properties {
		bw.WriteString("\n")
		fmt.Fprintf(bw, "property %s {\n", pr.Name)
		if pr.Start != nil {
			fmt.Fprintf(bw, "    start  %s\n", p.cond(pr.Start, 0))
		}
		fmt.Fprintf(bw, "    unsafe %s\n", p.cond(pr.Unsafe, 0))
		if pr.Goal != nil {
			fmt.Fprintf(bw, "    goal   %s\n", p.cond(pr.Goal, 0))
		}
		bw.WriteString("}\n")
	}
	return bw.Flush()
}

// String renders an expression in .spec syntax with the model's names.
func (m *Model) ExprString(e *Expr) string { return (&printer{m: m}).expr(e, 0) }

// CondString renders a condition in .spec syntax with the model's names.
func (m *Model) CondString(c *Cond) string { return (&printer{m: m}).cond(c, 0) }

type printer struct{ m *Model }

// Precedence levels, weakest first, as in spec.md.
const (
	precTop = iota
	precImplies
	precOr
	precAnd
	precNot
	precCmp
	precAdd
	precMul
	precUnary
	precPrimary
)

func paren(s string, have, want int) string {
	if have < want {
		return "(" + s + ")"
	}
	return s
}

func (p *printer) cond(c *Cond, want int) string {
	switch c.Op {
	case CTrue:
		return "true"
	case CFalse:
		return "false"
	case CVar:
		return p.m.Vars[c.Var].Name
	case CCmp:
		return paren(p.expr(c.L, precAdd)+" "+c.Cmp.String()+" "+p.expr(c.R, precAdd), precCmp, want)
	case CNot:
		return paren("!"+p.cond(c.Args[0], precCmp+1), precNot, want)
	case CAnd, COr:
		op, prec := " && ", precAnd
		if c.Op == COr {
			op, prec = " || ", precOr
		}
		parts := make([]string, len(c.Args))
		for i, a := range c.Args {
			parts[i] = p.cond(a, prec+1)
		}
		return paren(strings.Join(parts, op), prec, want)
	case CImplies:
		return paren(p.cond(c.Args[0], precOr)+" => "+p.cond(c.Args[1], precImplies), precImplies, want)
	}
	return "?"
}

func (p *printer) expr(e *Expr, want int) string {
	switch e.Op {
	case OpConst:
		switch {
		case e.K == math.MinInt64:
			return paren(intLit(e.K), precAdd, want)
		case e.K < 0:
			return paren(intLit(e.K), precUnary, want)
		}
		return fmt.Sprint(e.K)
	case OpVar:
		return p.m.Vars[e.Var].Name
	case OpAdd:
		parts := make([]string, len(e.Args))
		for i, a := range e.Args {
			w := precMul
			if i == 0 {
				w = precAdd
			}
			parts[i] = p.expr(a, w)
		}
		return paren(strings.Join(parts, " + "), precAdd, want)
	case OpSub:
		return paren(p.expr(e.Args[0], precAdd)+" - "+p.expr(e.Args[1], precMul), precAdd, want)
	case OpNeg:
		return paren("-"+p.expr(e.Args[0], precUnary), precUnary, want)
	case OpMul:
		k := intLit(e.K)
		if e.K < 0 {
			k = "(" + k + ")"
		}
		return paren(k+" * "+p.expr(e.Args[0], precUnary), precMul, want)
	case OpDiv:
		return paren(p.expr(e.Args[0], precMul)+" / "+fmt.Sprint(e.K), precMul, want)
	case OpProd:
		return paren(p.expr(e.Args[0], precMul)+" * "+p.expr(e.Args[1], precUnary), precMul, want)
	case OpMin, OpMax:
		return fmt.Sprintf("%s(%s, %s)", e.Op, p.expr(e.Args[0], 0), p.expr(e.Args[1], 0))
	case OpAbs:
		return fmt.Sprintf("abs(%s)", p.expr(e.Args[0], 0))
	case OpIte:
		s := fmt.Sprintf("if %s then %s else %s", p.cond(e.Cond, 0), p.expr(e.Args[0], 0), p.expr(e.Args[1], 0))
		return paren(s, precTop, want)
	case OpBool:
		return p.cond(e.Cond, want)
	}
	return "?"
}

// boolValue renders the value assigned to a Boolean variable.
func (p *printer) boolValue(e *Expr) string {
	switch e.Op {
	case OpConst:
		if e.K != 0 {
			return "true"
		}
		return "false"
	case OpBool:
		return p.cond(e.Cond, 0)
	}
	return p.expr(e, 0)
}

func (p *printer) outcome(o *Outcome) string {
	var b strings.Builder
	if o.Weight.IsSet() {
		fmt.Fprintf(&b, "%s: ", o.Weight)
	}
	if len(o.Assigns) == 0 {
		b.WriteString("skip")
	}
	for i, a := range o.Assigns {
		if i > 0 {
			b.WriteString(", ")
		}
		v := &p.m.Vars[a.Var]
		val := p.expr(a.Value, 0)
		if v.Bool {
			val = p.boolValue(a.Value)
		}
		fmt.Fprintf(&b, "%s' = %s", v.Name, val)
	}
	return b.String()
}

func (p *printer) command(c *Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "action %s", p.m.Labels[c.Label].Name)
	if c.Guard.Op != CTrue {
		fmt.Fprintf(&b, " when %s", p.cond(c.Guard, 0))
	}
	if c.Cost != nil {
		fmt.Fprintf(&b, " cost %s", p.expr(c.Cost, 0))
	}
	if len(c.Outcomes) == 1 {
		fmt.Fprintf(&b, " -> %s\n", p.outcome(&c.Outcomes[0]))
		return b.String()
	}
	for i := range c.Outcomes {
		sep := "    -> "
		if i > 0 {
			sep = "     | "
		}
		fmt.Fprintf(&b, "\n%s%s", sep, p.outcome(&c.Outcomes[i]))
	}
	b.WriteString("\n")
	return b.String()
}

func (p *printer) affine(a *Affine) string {
	var b strings.Builder
	for i, t := range a.Terms {
		num, den := t.Coef.Num, t.Coef.Den
		switch {
		case i == 0 && num < 0:
			b.WriteString("-")
		case i > 0 && num < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		if num < 0 {
			num = -num
		}
		if num != 1 {
			fmt.Fprintf(&b, "%d * ", num)
		}
		b.WriteString(p.m.Vars[t.Var].Name)
		if den != 1 {
			fmt.Fprintf(&b, " / %d", den)
		}
	}
	if c := a.Const; c.Num != 0 || len(a.Terms) == 0 {
		num := c.Num
		switch {
		case len(a.Terms) > 0 && num < 0:
			b.WriteString(" - ")
			num = -num
		case len(a.Terms) > 0:
			b.WriteString(" + ")
		}
		fmt.Fprint(&b, num)
		if c.Den > 1 {
			fmt.Fprintf(&b, " / %d", c.Den)
		}
	}
	return b.String()
}

func (p *printer) labels(ls []LabelID) string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = p.m.Labels[l].Name
	}
	return strings.Join(names, ", ")
}

func (p *printer) policy(d *PolicyDecl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "policy %s %s", d.Kind, d.Name)
	if d.File != "" {
		fmt.Fprintf(&b, " %q", d.File)
	}
	b.WriteString(" {\n")
	switch {
	case d.Interface != "":
		fmt.Fprintf(&b, "    interface %q\n", d.Interface)
	case d.Kind == KindNN || d.Kind == KindTrees:
		ins := make([]string, len(d.Inputs))
		for i := range d.Inputs {
			ins[i] = p.affine(&d.Inputs[i])
		}
		fmt.Fprintf(&b, "    inputs  %s\n", strings.Join(ins, ", "))
		fmt.Fprintf(&b, "    outputs %s\n", p.labels(d.Outputs))
	case d.Kind == KindTable && len(d.Outputs) > 0:
		fmt.Fprintf(&b, "    outputs %s\n", p.labels(d.Outputs))
	}
	if d.Output != "" {
		fmt.Fprintf(&b, "    output %q\n", d.Output)
	}
	// The reading of the arg-max: `argmax all` when it is, and `argmax
	// applicable` where an interface file's "filter" would otherwise
	// decide, so that the text reads back as the same policy and a model
	// hash (ic3/cert) binds the reading.
	switch {
	case d.ReadsAll():
		b.WriteString("    argmax all\n")
	case d.Interface != "" && (d.Kind == KindNN || d.Kind == KindTrees):
		b.WriteString("    argmax applicable\n")
	}
	for i, r := range d.Rules {
		if r.Cond.Op == CTrue && i == len(d.Rules)-1 {
			fmt.Fprintf(&b, "    otherwise -> %s\n", p.m.Labels[r.Label].Name)
			continue
		}
		fmt.Fprintf(&b, "    when %s -> %s\n", p.cond(r.Cond, 0), p.m.Labels[r.Label].Name)
	}
	b.WriteString("}\n")
	return b.String()
}

// intLit writes k as .spec reads it back: -2^63 has no literal (2^63 is
// beyond int64), so it is written -9223372036854775807 - 1.
func intLit(k int) string {
	if k == math.MinInt64 {
		return "-9223372036854775807 - 1"
	}
	return fmt.Sprint(k)
}
