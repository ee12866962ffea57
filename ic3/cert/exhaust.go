package cert

// Deciding a small model's checks without Z3: exact evaluation of the
// checker's own SMT-LIB text in every state.
//
// The checks' disjunction (smtlib.Script.Posts) reads only the current
// state's constants: each consecution check has its successor replaced by
// the outcomes' values. Its first conjunct is vigil.inrange, so every
// state that satisfies it lies within the variables' ranges (the
// evaluator checks that this conjunct is there and states exactly the
// ranges it enumerates: rangeFirst), and a model of a few thousand
// states can be decided by evaluating the formula in each of them: the
// checks are all unsat exactly when it is false in every one. The
// evaluator below reads the text with a lexer of its own, knows the few
// SMT-LIB operators of the Core and Ints theories that smtlib prints,
// checks sorts as Z3's parser would, and computes with int64, giving up
// (so that Z3 decides) on anything else: a symbol or a command it does
// not know, a constant other than the current state's, an arithmetic
// overflow, a division by zero. It shares no code with the engines (they
// never evaluate SMT-LIB text) nor with Z3; the text it reads is the
// checker's own, the one Z3 reads but with each successor written in
// place (Post).
//
// Cost: one evaluation of the formula per state, with each definition
// applied to the state itself (vigil.inv, vigil.fact.<i>, ...) evaluated
// once per state. Definitions applied to other arguments (the invariant
// at an outcome's values) are evaluated at each application, and only
// where the enclosing conjunction has not already failed.

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// The evaluator's limits, beyond which Z3 decides (it takes some 10 ms
// on a small certificate, 0.1 s on bench/polic3's beluga 1): at most
// maxExhaustStates states, at most maxExhaustWork states times bytes of
// text (a guess at the cost made before starting), and at most
// maxExhaustSteps nodes evaluated in all (some 10 ms; the guess can be
// wrong both ways). bench/polic3's blocks 4 (1,296 states, 39 KB, 0.6
// million nodes) and transport 1 (729 states, 16 KB) are decided in about
// 2 ms each; beluga 1's 730 KB of text go to Z3 at once.
const (
	maxExhaustStates = 1 << 14
	maxExhaustWork   = 1e8
	maxExhaustSteps  = 4e6
)

// errTooLong is the evaluator giving up on a formula that takes longer
// than maxExhaustSteps.
var errTooLong = fmt.Errorf("%w: more than %d nodes to evaluate", errGiveUp, int(maxExhaustSteps))

// errGiveUp is the evaluator's "not mine to decide": the caller asks Z3.
var errGiveUp = errors.New("not decided by evaluation")

type esort uint8

const (
	sInt esort = iota
	sBool
)

type eop uint8

const (
	eConst eop = iota // k
	eState            // the current state's variable k
	eLocal            // slot k of the frame (a parameter or a let)
	eCall             // definition k applied to args
	eLet              // args[:n-1] bound to slots k.., then args[n-1]
	eNot
	eAnd
	eOr
	eImplies
	eIte
	eEq // chainable
	eLe
	eLt
	eGe
	eGt
	eAdd
	eSub // unary minus with one argument
	eMul
	eDiv
	eMod
	eAbs
	// fused comparisons of a variable with a constant (the invariant's
	// and the guards' atoms): the variable (a slot, or the state's) in k,
	// the comparison in c, the constant in c2
	eCmpLocal
	eCmpState
	// a fused comparison of a sum of c_i * slot_i (lin) with the
	// constant c2, the comparison in c: a linear atom of the invariant
	eCmpLin
)

// linTerm is c * slot in a fused linear comparison.
type linTerm struct {
	c    int64
	slot int64
}

type enode struct {
	op   eop
	k    int64
	c    eop   // eCmpLocal, eCmpState, eCmpLin: the comparison
	c2   int64 // and its constant
	lin  []linTerm
	args []*enode
	// onState marks an application whose arguments are the current
	// state's constants, in order; passes one whose arguments are the
	// enclosing definition's own parameters, in order (its state index,
	// when it has one, is the last slot of the frame).
	onState, passes bool
}

// edef is one define-fun.
type edef struct {
	name   string
	params int
	slots  int // params and let-bound names
	body   *enode
	bool   bool // the declared sort is Bool
	// memo holds the value of the definition applied to the state being
	// evaluated (stamp), the only application worth remembering.
	// memo holds, for a Boolean definition of one argument per
	// variable, its value at each state by index (-1: not yet known).
	memo  []int8
	frame []int64 // the slots while the body is evaluated
}

// evaluator holds the compiled text.
type evaluator struct {
	defs    []*edef
	byName  map[string]int
	state   map[string]int // the current state's constants by name
	formula *enode
	frame   int     // slots of the formula's own lets
	s       []int64 // the state being evaluated
	idx     int     // its index: sum of (s[i]-lo[i])*stride[i]
	lo, hi  []int64
	stride  []int
	states  int
	args    []int64 // the arguments of the applications being made
	err     error   // why the evaluation stopped
	steps   int     // nodes evaluated
	bytes   int     // of the text compiled
	slab    []enode // where nodes are made
}

// scope maps the names of a definition's parameters and lets to slots.
type scope struct {
	names  map[string][]int // a name's slots, innermost last
	slots  int
	params int // of a definition; the formula has none
}

// compileScript reads text (definitions, declarations, one assertion)
// for the state constants cur, token by token (lexer), into nodes.
func compileScript(text string, cur []string) (*evaluator, error) {
	ev := &evaluator{byName: map[string]int{}, state: map[string]int{}, bytes: len(text)}
	for i, c := range cur {
		if len(c) >= 2 && c[0] == '|' && c[len(c)-1] == '|' {
			c = c[1 : len(c)-1]
		}
		ev.state[c] = i
	}
	lx := &lexer{src: text}
	declared := map[string]bool{}
	for {
		k, _ := lx.next()
		if k == tEOF {
			break
		}
		if k != tOpen {
			return nil, errGiveUp
		}
		switch lx.atom() {
		case "define-fun":
			if err := ev.define(lx); err != nil {
				return nil, err
			}
		case "declare-const":
			name := lx.atom()
			if name == "" || lx.atom() != "Int" || !lx.close() {
				return nil, errGiveUp
			}
			declared[name] = true
		case "assert":
			if ev.formula != nil {
				return nil, errGiveUp
			}
			sc := &scope{names: map[string][]int{}}
			f, s, err := ev.expr(lx, sc, 0)
			if err != nil {
				return nil, err
			}
			if s != sBool || !lx.close() {
				return nil, errGiveUp
			}
			ev.formula, ev.frame = f, sc.slots
		default:
			return nil, errGiveUp
		}
	}
	for c := range ev.state {
		if !declared[c] {
			return nil, errGiveUp
		}
	}
	if ev.formula == nil {
		return nil, errGiveUp
	}
	return ev, nil
}

// Tokens of the lexer.
const (
	tEOF = iota
	tOpen
	tClose
	tAtom
	tBad // a string literal or an unclosed |symbol|: not ours to read
)

// lexer splits SMT-LIB text into parentheses and atoms (simple symbols,
// numerals, |quoted| symbols without their bars), skipping white space and
// ; comments. Atoms are substrings of the text.
type lexer struct {
	src string
	pos int
}

func (lx *lexer) next() (int, string) {
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; c {
		case ' ', '\t', '\r', '\n':
			lx.pos++
			continue
		case ';':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			continue
		case '(':
			lx.pos++
			return tOpen, ""
		case ')':
			lx.pos++
			return tClose, ""
		case '|':
			end := strings.IndexByte(lx.src[lx.pos+1:], '|')
			if end < 0 {
				return tBad, ""
			}
			s := lx.src[lx.pos+1 : lx.pos+1+end]
			lx.pos += end + 2
			return tAtom, s
		case '"':
			return tBad, ""
		}
		start := lx.pos
		for lx.pos < len(lx.src) && !strings.ContainsRune(" \t\r\n();|\"", rune(lx.src[lx.pos])) {
			lx.pos++
		}
		return tAtom, lx.src[start:lx.pos]
	}
	return tEOF, ""
}

// atom reads an atom ("" when the next token is not one).
func (lx *lexer) atom() string {
	if k, s := lx.next(); k == tAtom && s != "" {
		return s
	}
	return ""
}

// open and close read a parenthesis, reporting whether it was there.
func (lx *lexer) open() bool  { k, _ := lx.next(); return k == tOpen }
func (lx *lexer) close() bool { k, _ := lx.next(); return k == tClose }

// define compiles the rest of (define-fun name ((p Int) ...) Bool|Int
// body).
func (ev *evaluator) define(lx *lexer) error {
	name := lx.atom()
	if name == "" || !lx.open() {
		return errGiveUp
	}
	if _, dup := ev.byName[name]; dup {
		return errGiveUp
	}
	sc := &scope{names: map[string][]int{}}
	for {
		k, _ := lx.next()
		if k == tClose {
			break
		}
		p := lx.atom()
		if k != tOpen || p == "" || lx.atom() != "Int" || !lx.close() || len(sc.names[p]) > 0 {
			return errGiveUp
		}
		sc.names[p] = []int{sc.slots}
		sc.slots++
	}
	sc.params = sc.slots
	d := &edef{name: name, params: sc.params}
	switch lx.atom() {
	case "Bool":
		d.bool = true
	case "Int":
	default:
		return errGiveUp
	}
	body, s, err := ev.expr(lx, sc, 0)
	if err != nil {
		return err
	}
	if s != map[bool]esort{true: sBool, false: sInt}[d.bool] || !lx.close() {
		return errGiveUp
	}
	d.body, d.slots = body, sc.slots
	ev.byName[name] = len(ev.defs)
	ev.defs = append(ev.defs, d)
	return nil
}

// ops maps an operator to its node, the sort of its operands (for the
// ones with a fixed one) and of its result.
var ops = map[string]struct {
	op       eop
	in, out  esort
	min, max int // operand count; max < 0: any
}{
	"not": {eNot, sBool, sBool, 1, 1},
	"and": {eAnd, sBool, sBool, 1, -1},
	"or":  {eOr, sBool, sBool, 1, -1},
	"=>":  {eImplies, sBool, sBool, 2, 2},
	"<=":  {eLe, sInt, sBool, 2, -1},
	"<":   {eLt, sInt, sBool, 2, -1},
	">=":  {eGe, sInt, sBool, 2, -1},
	">":   {eGt, sInt, sBool, 2, -1},
	"+":   {eAdd, sInt, sInt, 1, -1},
	"-":   {eSub, sInt, sInt, 1, -1},
	"*":   {eMul, sInt, sInt, 1, -1},
	"div": {eDiv, sInt, sInt, 2, 2},
	"mod": {eMod, sInt, sInt, 2, 2},
	"abs": {eAbs, sInt, sInt, 1, 1},
}

// node returns a fresh node from the evaluator's slab.
func (ev *evaluator) node(n enode) *enode {
	if len(ev.slab) == cap(ev.slab) {
		ev.slab = make([]enode, 0, 1024)
	}
	ev.slab = append(ev.slab, n)
	return &ev.slab[len(ev.slab)-1]
}

// expr reads one expression in scope sc.
func (ev *evaluator) expr(lx *lexer, sc *scope, depth int) (*enode, esort, error) {
	if depth > maxDepth {
		return nil, 0, errGiveUp
	}
	k, tok := lx.next()
	switch k {
	case tAtom:
		switch {
		case tok == "true":
			return ev.node(enode{op: eConst, k: 1}), sBool, nil
		case tok == "false":
			return ev.node(enode{op: eConst, k: 0}), sBool, nil
		case len(sc.names[tok]) > 0:
			slots := sc.names[tok]
			return ev.node(enode{op: eLocal, k: int64(slots[len(slots)-1])}), sInt, nil
		}
		if i, ok := ev.state[tok]; ok {
			return ev.node(enode{op: eState, k: int64(i)}), sInt, nil
		}
		if numeral(tok) {
			if v, err := strconv.ParseInt(tok, 10, 64); err == nil {
				return ev.node(enode{op: eConst, k: v}), sInt, nil
			}
		}
		return nil, 0, errGiveUp
	case tOpen:
	default:
		return nil, 0, errGiveUp
	}
	head := lx.atom()
	if head == "let" {
		return ev.let(lx, sc, depth)
	}
	var ns []*enode
	var ss []esort
	for {
		save := lx.pos
		if k, _ := lx.next(); k == tClose {
			break
		}
		lx.pos = save
		n, s, err := ev.expr(lx, sc, depth+1)
		if err != nil {
			return nil, 0, err
		}
		ns, ss = append(ns, n), append(ss, s)
	}
	switch head {
	case "ite":
		if len(ns) != 3 || ss[0] != sBool || ss[1] != ss[2] {
			return nil, 0, errGiveUp
		}
		return ev.node(enode{op: eIte, args: ns}), ss[1], nil
	case "=":
		if len(ns) < 2 {
			return nil, 0, errGiveUp
		}
		for _, s := range ss {
			if s != ss[0] {
				return nil, 0, errGiveUp
			}
		}
		return ev.fuse(enode{op: eEq, args: ns}), sBool, nil
	}
	if o, ok := ops[head]; ok {
		if len(ns) < o.min || o.max >= 0 && len(ns) > o.max {
			return nil, 0, errGiveUp
		}
		for _, s := range ss {
			if s != o.in {
				return nil, 0, errGiveUp
			}
		}
		if o.op == eSub && len(ns) == 1 && ns[0].op == eConst {
			// a negative numeral, (- 5): a constant (no overflow, a
			// numeral is at most MaxInt64)
			return ev.node(enode{op: eConst, k: -ns[0].k}), sInt, nil
		}
		return ev.fuse(enode{op: o.op, args: ns}), o.out, nil
	}
	if i, ok := ev.byName[head]; ok {
		d := ev.defs[i]
		if len(ns) != d.params {
			return nil, 0, errGiveUp
		}
		for _, s := range ss {
			if s != sInt {
				return nil, 0, errGiveUp
			}
		}
		out := sInt
		if d.bool {
			out = sBool
		}
		on, passes := len(ns) == len(ev.state), len(ns) == len(ev.state) && sc.params == len(ns)
		for j, a := range ns {
			on = on && a.op == eState && a.k == int64(j)
			passes = passes && a.op == eLocal && a.k == int64(j)
		}
		return ev.node(enode{op: eCall, k: int64(i), args: ns, onState: on, passes: passes}), out, nil
	}
	return nil, 0, errGiveUp
}

// fuse makes the node n, a comparison of a variable (a parameter or the
// state's) with a constant, either way round, as one node.
func (ev *evaluator) fuse(n enode) *enode {
	if n.op < eEq || n.op > eGt || len(n.args) != 2 {
		return ev.node(n)
	}
	x, k, op := n.args[0], n.args[1], n.op
	if x.op == eConst {
		// K op x is x op' K
		x, k = k, x
		op = map[eop]eop{eEq: eEq, eLe: eGe, eLt: eGt, eGe: eLe, eGt: eLt}[op]
	}
	if k.op != eConst {
		return ev.node(n)
	}
	switch x.op {
	case eLocal:
		return ev.node(enode{op: eCmpLocal, k: x.k, c: op, c2: k.k})
	case eState:
		return ev.node(enode{op: eCmpState, k: x.k, c: op, c2: k.k})
	}
	if lin, ok := linear(x); ok && len(lin) <= 1024 {
		// the comparison as read stays as args[0], for values too large
		// for the fused sum
		return ev.node(enode{op: eCmpLin, lin: lin, c: op, c2: k.k, args: []*enode{ev.node(n)}})
	}
	return ev.node(n)
}

// linear reads x as a sum of terms c * slot, (* c p) or p, when it is
// one.
func linear(x *enode) ([]linTerm, bool) {
	term := func(t *enode) (linTerm, bool) {
		switch {
		case t.op == eLocal:
			return linTerm{1, t.k}, true
		case t.op == eMul && len(t.args) == 2 && t.args[0].op == eConst && t.args[1].op == eLocal:
			return linTerm{t.args[0].k, t.args[1].k}, true
		}
		return linTerm{}, false
	}
	if x.op != eAdd {
		t, ok := term(x)
		return []linTerm{t}, ok && x.op == eMul
	}
	lin := make([]linTerm, len(x.args))
	for i, a := range x.args {
		t, ok := term(a)
		if !ok {
			return nil, false
		}
		lin[i] = t
	}
	return lin, true
}

// compare applies the comparison op.
func compare(op eop, a, b int64) bool {
	switch op {
	case eEq:
		return a == b
	case eLe:
		return a <= b
	case eLt:
		return a < b
	case eGe:
		return a >= b
	}
	return a > b
}

// let reads the rest of (let ((x e) ...) body): the right-hand sides in
// the enclosing scope, then body with the names bound to fresh slots.
func (ev *evaluator) let(lx *lexer, sc *scope, depth int) (*enode, esort, error) {
	if !lx.open() {
		return nil, 0, errGiveUp
	}
	var args []*enode
	var names []string
	for {
		k, _ := lx.next()
		if k == tClose {
			break
		}
		name := lx.atom()
		if k != tOpen || name == "" {
			return nil, 0, errGiveUp
		}
		rhs, s, err := ev.expr(lx, sc, depth+1)
		if err != nil || s != sInt || !lx.close() {
			return nil, 0, errGiveUp
		}
		args, names = append(args, rhs), append(names, name)
	}
	if len(names) == 0 {
		return nil, 0, errGiveUp
	}
	base := sc.slots // after the right-hand sides' own lets
	sc.slots += len(names)
	for i, name := range names {
		sc.names[name] = append(sc.names[name], base+i)
	}
	body, s, err := ev.expr(lx, sc, depth+1)
	for _, name := range names {
		sc.names[name] = sc.names[name][:len(sc.names[name])-1]
	}
	if err != nil {
		return nil, 0, err
	}
	if !lx.close() {
		return nil, 0, errGiveUp
	}
	return ev.node(enode{op: eLet, k: int64(base), args: append(args, body)}), s, nil
}

// errOverflow stops an evaluation whose int64 arithmetic overflowed.
var errOverflow = fmt.Errorf("%w: int64 overflow", errGiveUp)

// stop records why the evaluation cannot go on; the state's value is
// then meaningless, and exhaust gives up after it.
func (ev *evaluator) stop(err error) int64 {
	if ev.err == nil {
		ev.err = err
	}
	return 0
}

// eval computes n in frame f; Booleans are 0 and 1. After an error
// (ev.err) it goes on with some value, never out of bounds.
func (ev *evaluator) eval(n *enode, f []int64) int64 {
	ev.steps++
	switch n.op {
	case eConst:
		return n.k
	case eState:
		return ev.s[n.k]
	case eLocal:
		return f[n.k]
	case eCall:
		if n.onState { // most applications: the state's value, once known
			if m := ev.defs[n.k].memo; m != nil && m[ev.idx] >= 0 {
				return int64(m[ev.idx])
			}
		}
		return ev.call(n, f)
	case eLet:
		for i, a := range n.args[:len(n.args)-1] {
			f[int(n.k)+i] = ev.eval(a, f)
		}
		return ev.eval(n.args[len(n.args)-1], f)
	case eNot:
		return 1 - ev.eval(n.args[0], f)
	case eAnd:
		for _, a := range n.args {
			if ev.eval(a, f) == 0 {
				return 0
			}
		}
		return 1
	case eOr:
		for _, a := range n.args {
			if ev.eval(a, f) != 0 {
				return 1
			}
		}
		return 0
	case eImplies:
		if ev.eval(n.args[0], f) == 0 {
			return 1
		}
		return ev.eval(n.args[1], f)
	case eIte:
		if ev.eval(n.args[0], f) != 0 {
			return ev.eval(n.args[1], f)
		}
		return ev.eval(n.args[2], f)
	case eCmpLocal:
		if compare(n.c, f[n.k], n.c2) {
			return 1
		}
		return 0
	case eCmpState:
		if compare(n.c, ev.s[n.k], n.c2) {
			return 1
		}
		return 0
	case eCmpLin:
		var sum int64
		for _, t := range n.lin {
			v := f[t.slot]
			// |c|, |v| < 2^24: each product is below 2^48 in size, a
			// sum of at most 1024 of them below 2^58; else the
			// comparison as read, with its overflow checks
			if t.c >= 1<<24 || t.c <= -(1<<24) || v >= 1<<24 || v <= -(1<<24) {
				return ev.eval(n.args[0], f)
			}
			sum += t.c * v
		}
		if compare(n.c, sum, n.c2) {
			return 1
		}
		return 0
	case eEq, eLe, eLt, eGe, eGt:
		prev := ev.eval(n.args[0], f)
		for _, a := range n.args[1:] {
			v := ev.eval(a, f)
			if !compare(n.op, prev, v) {
				return 0
			}
			prev = v
		}
		return 1
	}
	return ev.arith(n, f)
}

// arith computes an integer operation exactly, or stops on overflow.
func (ev *evaluator) arith(n *enode, f []int64) int64 {
	acc := ev.eval(n.args[0], f)
	switch n.op {
	case eAbs:
		if acc == math.MinInt64 {
			return ev.stop(errOverflow)
		}
		return abs64(acc)
	case eSub:
		if len(n.args) == 1 {
			if acc == math.MinInt64 {
				return ev.stop(errOverflow)
			}
			return -acc
		}
	}
	for _, a := range n.args[1:] {
		v := ev.eval(a, f)
		switch n.op {
		case eAdd:
			r := acc + v
			if acc > 0 && v > 0 && r < 0 || acc < 0 && v < 0 && r >= 0 {
				return ev.stop(errOverflow)
			}
			acc = r
		case eSub:
			r := acc - v
			if acc >= 0 && v < 0 && r < 0 || acc < 0 && v > 0 && r >= 0 {
				return ev.stop(errOverflow)
			}
			acc = r
		case eMul:
			hi, lo := bits.Mul64(uint64(abs64(acc)), uint64(abs64(v)))
			if acc == math.MinInt64 || v == math.MinInt64 || hi != 0 || lo > math.MaxInt64 {
				return ev.stop(errOverflow)
			}
			r := int64(lo)
			if (acc < 0) != (v < 0) {
				r = -r
			}
			acc = r
		case eDiv, eMod:
			if v == 0 || acc == math.MinInt64 || v == math.MinInt64 {
				return ev.stop(errGiveUp) // SMT-LIB leaves x div 0 unspecified: Z3 decides
			}
			// SMT-LIB: acc = v*q + r with 0 <= r < |v|.
			q, r := acc/v, acc%v
			if r < 0 {
				if v > 0 {
					q--
					r += v
				} else {
					q++
					r -= v
				}
			}
			if n.op == eDiv {
				acc = q
			} else {
				acc = r
			}
		default:
			return ev.stop(errGiveUp)
		}
	}
	return acc
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// call applies a definition. A Boolean definition of one argument per
// variable keeps its value at every state it has been applied to (memo,
// by the state's index): the invariant at an outcome's values is
// evaluated once per state, not once per transition into it. Each
// definition has one frame: definitions only apply earlier ones, so a
// definition is never applied again while its body is evaluated, and its
// arguments are all computed (on ev.args, a stack) before they are
// copied in.
func (ev *evaluator) call(n *enode, f []int64) int64 {
	d := ev.defs[n.k]
	idx := -1
	switch {
	case n.onState:
		idx = ev.idx
	case n.passes:
		idx = int(f[len(f)-1])
	}
	if idx >= 0 && d.memo != nil && d.memo[idx] >= 0 {
		return int64(d.memo[idx])
	}
	base := len(ev.args)
	switch {
	case n.onState:
		ev.args = append(ev.args, ev.s...)
	case n.passes && idx >= 0:
		ev.args = append(ev.args, f[:len(n.args)]...)
	default:
		inRange := len(n.args) == len(ev.s)
		idx = 0
		for i, a := range n.args {
			v := ev.eval(a, f)
			ev.args = append(ev.args, v)
			if inRange = inRange && v >= ev.lo[i] && v <= ev.hi[i]; inRange {
				idx += int(v-ev.lo[i]) * ev.stride[i]
			}
		}
		if !inRange || ev.err != nil {
			idx = -1
		}
		if idx >= 0 && d.memo != nil && d.memo[idx] >= 0 {
			ev.args = ev.args[:base]
			return int64(d.memo[idx])
		}
	}
	if d.frame == nil {
		d.frame = make([]int64, d.slots+1)
	}
	copy(d.frame, ev.args[base:])
	ev.args = ev.args[:base]
	d.frame[d.slots] = int64(idx)
	v := ev.eval(d.body, d.frame)
	if idx >= 0 && d.bool && ev.err == nil {
		if d.memo == nil {
			d.memo = make([]int8, ev.states)
			for i := range d.memo {
				d.memo[i] = -1
			}
		}
		d.memo[idx] = int8(v)
	}
	return v
}

// rangeFirst reports whether the formula is (and (R s) ...) with R
// applied to the state's constants in order and R's body exactly the
// conjunction of (<= Lo p_i Hi), one per variable in order, with m's
// ranges: then no state outside the ranges that exhaust tries satisfies
// the formula, whatever the rest of it says.
func (ev *evaluator) rangeFirst(m *symbolic.Model) bool {
	f := ev.formula
	if f.op != eAnd || len(f.args) < 2 || f.args[0].op != eCall || !f.args[0].onState {
		return false
	}
	d := ev.defs[f.args[0].k]
	atoms := []*enode{d.body}
	if d.body.op == eAnd {
		atoms = d.body.args
	}
	if len(m.Vars) == 0 {
		return d.body.op == eConst && d.body.k == 1
	}
	if len(atoms) != len(m.Vars) {
		return false
	}
	for i, a := range atoms {
		if a.op != eLe || len(a.args) != 3 {
			return false
		}
		lo, p, hi := a.args[0], a.args[1], a.args[2]
		if lo.op != eConst || lo.k != int64(m.Vars[i].Lo) || p.op != eLocal || p.k != int64(i) || hi.op != eConst || hi.k != int64(m.Vars[i].Hi) {
			return false
		}
	}
	return true
}

// dropRange returns ns with the conjuncts that apply definition r to the
// state left out of every conjunction in them (outside the definitions'
// bodies), where r holds.
func dropRange(ns []*enode, r int64) []*enode {
	for _, n := range ns {
		switch n.op {
		case eAnd:
			keep := n.args[:0:0]
			for _, a := range n.args {
				if a.op != eCall || a.k != r || !a.onState {
					keep = append(keep, a)
				}
			}
			if len(keep) == 0 {
				*n = enode{op: eConst, k: 1}
				continue
			}
			n.args = dropRange(keep, r)
		case eOr, eNot:
			dropRange(n.args, r)
		}
	}
	return ns
}

// exhaustible returns the number of states of m when the evaluator may
// try them all on a text of the given size, else 0.
func exhaustible(m *symbolic.Model, bytes int) int {
	n := 1
	for _, v := range m.Vars {
		w := v.Hi - v.Lo + 1
		if w <= 0 || n > maxExhaustStates/w {
			return 0
		}
		n *= w
	}
	if float64(n)*float64(bytes) > maxExhaustWork {
		return 0
	}
	return n
}

// exhaust evaluates the formula in every state of m's ranges. It returns
// nil, nil when the formula is false in all of them (every check is
// unsat), a state where it holds, or errGiveUp (wrapped) when the
// evaluator cannot decide and Z3 must.
func (ev *evaluator) exhaust(m *symbolic.Model) (symbolic.State, error) {
	n := exhaustible(m, ev.bytes)
	if n == 0 || len(ev.state) != len(m.Vars) || !ev.rangeFirst(m) {
		return nil, errGiveUp
	}
	// In every state tried, the range conjunct holds: its other
	// applications to the state in the formula (the checks repeat it)
	// are left out of their conjunctions.
	r := ev.formula.args[0].k
	ev.formula.args = append(ev.formula.args[:1], dropRange(ev.formula.args[1:], r)...)
	k := len(m.Vars)
	ev.states = n
	ev.s, ev.lo, ev.hi, ev.stride = make([]int64, k), make([]int64, k), make([]int64, k), make([]int, k)
	stride := 1
	for i := k - 1; i >= 0; i-- {
		ev.lo[i], ev.hi[i], ev.stride[i] = int64(m.Vars[i].Lo), int64(m.Vars[i].Hi), stride
		stride *= m.Vars[i].Hi - m.Vars[i].Lo + 1
	}
	copy(ev.s, ev.lo)
	frame := make([]int64, ev.frame+1) // the last slot: no state index
	frame[ev.frame] = -1
	// the states in index order: the last variable fastest
	for ev.idx = 0; ev.idx < n; ev.idx++ {
		if ev.idx > 0 {
			for i := k - 1; i >= 0; i-- {
				if ev.s[i] < ev.hi[i] {
					ev.s[i]++
					break
				}
				ev.s[i] = ev.lo[i]
			}
		}
		v := ev.eval(ev.formula, frame)
		if ev.err == nil && ev.steps > maxExhaustSteps {
			ev.err = errTooLong
		}
		if ev.err != nil {
			return nil, ev.err
		}
		if v != 0 {
			s := make(symbolic.State, k)
			for i, x := range ev.s {
				s[i] = int(x)
			}
			return s, nil
		}
	}
	return nil, nil
}

// numeral reports whether s is an SMT-LIB numeral: 0, or digits without
// a leading 0.
func numeral(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
