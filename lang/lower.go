package lang

// The lower stage: builds the symbolic.Model from a checked file set. It
// runs only when the earlier stages found no errors, so it may assume every
// name resolves and every expression is well typed; the few errors it can
// still find come from files it reads (table CSVs, interface files).

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/internal/jsonerr"
	"vigil/symbolic"
)

func (c *checker) lower() *symbolic.Model {
	m := &symbolic.Model{}
	if c.model != nil {
		m.Name = c.model.Name.Name
	} else if c.jani != nil {
		m.Name = c.jani.Name
	} else if len(c.files) > 0 {
		base := filepath.Base(c.files[len(c.files)-1].Path)
		m.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	nconst := 0
	for _, s := range c.order {
		if s.kind == symConst {
			nconst++
		}
	}
	if nconst > 0 {
		m.Consts = make([]symbolic.Const, 0, nconst)
	}
	for _, s := range c.order {
		if s.kind == symConst {
			m.Consts = append(m.Consts, symbolic.Const{Name: s.name, Value: s.value, Pos: s.pos})
		}
	}
	m.ArrayConsts = c.arrayConsts
	for _, s := range c.vars {
		if s.imported {
			m.Vars = append(m.Vars, c.jani.Vars[s.id])
			continue
		}
		d := s.vdecl
		v := symbolic.Var{Name: s.name, Lo: s.lo, Hi: s.hi, Bool: d.Bool, Pos: s.pos}
		if c.en != nil && c.en.vars[d] != nil {
			v.Values = c.en.vars[d].names() // as enumLower does, early enough for the table CSVs
		}
		if d.Init != nil {
			v.HasInit = true
			if d.Bool {
				if d.Init.Text == "true" {
					v.Init = 1
				}
			} else {
				v.Init = memo(d.Init).val
			}
		}
		m.Vars = append(m.Vars, v)
	}
	for _, s := range c.labels {
		m.Labels = append(m.Labels, symbolic.Label{Name: s.name, Pos: s.pos})
	}
	if c.jani != nil {
		m.Preds = append(m.Preds, c.jani.Preds...)
		m.Commands = append(m.Commands, c.jani.Commands...)
		m.Type = c.jani.Type // the commands are the model's alone (E0110): a dtmc stays one
		// a PlaJA --start chooses among the states the JANI model's
		// restrict-initial allows (it replaced it: 12 start states where
		// the model allows 10; s26j_import_restrict_initial)
		m.RestrictInitial = c.jani.RestrictInitial
	}
	lw := &lowerer{c: c, preds: map[*PredDecl]*symbolic.Cond{}}
	for i, dr := range c.decls {
		if i%1024 == 0 && c.interrupted() {
			return nil
		}
		switch d := dr.d.(type) {
		case *PredDecl:
			m.Preds = append(m.Preds, symbolic.Pred{Name: d.Name.Name, Cond: lw.pred(d), Pos: d.Name.Pos})
		case *ActionDecl:
			cmd := lw.command(d)
			if cmd.Cost != nil {
				if lo, _ := m.Bounds(cmd.Cost); lo < 1 {
					why := ""
					if symbolic.NewTreeSizer().Cond(cmd.Guard) <= symbolic.MaxTreeNodes && neverHolds(m, cmd.Guard, true) {
						// the command is never applicable by the
						// ranges, but a cost is bounded over them,
						// whatever the guard (spec.md, "Costs")
						why = fmt.Sprintf("; the guard of action %s holds in no state of the variables' ranges, but a cost is checked over the ranges whatever the guard (spec.md, \"Costs\"): write max(1, %s), which is the same cost wherever the command applies, or drop the command", d.Label.Name, c.quote(d.Cost))
					}
					c.errorf(d.Cost.Pos, d.Cost.End, "E0405", "the cost %s of action %s may be %d; a cost is a positive integer (it may read variables, and must be at least 1 over their ranges)%s", exprString(d.Cost), d.Label.Name, lo, why)
				}
			}
			m.Commands = append(m.Commands, cmd)
		case *PolicyDecl:
			if p := lw.policy(d, dr.file, m); p != nil {
				m.Policies = append(m.Policies, p)
			}
		case *PropertyDecl:
			p := &symbolic.Property{Name: d.Name.Name, Pos: d.Name.Pos}
			for _, cl := range d.Clauses {
				cond := lw.cond(cl.Cond)
				switch cl.Kind {
				case "start":
					p.Start = cond
				case "unsafe":
					p.Unsafe = cond
				case "goal":
					p.Goal = cond
				}
			}
			m.Properties = append(m.Properties, p)
		}
	}
	if c.errs > 0 || !c.checkTreeSizes(m) {
		return nil
	}
	return m
}

type lowerer struct {
	c     *checker
	preds map[*PredDecl]*symbolic.Cond
	// ctxConds memoizes the lowered conditions of array accesses'
	// contexts, which many accesses share (a quantifier's expansion):
	// each access's condition is a small And over shared nodes
	ctxConds map[*Expr]*symbolic.Cond
	// genLeaves are the lowered variables that generated comparisons
	// compare (operand)
	genLeaves map[*Expr]*symbolic.Expr
}

// operand lowers the operand a of the comparison e. A generated
// comparison (a case split's idx == k, an index's range test) of a
// variable names the one node of the read's index that all the split's
// comparisons name, and they share its lowered leaf: a leaf is one node
// wherever it is (symbolic.TreeSizer), and a read of N elements at i
// held N copies of i, 96 bytes each.
func (l *lowerer) operand(e, a *Expr) *symbolic.Expr {
	if !e.Gen || a.Kind != EName {
		return l.expr(a)
	}
	if x, ok := l.genLeaves[a]; ok {
		return x
	}
	x := l.expr(a)
	if x.Op == symbolic.OpVar {
		if l.genLeaves == nil {
			l.genLeaves = map[*Expr]*symbolic.Expr{}
		}
		l.genLeaves[a] = x
	}
	return x
}

func (l *lowerer) pred(d *PredDecl) *symbolic.Cond {
	if p, ok := l.preds[d]; ok {
		return p
	}
	p := l.cond(d.Cond)
	l.preds[d] = p
	return p
}

func (l *lowerer) command(d *ActionDecl) symbolic.Command {
	cmd := symbolic.Command{Label: l.c.syms[d.Label.Name].label, Pos: d.Label.Pos}
	if d.Guard != nil {
		cmd.Guard = l.cond(d.Guard)
	} else {
		cmd.Guard = symbolic.True()
	}
	if d.Cost != nil {
		cmd.Cost = l.expr(d.Cost)
		if memo(d.Cost).dead || l.c.never[d] && hasDead(d.Cost) {
			// never incurred (the command is never applicable): 1,
			// as a cost is. Also where only a part of it is dead
			// (if i > 0 then K[3] else 2): the 0 that stands for
			// K[3] made E0405 of a cost that is never incurred
			cmd.Cost = &symbolic.Expr{Op: symbolic.OpConst, K: 1, Pos: d.Cost.Pos}
		}
	}
	for _, o := range d.Outcomes {
		out := symbolic.Outcome{Pos: o.Start}
		for _, r := range l.c.accesses[o] {
			if when := l.accessCond(r); when != nil {
				out.Accesses = append(out.Accesses, symbolic.ArrayAccess{Text: r.text, Index: l.expr(r.idx), Lo: r.a.lo, Hi: r.a.hi, Write: r.write, Pos: r.pos, When: when, With: r.with, WithPos: r.withPos})
			}
		}
		if o.Weight != "" {
			w, _ := parseRat(o.Weight)
			out.Weight = w.sym()
		}
		for k, as := range o.Assigns {
			if k%4 == 3 && l.c.interrupted() {
				// an array written at a variable index has an assignment
				// per element, each of which may read every element
				// (a[i]' = a[j]): a command may take long to lower
				break
			}
			s := l.c.syms[as.Var.Name]
			var val *symbolic.Expr
			switch {
			case memo(as.Value).dead || l.c.never[d] && hasDead(as.Value):
				// never made (the command is never applicable): the
				// variable keeps its value, in range (also where only a
				// part of the value is dead: the 0 that stands for it
				// is no value of the model)
				val = &symbolic.Expr{Op: symbolic.OpVar, Var: s.id, Pos: as.Value.Pos}
			case s.isBool:
				val = l.boolExpr(as.Value)
			default:
				val = l.expr(as.Value)
			}
			out.Assigns = append(out.Assigns, symbolic.Assign{Var: s.id, Value: val, Pos: as.Var.Pos})
		}
		sort.Slice(out.Assigns, func(i, j int) bool { return out.Assigns[i].Var < out.Assigns[j].Var })
		cmd.Outcomes = append(cmd.Outcomes, out)
	}
	normaliseWeights(cmd.Outcomes)
	return cmd
}

// normaliseWeights sets Prob per spec.md: with no weights, equal shares;
// with all weights, proportional; with some, the given weights are
// probabilities and the rest of the mass is shared equally by the others.
func normaliseWeights(os []symbolic.Outcome) {
	var sum float64
	missing := 0
	for _, o := range os {
		if o.Weight.IsSet() {
			sum += o.Weight.Float()
		} else {
			missing++
		}
	}
	for i := range os {
		switch {
		case missing == len(os):
			os[i].Prob = 1 / float64(len(os))
		case missing == 0:
			os[i].Prob = os[i].Weight.Float() / sum
		case os[i].Weight.IsSet():
			os[i].Prob = os[i].Weight.Float()
		default:
			os[i].Prob = max(0, 1-sum) / float64(missing)
		}
	}
}

// accessCond is where the array access r is evaluated and reads or
// writes out of range (Outcome.Accesses): its contexts and its index out
// of range; nil if a part of it was never checked (every part is: they
// are parts of the command).
func (l *lowerer) accessCond(r risky) *symbolic.Cond {
	if l.ctxConds == nil {
		l.ctxConds = map[*Expr]*symbolic.Cond{}
	}
	lower := func(e *Expr) *symbolic.Cond {
		if c, ok := l.ctxConds[e]; ok {
			return c
		}
		var c *symbolic.Cond
		if e.Memo.Checked && typ(e.Memo.T) == tBool {
			c = l.cond(e)
		}
		l.ctxConds[e] = c
		return c
	}
	args := make([]*symbolic.Cond, 0, len(r.ctx)+1)
	for _, x := range r.ctx {
		c := lower(x.e)
		if c == nil {
			return nil
		}
		if !x.holds {
			c = &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{c}, Pos: c.Pos}
		}
		args = append(args, c)
	}
	out := lower(r.out)
	if out == nil {
		return nil
	}
	return &symbolic.Cond{Op: symbolic.CAnd, Args: append(args, out)}
}

// expr lowers an integer expression, folding constant subexpressions.
func (l *lowerer) expr(e *Expr) *symbolic.Expr {
	in := memo(e)
	if in.dead {
		// never evaluated: 0 stands for it, and no value of the array
		// it reads out of range
		return &symbolic.Expr{Op: symbolic.OpConst, K: 0, Pos: e.Pos}
	}
	if in.konst {
		return &symbolic.Expr{Op: symbolic.OpConst, K: in.val, Pos: e.Pos}
	}
	mk := func(op symbolic.Op, k int, args ...*symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: op, K: k, Args: args, Pos: e.Pos}
	}
	switch e.Kind {
	case EName:
		s := l.c.syms[e.Text]
		return &symbolic.Expr{Op: symbolic.OpVar, Var: s.id, Pos: e.Pos}
	case EParen:
		return l.expr(e.Args[0])
	case ENeg:
		return mk(symbolic.OpNeg, 0, l.expr(e.Args[0]))
	case ECall:
		switch e.Op {
		case "abs":
			return mk(symbolic.OpAbs, 0, l.expr(e.Args[0]))
		case "min":
			return mk(symbolic.OpMin, 0, l.expr(e.Args[0]), l.expr(e.Args[1]))
		default:
			return mk(symbolic.OpMax, 0, l.expr(e.Args[0]), l.expr(e.Args[1]))
		}
	case EIf:
		x := mk(symbolic.OpIte, 0, l.expr(e.Args[1]), l.expr(e.Args[2]))
		x.Cond = l.cond(e.Args[0])
		return x
	case EBin:
		a, b := e.Args[0], e.Args[1]
		switch e.Op {
		case "+":
			x, y := l.expr(a), l.expr(b)
			var args []*symbolic.Expr
			if x.Op == symbolic.OpAdd {
				args = append(args, x.Args...)
			} else {
				args = append(args, x)
			}
			return mk(symbolic.OpAdd, 0, append(args, y)...)
		case "-":
			return mk(symbolic.OpSub, 0, l.expr(a), l.expr(b))
		case "*":
			if memo(a).konst {
				return mk(symbolic.OpMul, memo(a).val, l.expr(b))
			}
			return mk(symbolic.OpMul, memo(b).val, l.expr(a))
		case "/":
			return mk(symbolic.OpDiv, memo(b).val, l.expr(a))
		}
	}
	panic(fmt.Sprintf("lang: lowering an unchecked expression %s at %s", exprString(e), e.Pos))
}

// boolExpr lowers a condition used as a 0/1 value.
func (l *lowerer) boolExpr(e *Expr) *symbolic.Expr {
	c := l.cond(e)
	switch c.Op {
	case symbolic.CTrue:
		return &symbolic.Expr{Op: symbolic.OpConst, K: 1, Pos: e.Pos}
	case symbolic.CFalse:
		return &symbolic.Expr{Op: symbolic.OpConst, K: 0, Pos: e.Pos}
	case symbolic.CVar:
		return &symbolic.Expr{Op: symbolic.OpVar, Var: c.Var, Pos: e.Pos}
	}
	return &symbolic.Expr{Op: symbolic.OpBool, Cond: c, Pos: e.Pos}
}

// chain returns the operands of a chain of op (&& or ||) in order,
// through parentheses: a, b, c of (a || b) || (c).
func chain(e *Expr, op string) []*Expr {
	var out []*Expr
	stack := []*Expr{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for x.Kind == EParen {
			x = x.Args[0]
		}
		if x.Kind == EBin && x.Op == op {
			stack = append(stack, x.Args[1], x.Args[0])
			continue
		}
		out = append(out, x)
	}
	return out
}

var cmpOps = map[string]symbolic.CmpOp{"==": symbolic.Eq, "!=": symbolic.Ne, "<": symbolic.Lt, "<=": symbolic.Le, ">": symbolic.Gt, ">=": symbolic.Ge}

// cond lowers a condition, folding comparisons of constants.
func (l *lowerer) cond(e *Expr) *symbolic.Cond {
	at := func(c *symbolic.Cond) *symbolic.Cond {
		if !c.Pos.IsValid() {
			c.Pos = e.Pos
		}
		return c
	}
	if memo(e).dead {
		// never evaluated: false stands for it, and no value of the
		// array it reads out of range
		return at(symbolic.False())
	}
	switch e.Kind {
	case EBool:
		if e.Text == "true" {
			return at(symbolic.True())
		}
		return at(symbolic.False())
	case EName:
		s := l.c.syms[e.Text]
		if s.kind == symPred {
			if s.pcond != nil {
				return s.pcond
			}
			return l.pred(s.pdecl)
		}
		return &symbolic.Cond{Op: symbolic.CVar, Var: s.id, Pos: e.Pos}
	case EParen:
		return l.cond(e.Args[0])
	case ENot:
		inner := l.cond(e.Args[0])
		switch inner.Op {
		case symbolic.CTrue, symbolic.CFalse:
			return at(symbolic.Not(inner))
		}
		return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{inner}, Pos: e.Pos}
	case EBin:
		a, b := e.Args[0], e.Args[1]
		switch e.Op {
		case "&&", "||":
			// a chain (a || b) || c is one And or Or of its operands:
			// nested calls would copy the flattened operands at every
			// level, quadratic in the case split of a Boolean array
			// element read at a variable index (one disjunct per element)
			var args []*symbolic.Cond
			for _, x := range chain(e, e.Op) {
				args = append(args, l.cond(x))
			}
			if e.Op == "&&" {
				return at(symbolic.And(args...))
			}
			return at(symbolic.Or(args...))
		case "=>":
			return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{l.cond(a), l.cond(b)}, Pos: e.Pos}
		}
		op := cmpOps[e.Op]
		if memo(a).t == tBool {
			return &symbolic.Cond{Op: symbolic.CCmp, Cmp: op, L: l.boolExpr(a), R: l.boolExpr(b), Pos: e.Pos}
		}
		ia, ib := memo(a), memo(b)
		if ia.konst && ib.konst {
			if op.Holds(ia.val, ib.val) {
				return &symbolic.Cond{Op: symbolic.CTrue, Pos: e.Pos}
			}
			return &symbolic.Cond{Op: symbolic.CFalse, Pos: e.Pos}
		}
		return &symbolic.Cond{Op: symbolic.CCmp, Cmp: op, L: l.operand(e, a), R: l.expr(b), Pos: e.Pos}
	}
	panic(fmt.Sprintf("lang: lowering an unchecked condition %s at %s", exprString(e), e.Pos))
}

func resolvePath(from *File, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(from.Path), p)
}

func (l *lowerer) policy(d *PolicyDecl, f *File, m *symbolic.Model) *symbolic.PolicyDecl {
	c := l.c
	p := &symbolic.PolicyDecl{Name: d.Name.Name, Kind: symbolic.PolicyKind(d.Kind.Name), Pos: d.Name.Pos}
	if d.HasFile {
		p.File = resolvePath(f, d.File)
	}
	explicit := false // an argmax line overrides the interface's "filter"
	for _, it := range d.Items {
		if it.Kind == ItemArgMax {
			p.ArgMaxAll, explicit = it.Reading.Name == "all", true
		}
	}
	for _, it := range d.Items {
		switch it.Kind {
		case ItemInputs:
			for _, e := range it.Inputs {
				a, _ := c.affine(e)
				p.Inputs = append(p.Inputs, a)
			}
		case ItemOutputs:
			for _, o := range it.Outputs {
				p.Outputs = append(p.Outputs, c.syms[o.Name].label)
			}
		case ItemOutput:
			p.Output = it.Output
		case ItemInterface:
			p.Interface = resolvePath(f, it.Interface)
			all := p.ArgMaxAll
			if c.jani != nil {
				if !l.janiIface(p, it, m) {
					return nil
				}
			} else if !l.iface(p, it, m) {
				return nil
			}
			if explicit {
				p.ArgMaxAll = all
			}
		case ItemWhen:
			p.Rules = append(p.Rules, symbolic.Rule{Cond: l.cond(it.When), Label: c.syms[it.Label.Name].label, Pos: it.Start})
		case ItemOtherwise:
			p.Rules = append(p.Rules, symbolic.Rule{Cond: symbolic.True(), Label: c.syms[it.Label.Name].label, Pos: it.Start})
		}
	}
	if p.Kind == symbolic.KindTable && d.HasFile {
		t, err := loadTable(p.File, m, c.syms)
		if err != nil {
			c.errorf(d.FilePos, d.FilePos, "E0505", "table %s: %v", d.File, err)
			return nil
		}
		p.Table = t
	}
	return p
}

func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		if os.IsNotExist(err) {
			return "no such file (paths are relative to the .spec file that names them)"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

// notRegular says why a policy file that is a pipe or a device is
// refused: vigil reads a policy file more than once (to load it, and again
// to hash it into a certificate), which a pipe cannot give and where a
// FIFO with no second writer blocks for good.
func notRegular(fi os.FileInfo) string {
	return inputfile.Special(fi) + ", not a regular file: vigil reads a policy file more than once (to load it and to hash it into certificates); save it to a file and name that"
}

// iface reads a PlaJA .jani2nnet interface: {"input":[{"name":..}], "output":[..]}.
func (l *lowerer) iface(p *symbolic.PolicyDecl, it *PolicyItem, m *symbolic.Model) bool {
	c := l.c
	data, err := readRegular(p.Interface)
	if err != nil {
		c.errorf(it.IfacePos, it.IfacePos, "E0507", "interface file %s: %v", it.Interface, pathErr(err))
		return false
	}
	var j struct {
		Input []struct {
			Name  string          `json:"name"`
			Index json.RawMessage `json:"index"`
		} `json:"input"`
		Output []json.RawMessage `json:"output"`
		Filter *bool             `json:"filter"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: %s", it.Interface, jsonerr.Describe(data, err))
		return false
	}
	// PlaJA's applicability filtering: absent or false is the arg-max
	// over all outputs.
	p.ArgMaxAll = j.Filter == nil || !*j.Filter
	ok := true
	for i, in := range j.Input {
		if in.Index != nil {
			// PlaJA's array element {"name": a, "index": k}: read as the
			// whole name it was the variable a, whatever k said
			c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: input[%d] has an \"index\"; name the array element instead (\"name\": \"%s[%s]\")", it.Interface, i, in.Name, strings.TrimSpace(string(in.Index)))
			ok = false
			continue
		}
		s := c.syms[in.Name]
		if s == nil || s.kind != symVar {
			c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: input[%d] names %q, which is not a variable of the model", it.Interface, i, in.Name)
			ok = false
			continue
		}
		p.Inputs = append(p.Inputs, symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: s.id}}, Pos: it.IfacePos})
	}
	seen := map[string]int{}
	for i, raw := range j.Output {
		var name string
		if json.Unmarshal(raw, &name) != nil {
			var obj struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(raw, &obj)
			name = obj.Name
		}
		if k, dup := seen[name]; dup {
			c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: output[%d] names %q, which output[%d] names too; each network output is one action", it.Interface, i, name, k)
			ok = false
			continue
		}
		seen[name] = i
		s := c.syms[name]
		if s == nil || s.kind != symLabel {
			c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: output[%d] names %q, which is not an action label of the model", it.Interface, i, name)
			ok = false
			continue
		}
		p.Outputs = append(p.Outputs, s.label)
	}
	if p.File == "" && ok {
		c.errorf(it.IfacePos, it.IfacePos, "E0503", "policy %s needs its network file too: policy nn %s \"FILE.nnet\" { interface ... }", p.Name, p.Name)
		return false
	}
	return ok
}

// loadTable reads a table policy's CSV: a header naming every variable once
// and a final `label` column, then one row per state (Booleans as
// true/false or 0/1, enum values by name or number).
func loadTable(path string, m *symbolic.Model, syms map[string]*symbol) (*symbolic.Table, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, errors.New(pathErr(err))
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.TrimLeadingSpace = true
	r.Comment = '#'
	header, err := r.Read()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("the file is empty; it needs a header line naming the variables and then label")
		}
		return nil, err
	}
	hl, _ := r.FieldPos(0) // the header's line, after any comment lines
	cols := make([]symbolic.VarID, 0, len(header))
	seen := map[string]bool{}
	if len(header) == 0 || strings.TrimSpace(header[len(header)-1]) != "label" {
		return nil, fmt.Errorf("line %d: the last column must be named label", hl)
	}
	for _, h := range header[:len(header)-1] {
		h = strings.TrimSpace(h)
		s := syms[h]
		if s == nil || s.kind != symVar {
			for _, run := range m.VarRuns() {
				if run.Array && run.Name == h {
					return nil, fmt.Errorf("line %d: column %q is an array: give a column to each element, %s .. %s", hl, h, m.Vars[run.First].Name, m.Vars[run.First+run.N-1].Name)
				}
			}
			return nil, fmt.Errorf("line %d: column %q is not a variable of the model", hl, h)
		}
		if seen[h] {
			return nil, fmt.Errorf("line %d: column %q appears twice", hl, h)
		}
		seen[h] = true
		cols = append(cols, s.id)
	}
	if len(cols) != len(m.Vars) {
		var miss []string
		for _, v := range m.Vars {
			if !seen[v.Name] {
				miss = append(miss, v.Name)
			}
		}
		return nil, fmt.Errorf("line %d: the header must name every variable; missing %s", hl, strings.Join(miss, ", "))
	}
	t := &symbolic.Table{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return t, nil
		}
		if pe, ok := errors.AsType[*csv.ParseError](err); ok && errors.Is(err, csv.ErrFieldCount) {
			return nil, fmt.Errorf("line %d: %d fields, want %d: one per column of the header, line %d (the variables, then label)", pe.StartLine, len(rec), len(header), hl)
		}
		if err != nil {
			return nil, err
		}
		line, _ := r.FieldPos(0)
		st := make(symbolic.State, len(m.Vars))
		for i, id := range cols {
			v := &m.Vars[id]
			f := strings.TrimSpace(rec[i])
			var val int
			switch {
			case v.Bool && (f == "true" || f == "false"):
				if f == "true" {
					val = 1
				}
			case v.Values != nil && slices.Contains(v.Values, f):
				val = v.Lo + slices.Index(v.Values, f) // an enum value by name
			default:
				val, err = strconv.Atoi(f)
				if err != nil && v.Values != nil {
					return nil, fmt.Errorf("line %d: %s = %q is neither a value of its enum (%s) nor an integer", line, v.Name, f, strings.Join(v.Values, ", "))
				}
				if err != nil {
					return nil, fmt.Errorf("line %d: %s = %q is not an integer", line, v.Name, f)
				}
			}
			if val < v.Lo || val > v.Hi {
				return nil, fmt.Errorf("line %d: %s = %d is outside its range %d .. %d", line, v.Name, val, v.Lo, v.Hi)
			}
			st[id] = val
		}
		lab := strings.TrimSpace(rec[len(rec)-1])
		s := syms[lab]
		if s == nil || s.kind != symLabel {
			return nil, fmt.Errorf("line %d: label %q is not an action label of the model", line, lab)
		}
		t.Rows = append(t.Rows, st)
		t.Labels = append(t.Labels, s.label)
	}
}
