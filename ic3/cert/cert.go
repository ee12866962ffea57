package cert

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/smt"
	"vigil/symbolic"
)

// Magic is the first header line of a certificate.
const Magic = "vigil invariant certificate 1"

// Header is what a certificate records about the question it answers.
type Header struct {
	// Model is the model file. With Dir set it is relative to the
	// certificate's directory (or absolute), as are the PlaJA files;
	// without (older certificates) it is as given to vigil verify.
	Model string
	// Dir is the absolute directory the certificate was written in
	// ("cert-dir:"): the fallback for the relative paths when the
	// certificate has been moved without its model.
	Dir      string
	Defines  []string // NAME=VALUE overrides
	Property string
	Policy   string // "" for none (every label)
	// PlaJA files given on the command line, if any.
	StartFile, UnsafeFile, PolicyFile string
	// ArgMax is the policy's arg-max reading given on the command line
	// (--argmax all or applicable; "" when not given), re-applied by the
	// checker as the defines are.
	ArgMax string
	Hash   string // ModelHash of the question
	// PolicyHash is PolicyHash of the policy: the SHA-256 of the files it
	// reads ("" when it reads none, or for certificates older than the
	// field).
	PolicyHash string
	Boxes      int
	// Facts (learned policies) are the policy exclusions consecution
	// relies on: label Label is never chosen in invariant box Box (0-based),
	// or in the part of it that the bounds Within cut out, given the labels
	// Sure are applicable throughout that region.
	Facts []PolicyFact
	// Differ are the pairs of variables (by name) of the invariant's
	// disequality part, one "differ: NAME NAME" line each: vigil.inv is
	// their disequalities conjoined with the union of boxes. A fact
	// marked Differ holds only in the states of its region where every
	// pair differs.
	Differ [][2]string
}

// PolicyFact is one "fact:" header line.
type PolicyFact struct {
	Box   int
	Label string
	Sure  []string
	// Within are bounds such as "x>=5" or "x<=9" and linear atoms such
	// as "1*v+-1*d<=0" (see FormatLit); none means the whole box.
	Within []string
	// Differ: the fact holds only in the states of its region that
	// satisfy the certificate's disequalities (Header.Differ); the
	// checker re-checks it by enumerating those states. Written as a
	// trailing "differ" token.
	Differ bool
}

func (f PolicyFact) String() string {
	s := fmt.Sprintf("box=%d label=%s sure=%s", f.Box, f.Label, strings.Join(f.Sure, ","))
	if len(f.Within) > 0 {
		s += " within=" + strings.Join(f.Within, ",")
	}
	if f.Differ {
		s += " differ"
	}
	return s
}

// FormatLit writes a literal of m as a fact's Within entry: a bound
// "x>=5", or a linear atom "2*x+-1*y<=3" (every term as COEF*NAME,
// joined by +). FormatFactLit also checks that the entry reads back.
func FormatLit(m *symbolic.Model, l smt.Lit) string {
	op := ">="
	if l.Upper {
		op = "<="
	}
	if l.Form == nil {
		return fmt.Sprintf("%s%s%d", m.Vars[l.Var].Name, op, l.K)
	}
	var parts []string
	for _, t := range l.Form.Terms() {
		name := fmt.Sprintf("v%d", t.Var)
		if int(t.Var) >= 0 && int(t.Var) < len(m.Vars) {
			name = m.Vars[t.Var].Name
		}
		parts = append(parts, fmt.Sprintf("%d*%s", t.Coef, name))
	}
	return fmt.Sprintf("%s%s%d", strings.Join(parts, "+"), op, l.K)
}

// FormatFactLit is FormatLit, with an error when the entry does not read
// back as l (a variable name holding one of the format's separators, a
// variable m lacks): the certificate could not state the fact's region.
func FormatFactLit(m *symbolic.Model, l smt.Lit) (string, error) {
	if l.Form == nil && (int(l.Var) < 0 || int(l.Var) >= len(m.Vars)) {
		return "", fmt.Errorf("a policy fact bounds variable %d, which model %s lacks", l.Var, m.Name)
	}
	s := FormatLit(m, l)
	back, err := parseLit(m, s)
	if err != nil || back != l || strings.ContainsAny(s, ", ") {
		return "", fmt.Errorf("the certificate cannot state the policy fact's literal %s as %+q (read back: %v)", l, s, err)
	}
	return s, nil
}

// parseLit reads a Within entry of a fact against m's variables: a bound
// NAME>=K or NAME<=K, or a linear atom C*NAME+C*NAME...>=K (or <=).
func parseLit(m *symbolic.Model, s string) (smt.Lit, error) {
	for _, op := range []string{">=", "<="} {
		lhs, k, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(k)
		if err != nil {
			return smt.Lit{}, fmt.Errorf("a policy fact's bound %+q: want NAME>=K or NAME<=K with K a whole number", s)
		}
		upper := op == "<="
		if v := m.VarIndex(lhs); v >= 0 {
			return smt.Lit{Var: v, Upper: upper, K: n}, nil
		}
		if !strings.Contains(lhs, "*") {
			return smt.Lit{}, fmt.Errorf("a policy fact bounds %+q, which model %s lacks", lhs, m.Name)
		}
		var ts []symbolic.Term
		seen := map[symbolic.VarID]bool{}
		for _, part := range strings.Split(lhs, "+") {
			cs, name, ok := strings.Cut(part, "*")
			c, err := strconv.Atoi(cs)
			if !ok || err != nil || c == 0 {
				return smt.Lit{}, fmt.Errorf("a policy fact's atom %+q: want terms COEF*NAME joined by +, with COEF a nonzero whole number, got %+q", s, part)
			}
			v := m.VarIndex(name)
			if v < 0 {
				return smt.Lit{}, fmt.Errorf("a policy fact's atom %+q names %+q, which model %s lacks", s, name, m.Name)
			}
			if seen[v] {
				return smt.Lit{}, fmt.Errorf("a policy fact's atom %+q names %s twice", s, name)
			}
			seen[v] = true
			ts = append(ts, symbolic.Term{Coef: c, Var: v})
		}
		f := symbolic.NewForm(ts)
		if f == nil || !f.Fits(m) {
			return smt.Lit{}, fmt.Errorf("a policy fact's atom %+q: its value over model %s's ranges does not fit an exact integer", s, m.Name)
		}
		return smt.FormLit(f, upper, n), nil
	}
	return smt.Lit{}, fmt.Errorf("a policy fact's bound %+q: want NAME>=K or NAME<=K", s)
}

// Lines returns the header as comment lines (without the "; " prefix).
func (h *Header) Lines() []string {
	ls := []string{Magic, "model: " + h.Model}
	if h.Dir != "" {
		ls = append(ls, "cert-dir: "+h.Dir)
	}
	for _, d := range h.Defines {
		ls = append(ls, "define: "+d)
	}
	pol := h.Policy
	if pol == "" {
		pol = "-"
	}
	ls = append(ls, "property: "+h.Property, "policy: "+pol)
	for _, kv := range [][2]string{{"start-file", h.StartFile}, {"unsafe-file", h.UnsafeFile}, {"policy-file", h.PolicyFile}} {
		if kv[1] != "" {
			ls = append(ls, kv[0]+": "+kv[1])
		}
	}
	if h.ArgMax != "" {
		ls = append(ls, "argmax: "+h.ArgMax)
	}
	ls = append(ls, "model-sha256: "+h.Hash)
	if h.PolicyHash != "" {
		ls = append(ls, "policy-sha256: "+h.PolicyHash)
	}
	for _, d := range h.Differ {
		ls = append(ls, "differ: "+d[0]+" "+d[1])
	}
	ls = append(ls, fmt.Sprintf("boxes: %d", h.Boxes))
	for _, f := range h.Facts {
		ls = append(ls, "fact: "+f.String())
	}
	return ls
}

// ModelHash identifies the question a certificate answers: the model as
// vigil prints it, the property, the policy and the content of the files
// the policy reads (a retrained network changes the hash).
//
// Policy files enter by their content and base name, not by the path the
// model was loaded with, so that the hash is the same from any directory
// (a certificate checks after a move).
func ModelHash(m *symbolic.Model, prop, policy string) (string, error) {
	h := sha256.New()
	mc := *m
	mc.Policies = make([]*symbolic.PolicyDecl, len(m.Policies))
	for i, d := range m.Policies {
		dc := *d
		if dc.File != "" {
			dc.File = filepath.Base(dc.File)
		}
		if dc.Interface != "" {
			dc.Interface = filepath.Base(dc.Interface)
		}
		mc.Policies[i] = &dc
	}
	symbolic.Print(h, &mc)
	fmt.Fprintf(h, "\x00property %s\x00policy %s", prop, policy)
	if d := m.Policy(policy); d != nil && policy != "" {
		for _, f := range []string{d.File, d.Interface} {
			if f == "" {
				continue
			}
			b, err := inputfile.ReadFile(f)
			if err != nil {
				return "", errorf("policy %s: %v", policy, err)
			}
			fmt.Fprintf(h, "\x00file %d\x00", len(b))
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Cert is a parsed certificate.
type Cert struct {
	Header
	Vars []string    // the parameters of vigil.inv, in order
	Inv  [][]smt.Lit // the invariant: a union of regions (bounds and linear atoms)
}

// IsCertificate reports whether the file starts like an invariant
// certificate (an SMT-LIB2 comment or expression, not JSON).
func IsCertificate(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		c, err := r.ReadByte()
		if err != nil {
			return false
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case ';', '(':
			return true
		}
		return false
	}
}

// Read parses the certificate file at path.
func Read(path string) (*Cert, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%v", err)
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a certificate; name is used in errors.
func Parse(r io.Reader, name string) (*Cert, error) {
	src, err := inputfile.ReadAll(r, "") // named below
	if err != nil {
		return nil, errorf("%s: %v", name, err)
	}
	c := &Cert{}
	if err := c.parseHeader(string(src), name); err != nil {
		return nil, err
	}
	p := &parser{src: string(src), name: name, line: 1}
	var differ *list // the file's vigil.differ definition
	for {
		e, err := p.next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, errorf("%s: no (define-fun vigil.inv ...) definition; is this a certificate written by vigil verify --cert?", name)
		}
		if l, ok := e.(list); ok && len(l.items) >= 2 && atomIs(l.items[0], "define-fun") && atomIs(l.items[1], "vigil.differ") {
			differ = &l
		}
		if l, ok := e.(list); ok && len(l.items) >= 2 && atomIs(l.items[0], "define-fun") && atomIs(l.items[1], "vigil.inv") {
			if err := c.parseInv(l, name); err != nil {
				return nil, err
			}
			if err := c.checkDifferDef(differ, name); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
}

// checkDifferDef checks that the file's vigil.differ definition (nil:
// none before vigil.inv) states exactly the header's differ pairs, in
// order: (not (= |x| |y|)) for one, (and (not (= |x| |y|)) ...) for
// more. The checker builds its own text from the header, z3 FILE reads
// the file's: they must say the same.
func (c *Cert) checkDifferDef(l *list, name string) error {
	if len(c.Differ) == 0 {
		if l != nil {
			return errorf("%s:%d: vigil.differ is defined, but the header has no differ lines: an edited file?", name, l.line)
		}
		return nil
	}
	if l == nil {
		return errorf("%s: the header has %d differ lines, but no (define-fun vigil.differ ...) precedes vigil.inv", name, len(c.Differ))
	}
	r := &invReader{name: name, idx: map[string]int{}}
	bad := func(format string, args ...any) error {
		return errorf("%s:%d: vigil.differ: %s", name, l.line, fmt.Sprintf(format, args...))
	}
	if len(l.items) != 5 || !atomIs(l.items[3], "Bool") {
		return bad("want (define-fun vigil.differ (PARAMS) Bool BODY)")
	}
	if err := r.params(l.items[2], l.line); err != nil {
		return err
	}
	if len(r.vars) != len(c.Vars) {
		return bad("its parameters are not vigil.inv's")
	}
	for i := range r.vars {
		if r.vars[i] != c.Vars[i] {
			return bad("its parameters are not vigil.inv's")
		}
	}
	body := []sexp{l.items[4]}
	if bl, ok := l.items[4].(list); ok && len(bl.items) > 0 && atomIs(bl.items[0], "and") {
		body = bl.items[1:]
	}
	if len(body) != len(c.Differ) {
		return bad("it states %d disequalities, the header's differ lines %d", len(body), len(c.Differ))
	}
	for i, e := range body {
		d := c.Differ[i]
		nl, ok := e.(list)
		ok = ok && len(nl.items) == 2 && atomIs(nl.items[0], "not")
		var eq list
		if ok {
			eq, ok = nl.items[1].(list)
		}
		if !ok || len(eq.items) != 3 || !atomIs(eq.items[0], "=") || !atomIs(eq.items[1], d[0]) || !atomIs(eq.items[2], d[1]) {
			return bad("disequality %d is not (not (= %s %s)), the header's differ line %d", i+1, d[0], d[1], i+1)
		}
	}
	return nil
}

func (c *Cert) parseHeader(src, name string) error {
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(nil, 1<<20)
	line, magic := 0, false
	seen := map[string]int{}
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(t, ";") {
			if t == "" {
				continue
			}
			break
		}
		t = strings.TrimSpace(strings.TrimPrefix(t, ";"))
		if t == Magic {
			magic = true
			continue
		}
		k, v, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		k = strings.TrimSpace(k)
		switch k {
		case "model", "cert-dir", "property", "policy", "start-file", "unsafe-file", "policy-file", "argmax", "model-sha256", "policy-sha256", "boxes":
			// a second copy would be read as the last: a file whose
			// two copies say different things is refused, not read
			// one way (as safety/cert's JSON fields)
			if first, ok := seen[k]; ok {
				return errorf("%s:%d: a second %+q line (the first is line %d); a certificate's header names it once", name, line, k, first)
			}
			seen[k] = line
		}
		switch k {
		case "model":
			c.Model = v
		case "cert-dir":
			c.Dir = v
		case "define":
			// -D N=1 -D N=2 keeps the last: a header naming a constant
			// twice would be read as its last line, whatever the first says
			dn, _, _ := strings.Cut(v, "=")
			dn = strings.TrimSpace(dn)
			if first, ok := seen["define "+dn]; ok {
				return errorf("%s:%d: a second define line for %+q (the first is line %d); a certificate's header defines each constant once", name, line, dn, first)
			}
			seen["define "+dn] = line
			c.Defines = append(c.Defines, v)
		case "property":
			c.Property = v
		case "policy":
			if v != "-" {
				c.Policy = v
			}
		case "start-file":
			c.StartFile = v
		case "unsafe-file":
			c.UnsafeFile = v
		case "policy-file":
			c.PolicyFile = v
		case "argmax":
			c.ArgMax = v
		case "model-sha256":
			c.Hash = v
		case "policy-sha256":
			c.PolicyHash = v
		case "differ":
			ns := strings.Fields(v)
			if len(ns) != 2 || ns[0] == ns[1] {
				return errorf("%s:%d: differ: want two different variable names, got %+q", name, line, v)
			}
			c.Differ = append(c.Differ, [2]string{ns[0], ns[1]})
		case "fact":
			f, err := parseFact(v)
			if err != nil {
				return errorf("%s:%d: fact: %v", name, line, err)
			}
			c.Facts = append(c.Facts, f)
		case "boxes":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return errorf("%s:%d: boxes: want a count, got %+q", name, line, v)
			}
			c.Boxes = n
		}
	}
	if err := sc.Err(); err != nil {
		// a header line beyond the scanner's 1 MiB stopped the header
		// there; say so rather than report a missing line after it
		return errorf("%s:%d: the header's next line is longer than 1 MiB (%v); a certificate's header lines are short", name, line+1, err)
	}
	if !magic {
		return errorf("%s: not an invariant certificate (its header lacks the line %+q)", name, "; "+Magic)
	}
	for _, f := range [][2]string{{"model", c.Model}, {"property", c.Property}, {"model-sha256", c.Hash}} {
		if f[1] == "" {
			return errorf("%s: the header has no %+q line", name, f[0])
		}
	}
	return nil
}

// parseInv reads (define-fun vigil.inv ((|x| Int) ...) Bool BODY), BODY
// being false, a box, or (or box ...), a box being true, a bound, or (and
// bound ...), a bound (>= |x| K) or (<= |x| K), or a linear atom
// (>= (+ (* C |x|) |y| ...) K) or (<= ... K) with integer coefficients.
func (c *Cert) parseInv(l list, name string) error {
	r := &invReader{name: name, idx: map[string]int{}}
	if len(l.items) != 5 {
		return r.bad(l.line, "want (define-fun vigil.inv (PARAMS) Bool BODY)")
	}
	if err := r.params(l.items[2], l.line); err != nil {
		return err
	}
	c.Vars = r.vars
	if !atomIs(l.items[3], "Bool") {
		return r.bad(l.line, "want result sort Bool")
	}
	body := l.items[4]
	// With disequalities: (and (vigil.differ PARAMS) UNION).
	differ := false
	if bl, ok := body.(list); ok && len(bl.items) == 3 && atomIs(bl.items[0], "and") {
		if cl, ok := bl.items[1].(list); ok && len(cl.items) > 0 && atomIs(cl.items[0], "vigil.differ") {
			if len(cl.items)-1 != len(r.vars) {
				return r.bad(cl.line, "want (vigil.differ) applied to every parameter")
			}
			for i, a := range cl.items[1:] {
				if !atomIs(a, r.vars[i]) {
					return r.bad(cl.line, "want (vigil.differ) applied to the parameters in order")
				}
			}
			differ, body = true, bl.items[2]
		}
	}
	if differ != (len(c.Differ) > 0) {
		return errorf("%s: the header has %d differ lines, but vigil.inv %s (vigil.differ ...): an edited file?", name, len(c.Differ), map[bool]string{true: "conjoins", false: "does not conjoin"}[differ])
	}
	c.Inv = [][]smt.Lit{}
	if !atomIs(body, "false") {
		items := []sexp{body}
		if bl, ok := body.(list); ok && len(bl.items) > 0 && atomIs(bl.items[0], "or") {
			items = bl.items[1:]
		}
		for _, x := range items {
			b, err := r.box(x)
			if err != nil {
				return err
			}
			c.Inv = append(c.Inv, b)
		}
	}
	if c.Boxes != len(c.Inv) {
		return errorf("%s: the header says %d boxes, vigil.inv has %d (a truncated or edited file?)", name, c.Boxes, len(c.Inv))
	}
	for _, f := range c.Facts {
		if f.Box >= len(c.Inv) {
			return errorf("%s: fact on box %d, the invariant has %d boxes", name, f.Box, len(c.Inv))
		}
	}
	return nil
}

// invReader reads the parts of vigil.inv's definition: its parameters,
// and the regions of its body (a disjunction of conjunctions of bounds
// and linear atoms).
type invReader struct {
	name string         // the file, for messages
	idx  map[string]int // parameter name -> variable index
	vars []string       // the parameters in order
}

func (r *invReader) bad(line int, format string, args ...any) error {
	return errorf("%s:%d: vigil.inv: %s", r.name, line, fmt.Sprintf(format, args...))
}

// params reads the parameter list (|x| Int) ... of the definition on
// line.
func (r *invReader) params(e sexp, line int) error {
	params, ok := e.(list)
	if !ok {
		return r.bad(line, "want a parameter list")
	}
	for _, p := range params.items {
		pl, ok := p.(list)
		if !ok || len(pl.items) != 2 || !atomIs(pl.items[1], "Int") {
			return r.bad(params.line, "want parameters of the form (|x| Int)")
		}
		n, ok := pl.items[0].(atom)
		if !ok {
			return r.bad(pl.line, "want a parameter name")
		}
		if _, dup := r.idx[n.s]; dup {
			return r.bad(pl.line, "parameter %s appears twice", n.s)
		}
		r.idx[n.s] = len(r.vars)
		r.vars = append(r.vars, n.s)
	}
	return nil
}

// term reads |x| or (* K |x|), a term of a linear atom.
func (r *invReader) term(e sexp) (symbolic.Term, error) {
	if v, ok := e.(atom); ok {
		i, known := r.idx[v.s]
		if !known {
			return symbolic.Term{}, r.bad(lineOf(e), "bound on %+q, which is not a parameter", v.s)
		}
		return symbolic.Term{Coef: 1, Var: symbolic.VarID(i)}, nil
	}
	tl, ok := e.(list)
	if !ok || len(tl.items) != 3 || !atomIs(tl.items[0], "*") {
		return symbolic.Term{}, r.bad(lineOf(e), "want a term |x| or (* K |x|) of a linear atom, got %s", show(e))
	}
	k, err := integer(tl.items[1])
	if err != nil {
		return symbolic.Term{}, r.bad(tl.line, "%v", err)
	}
	v, ok := tl.items[2].(atom)
	if !ok {
		// (* -1 (* 3 |x|)): a product nests no further in vigil's
		// invariants; a term is a constant times a parameter.
		return symbolic.Term{}, r.bad(tl.line, "want a term |x| or (* K |x|) of a linear atom (a constant times a parameter), got %s", show(e))
	}
	i, known := r.idx[v.s]
	if !known {
		return symbolic.Term{}, r.bad(tl.line, "bound on %+q, which is not a parameter", v.s)
	}
	return symbolic.Term{Coef: k, Var: symbolic.VarID(i)}, nil
}

// bound reads a bound (>= |x| K), (<= |x| K) or a linear atom
// (>= (+ (* C |x|) ...) K).
func (r *invReader) bound(e sexp) (smt.Lit, error) {
	bl, ok := e.(list)
	if !ok || len(bl.items) != 3 {
		return smt.Lit{}, r.bad(lineOf(e), "want a bound (>= |x| K) or (<= |x| K), or a linear atom (>= (+ (* C |x|) ...) K)")
	}
	op, _ := bl.items[0].(atom)
	var upper bool
	switch op.s {
	case ">=":
	case "<=":
		upper = true
	default:
		return smt.Lit{}, r.bad(bl.line, "want >= or <=, got %s", show(bl.items[0]))
	}
	k, err := integer(bl.items[2])
	if err != nil {
		return smt.Lit{}, r.bad(bl.line, "%v", err)
	}
	var ts []symbolic.Term
	if sl, ok := bl.items[1].(list); ok && len(sl.items) > 0 && atomIs(sl.items[0], "+") {
		if len(sl.items) < 3 {
			return smt.Lit{}, r.bad(sl.line, "want a sum of at least two terms")
		}
		for _, x := range sl.items[1:] {
			t, err := r.term(x)
			if err != nil {
				return smt.Lit{}, err
			}
			ts = append(ts, t)
		}
	} else {
		t, err := r.term(bl.items[1])
		if err != nil {
			return smt.Lit{}, err
		}
		ts = []symbolic.Term{t}
	}
	// A variable named twice has its coefficients summed, exactly:
	// symbolic.NewForm adds them in int, which would wrap a sum beyond
	// 64 bits into another, weaker atom than the one z3 reads.
	sum := map[symbolic.VarID]int{}
	for _, t := range ts {
		s, over := addInt(sum[t.Var], t.Coef)
		if over {
			return smt.Lit{}, r.bad(bl.line, "the coefficients of %s sum beyond the 64-bit integers", r.vars[t.Var])
		}
		sum[t.Var] = s
	}
	f := symbolic.NewForm(ts)
	switch {
	case f == nil:
		return smt.Lit{}, r.bad(bl.line, "a linear atom whose coefficients cancel out")
	case len(f.Terms()) == 1 && f.Terms()[0].Coef == 1:
		return smt.Lit{Var: f.Terms()[0].Var, Upper: upper, K: k}, nil
	}
	return smt.FormLit(f, upper, k), nil
}

// box reads one region: true, a bound, or (and BOUND ...).
func (r *invReader) box(e sexp) ([]smt.Lit, error) {
	if atomIs(e, "true") {
		return []smt.Lit{}, nil
	}
	if bl, ok := e.(list); ok && len(bl.items) > 0 && atomIs(bl.items[0], "and") {
		b := []smt.Lit{}
		for _, x := range bl.items[1:] {
			lit, err := r.bound(x)
			if err != nil {
				return nil, err
			}
			b = append(b, lit)
		}
		return b, nil
	}
	lit, err := r.bound(e)
	return []smt.Lit{lit}, err
}

// parseFact reads "box=3 label=a sure=b,c".
func parseFact(v string) (PolicyFact, error) {
	var f PolicyFact
	seen := map[string]bool{}
	for _, kv := range strings.Fields(v) {
		if kv == "differ" {
			if f.Differ {
				return f, fmt.Errorf("the token differ appears twice")
			}
			f.Differ = true
			continue
		}
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			return f, fmt.Errorf("want box=N label=NAME sure=NAME,..., got %+q", kv)
		}
		if seen[k] {
			// the last copy was read: "label=up ... label=go" was
			// checked as a fact about go
			return f, fmt.Errorf("%s= appears twice", k)
		}
		seen[k] = true
		switch k {
		case "box":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return f, fmt.Errorf("box: want a box index, got %+q", val)
			}
			f.Box = n
		case "label":
			f.Label = val
		case "sure":
			if val != "" {
				f.Sure = strings.Split(val, ",")
			}
		case "within":
			if val == "" {
				return f, fmt.Errorf("within: want bounds NAME>=K,NAME<=K,... or atoms C*NAME+C*NAME<=K, got nothing")
			}
			f.Within = strings.Split(val, ",")
		default:
			return f, fmt.Errorf("unknown field %+q", k)
		}
	}
	if !seen["box"] || !seen["label"] || f.Label == "" {
		return f, fmt.Errorf("want box=N label=NAME sure=NAME,..., got %+q", v)
	}
	return f, nil
}

// integer reads an integer constant as z3 reads it: digits, optionally
// after a minus sign (z3 takes -5 as a numeral), or (- that). Atoi alone
// also read +5, which z3 reads as an unknown symbol: the file does not
// load there, while vigil cert check called it valid.
func integer(e sexp) (int, error) {
	switch x := e.(type) {
	case atom:
		if k, err := strconv.Atoi(x.s); err == nil && z3Int(x.s) {
			return k, nil
		}
	case list:
		if len(x.items) == 2 && atomIs(x.items[0], "-") {
			if a, ok := x.items[1].(atom); ok && z3Int(a.s) {
				if k, err := strconv.Atoi(a.s); err == nil {
					if k == math.MinInt {
						// -k would wrap to k itself: z3 reads 2^63
						return 0, fmt.Errorf("(- %s) is 2^63, beyond the 64-bit integers", a.s)
					}
					return -k, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("want an integer constant, got %s", show(e))
}

// z3Int reports whether z3 reads s as an integer numeral: digits,
// optionally after a minus sign.
func z3Int(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// addInt returns a + b and whether the exact sum leaves int.
func addInt(a, b int) (int, bool) {
	s := a + b
	return s, (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

func show(e sexp) string {
	switch x := e.(type) {
	case atom:
		return fmt.Sprintf("%+q", x.s)
	case list:
		return "a list"
	}
	return "nothing"
}
