package explicit

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"vigil/symbolic"
)

// Status classifies a state under a property.
type Status uint8

const (
	Open   Status = iota // neither unsafe nor goal: the state has successors (or is a deadlock)
	Goal                 // satisfies the goal condition (and not the unsafe one)
	Unsafe               // satisfies the unsafe condition (wins over goal)
)

func (s Status) String() string { return [...]string{"open", "goal", "unsafe"}[s] }

type assignFn struct {
	v      symbolic.VarID
	f      intFn
	lo, hi int
}

type compiledCmd struct {
	label    symbolic.LabelID
	guard    condFn
	outcomes [][]assignFn
	probs    []probFn // per outcome; nil when no outcome has a state-dependent probability
}

// probFn is a state-dependent probability, the product of its factors
// (nil: none).
type probFn []factorFn

// factorFn is one factor num/den of a probability
// (symbolic.Outcome.ProbFactors). num and den are compiled to 64-bit
// arithmetic where their values provably fit (exactFn); where they may
// not, they are nil and the factor is evaluated exactly (a saturated
// value could put a numerator above 2^63 under an equal saturated
// denominator).
type factorFn struct {
	num, den intFn
	f        symbolic.ProbFactor
}

// exactFn compiles e when every value it takes on the variables' ranges
// is a 64-bit integer (so that compileExpr computes it exactly), else it
// returns nil.
func exactFn(m *symbolic.Model, e *symbolic.Expr) intFn {
	if l, ok := symbolic.Linearize(e); ok && m.LinearFits(l) || m.Fits(e) {
		return compileExpr(m, e)
	}
	return nil
}

func compileProb(m *symbolic.Model, o *symbolic.Outcome) probFn {
	var p probFn
	for _, f := range o.ProbFactors {
		ff := factorFn{f: f, num: exactFn(m, f.Num), den: exactFn(m, f.Den)}
		if ff.num == nil || ff.den == nil {
			ff.num, ff.den = nil, nil
		}
		p = append(p, ff)
	}
	return p
}

// check returns the RangeError of a factor outside [0, 1] (or a
// division by zero) when outcome o of command c has one in s.
func (p probFn) check(m *symbolic.Model, c, o int, s symbolic.State) error {
	for i, f := range p {
		if f.num != nil {
			n, d := f.num(s), f.den(s)
			if d > 0 && 0 <= n && n <= d || d < 0 && d <= n && n <= 0 {
				continue
			}
		}
		n, d := f.f.At(s)
		if d.Sign() != 0 && n.Sign() >= 0 && n.Cmp(d) <= 0 {
			continue
		}
		return &RangeError{Model: m, Command: c, Outcome: o, Var: -1, Prob: true, Factor: i, Num: n, Den: d, State: append(symbolic.State(nil), s...)}
	}
	return nil
}

// Generator produces the successors of packed states of one model under one
// property. It keeps no state of its own after New (its compiled guards and
// expressions are pure), so goroutines may share one, each with its own
// Expansion, as the parallel search does (par.go).
type Generator struct {
	M      *symbolic.Model
	Prop   *symbolic.Property
	L      *Layout
	cmds   []compiledCmd
	index  *guardNode
	resid  []condFn // per command: the guard's conjuncts the index does not decide
	unsafe condFn
	goal   condFn // nil: no goal
}

// New checks m and prop and compiles them. prop may be nil (no property:
// no state is terminal).
func New(m *symbolic.Model, prop *symbolic.Property) (*Generator, error) {
	return NewContext(context.Background(), m, prop)
}

// NewContext is New that stops when ctx is done (Ctrl-C, a timeout),
// returning ctx's error: compiling a model of millions of expression
// nodes (array writes at a variable index) takes seconds.
func NewContext(ctx context.Context, m *symbolic.Model, prop *symbolic.Property) (*Generator, error) {
	if err := validate(m, &stopper{ctx: ctx}); err != nil {
		return nil, err
	}
	l, err := NewLayout(m)
	if err != nil {
		return nil, err
	}
	g := &Generator{M: m, Prop: prop, L: l}
	cp := newCompiler(ctx, m)
	for i := range m.Commands {
		c := &m.Commands[i]
		cc := compiledCmd{label: c.Label, guard: cp.cond(c.Guard)}
		for _, o := range c.Outcomes {
			var as []assignFn
			for _, a := range o.Assigns {
				v := &m.Vars[a.Var]
				as = append(as, assignFn{v: a.Var, f: cp.expr(a.Value), lo: v.Lo, hi: v.Hi})
				if cp.err != nil {
					return nil, cp.err
				}
			}
			cc.outcomes = append(cc.outcomes, as)
			if o.StateProb() {
				if cc.probs == nil {
					cc.probs = make([]probFn, len(c.Outcomes))
				}
				cc.probs[len(cc.outcomes)-1] = compileProb(m, &o)
			}
		}
		g.cmds = append(g.cmds, cc)
	}
	if cp.err != nil {
		return nil, cp.err
	}
	g.index, g.resid = buildGuardIndex(m)
	g.unsafe = func(symbolic.State) bool { return false }
	if prop != nil {
		if err := validateCond(m, prop.Unsafe, "unsafe condition of property "+prop.Name, nil); err != nil {
			return nil, err
		}
		g.unsafe = cp.cond(prop.Unsafe)
		if prop.Goal != nil {
			if err := validateCond(m, prop.Goal, "goal condition of property "+prop.Name, nil); err != nil {
				return nil, err
			}
			g.goal = cp.cond(prop.Goal)
		}
		if prop.Start != nil {
			if err := validateCond(m, prop.Start, "start condition of property "+prop.Name, nil); err != nil {
				return nil, err
			}
		}
	}
	if cp.err != nil {
		return nil, cp.err
	}
	return g, nil
}

// Words returns the number of uint64 words of a packed state.
func (g *Generator) Words() int { return g.L.W }

// Status classifies the unpacked state s.
func (g *Generator) Status(s symbolic.State) Status {
	if g.unsafe(s) {
		return Unsafe
	}
	if g.goal != nil && g.goal(s) {
		return Goal
	}
	return Open
}

// RangeError reports an outcome that would leave a range: a modelling
// error, never a transition. The range is a variable's (Var, Value), or,
// when Prob is set, [0, 1] for factor Factor of the outcome's
// state-dependent probability (symbolic.Outcome.ProbFactors), which is
// Num/Den in State (exactly; Den 0: a division by zero; Var is then -1).
// Both are the same kind of error for every engine: a state where one
// occurs is bad (Outcome.BadProb is the symbolic engines' condition for
// the second).
type RangeError struct {
	Model   *symbolic.Model
	Command int // index into Model.Commands
	Outcome int // 0-based
	Var     symbolic.VarID
	Value   int
	State   symbolic.State

	Prob     bool
	Factor   int      // 0-based index into the outcome's ProbFactors
	Num, Den *big.Int // Den >= 0
}

func (e *RangeError) Error() string {
	c := &e.Model.Commands[e.Command]
	if e.Prob {
		o := &c.Outcomes[e.Outcome]
		val := symbolic.ProbString(e.Num, e.Den)
		if e.Factor < len(o.ProbFactors) && o.ProbFactors[e.Factor].ZeroSum {
			return fmt.Sprintf("explicit: %s: probability error: action %s: the probabilities of all its destinations are 0 in state %s, where it is enabled: they sum to 0, not 1 (JANI requires a distribution); make some destination's probability positive there, or the guard false",
				c.Pos, e.Model.Labels[c.Label].Name, e.Model.FormatState(e.State))
		}
		if len(o.ProbFactors) > 1 && e.Factor < len(o.ProbFactors) {
			// a product over synchronised edges: name the factor
			var fs []string
			for _, f := range o.ProbFactors {
				// each factor as a reduced fraction (an integer without /1)
				n, d := f.At(e.State)
				if d.Sign() == 0 {
					fs = append(fs, n.String()+"/0")
				} else {
					fs = append(fs, new(big.Rat).SetFrac(n, d).RatString())
				}
			}
			fpos := o.ProbFactors[e.Factor].Pos
			if !fpos.IsValid() {
				fpos = o.Pos
			}
			return fmt.Sprintf("explicit: %s: probability error: action %s, outcome %d (%s) has probability %s (a product over synchronised edges), whose factor %d (%s) is %s, outside [0, 1], in state %s",
				c.Pos, e.Model.Labels[c.Label].Name, e.Outcome+1, o.Pos, strings.Join(fs, " * "), e.Factor+1, fpos, val, e.Model.FormatState(e.State))
		}
		return fmt.Sprintf("explicit: %s: probability error: action %s, outcome %d (%s) has probability %s, outside [0, 1], in state %s",
			c.Pos, e.Model.Labels[c.Label].Name, e.Outcome+1, o.Pos, val, e.Model.FormatState(e.State))
	}
	if msg := e.accessError(); msg != "" {
		return msg
	}
	v := &e.Model.Vars[e.Var]
	val := fmt.Sprint(e.Value)
	if e.Value == math.MinInt64 || e.Value == math.MaxInt64 {
		// Possibly saturated: print the exact value.
		for _, a := range c.Outcomes[e.Outcome].Assigns {
			if a.Var == e.Var {
				val = a.Value.ValueString(e.State)
			}
		}
	}
	return fmt.Sprintf("explicit: %s: range error: action %s, outcome %d sets %s to %s outside %d..%d in state %s; widen the range of %s or strengthen the guard",
		c.Pos, e.Model.Labels[c.Label].Name, e.Outcome+1, v.Name, val, v.Lo, v.Hi, e.Model.FormatState(e.State), v.Name)
}

// accessError names the array accesses of the outcome that are evaluated
// in the state with an index outside the array's range (lang's carrier of
// an index out of range set e.Var one above its range, which named a[0]
// and its value, not the index read); "" when there is none (two writes
// of one element).
func (e *RangeError) accessError() string {
	c := &e.Model.Commands[e.Command]
	acc := AccessesOutOfRange(e.Model, e.Command, e.Outcome, e.State)
	if acc == "" {
		return ""
	}
	fix := "keep the index in range (strengthen the guard)"
	if strings.Contains(acc, " at one index, ") {
		fix = "keep indices in range and the written ones apart (strengthen the guard)"
	}
	return fmt.Sprintf("explicit: %s: range error: action %s, outcome %d %s, in state %s; %s",
		c.Pos, e.Model.Labels[c.Label].Name, e.Outcome+1, acc, e.Model.FormatState(e.State), fix)
}

// NamesAccess reports whether the error is an array access out of range
// in its state (its message names the access and its index, not the
// variable that carries the error).
func (e *RangeError) NamesAccess() bool {
	return !e.Prob && AccessesOutOfRange(e.Model, e.Command, e.Outcome, e.State) != ""
}

// AccessesOutOfRange names the array accesses of outcome out of command
// cmd that are evaluated in state s with an index outside the array's
// range (symbolic.Outcome.Accesses), "writes a[i] (m.spec:6:24) at index
// 4, outside its range 0..3", joined by ", and "; "" when there is none.
// The explicit engine's range errors, ic3's and vigil check --bounds'
// name them so.
func AccessesOutOfRange(m *symbolic.Model, cmd, out int, s symbolic.State) string {
	var acc []string
	for _, a := range m.Commands[cmd].Outcomes[out].Accesses {
		if a.Index == nil || a.When == nil || !a.When.Holds(s) {
			continue
		}
		k := a.Index.EvalBig(s) // exact: the index may leave int64
		if a.With != "" {
			acc = append(acc, fmt.Sprintf("writes %s (%s) and %s (%s) at one index, %s", a.Text, a.Pos, a.With, a.WithPos, k))
			continue
		}
		verb := "reads"
		if a.Write {
			verb = "writes"
		}
		acc = append(acc, fmt.Sprintf("%s %s (%s) at index %s, outside its range %d..%d", verb, a.Text, a.Pos, k, a.Lo, a.Hi))
	}
	return strings.Join(acc, ", and ")
}

// Succ is one successor: the command (index into Model.Commands) and
// outcome (0-based) that first produced it within its label.
type Succ struct {
	Cmd, Outcome int32
}

// Group is the distinct successors of one label: Expansion.Succs[From:To].
type Group struct {
	Label    symbolic.LabelID
	From, To int
}

// Expansion holds what the generator computed for one state. Reuse one
// Expansion across calls to avoid allocation.
type Expansion struct {
	App    []bool             // per label: applicable
	Labels []symbolic.LabelID // applicable labels in LabelID order
	Groups []Group
	Succs  []Succ
	on     []int32 // enabled commands in model order
	words  []uint64
	w      int
}

// Target returns the packed successor i (a view; valid until the next call
// that fills x).
func (x *Expansion) Target(i int) []uint64 { return x.words[i*x.w : (i+1)*x.w : (i+1)*x.w] }

// Applicable finds the commands enabled in the unpacked state s (through
// the guard index, see guards.go) and fills x.App, x.Labels, and clears x's
// successors.
func (g *Generator) Applicable(s symbolic.State, x *Expansion) {
	if nl := len(g.M.Labels); len(x.App) != nl {
		x.App = make([]bool, nl)
	} else {
		for _, l := range x.Labels {
			x.App[l] = false
		}
	}
	x.w = g.L.W
	x.Labels = x.Labels[:0]
	x.Groups = x.Groups[:0]
	x.Succs = x.Succs[:0]
	x.words = x.words[:0]
	x.on = g.enabled(g.index, s, x.on[:0])
	if len(x.on) > 1 {
		slices.Sort(x.on)
	}
	for _, ci := range x.on {
		if l := g.cmds[ci].label; !x.App[l] {
			x.App[l] = true
			x.Labels = append(x.Labels, l)
		}
	}
	if len(x.Labels) > 1 {
		slices.Sort(x.Labels)
	}
}

// Successors appends to x the group of distinct successors of label l from
// the state src (packed) = s (unpacked). Applicable must have been called
// for s. A label that is not applicable yields an empty group.
func (g *Generator) Successors(src []uint64, s symbolic.State, l symbolic.LabelID, x *Expansion) error {
	from := len(x.Succs)
	w := g.L.W
	for _, ci := range x.on {
		c := &g.cmds[ci]
		if c.label != l {
			continue
		}
	outcomes:
		for oi, as := range c.outcomes {
			if c.probs != nil {
				if err := c.probs[oi].check(g.M, int(ci), oi, s); err != nil {
					return err
				}
			}
			n := len(x.words)
			x.words = append(x.words, src...)
			t := x.words[n : n+w]
			for _, a := range as {
				v := a.f(s)
				if v < a.lo || v > a.hi {
					x.words = x.words[:n]
					return &RangeError{Model: g.M, Command: int(ci), Outcome: oi, Var: a.v, Value: v, State: append(symbolic.State(nil), s...)}
				}
				g.L.set(t, a.v, v)
			}
			for j := from; j < len(x.Succs); j++ {
				if equalWords(x.words[j*w:(j+1)*w], t) {
					x.words = x.words[:n]
					continue outcomes
				}
			}
			x.Succs = append(x.Succs, Succ{Cmd: ci, Outcome: int32(oi)})
		}
	}
	x.Groups = append(x.Groups, Group{Label: l, From: from, To: len(x.Succs)})
	return nil
}

// Expand fills x with the applicable labels of s and, per label, the
// distinct successors. It does not look at the property: callers decide
// whether a state is terminal.
func (g *Generator) Expand(src []uint64, s symbolic.State, x *Expansion) error {
	g.Applicable(s, x)
	for _, l := range x.Labels {
		if err := g.Successors(src, s, l, x); err != nil {
			return err
		}
	}
	return nil
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Apply returns the state that outcome o of command c gives from s, or a
// RangeError. It does not check the guard.
func (g *Generator) Apply(s symbolic.State, c, o int) (symbolic.State, error) {
	if g.cmds[c].probs != nil {
		if err := g.cmds[c].probs[o].check(g.M, c, o, s); err != nil {
			return nil, err
		}
	}
	t := append(symbolic.State(nil), s...)
	for _, a := range g.cmds[c].outcomes[o] {
		v := a.f(s)
		if v < a.lo || v > a.hi {
			return nil, &RangeError{Model: g.M, Command: c, Outcome: o, Var: a.v, Value: v, State: append(symbolic.State(nil), s...)}
		}
		t[a.v] = v
	}
	return t, nil
}

// Guard reports whether command c's guard holds in s.
func (g *Generator) Guard(s symbolic.State, c int) bool { return g.cmds[c].guard(s) }

// ErrorAt replays the expansion of the unpacked state s in the explicit
// semantics and returns the range error it meets (a *RangeError, the
// first in label, command and outcome order), or nil when s is terminal or
// its expansion meets none. dec chooses the expanded label (nil: every
// applicable label), as in the search; its own error is returned as is.
// The symbolic engines call it on the last state of a run into their
// range-error region, so that they report the error the explicit engine
// reports there.
func (g *Generator) ErrorAt(s symbolic.State, dec Decider) error {
	if g.Status(s) != Open {
		return nil
	}
	var x Expansion
	g.Applicable(s, &x)
	labels := x.Labels
	if dec != nil {
		l, err := dec.Decide(s, x.App)
		if err != nil {
			return err
		}
		labels = nil
		if l != symbolic.NoLabel {
			labels = []symbolic.LabelID{l}
		}
	}
	src := make([]uint64, g.L.W)
	g.L.Pack(s, src)
	for _, l := range labels {
		if err := g.Successors(src, s, l, &x); err != nil {
			return err
		}
	}
	return nil
}
