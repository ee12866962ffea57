package smtlib

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"vigil/lang"
)

// s30dExpr is an expression nested d deep over + - 2* /3 min max and if,
// the generator of the 81-state models of FIGURES.md (session 29), on
// which Spacer gave no answer within 10 s while z3 read the vigil.trans
// define-fun.
func s30dExpr(r *rand.Rand, d int, vs []string) string {
	if d <= 0 || r.Float64() < 0.2 {
		if r.Float64() < 0.7 {
			return vs[r.IntN(len(vs))]
		}
		return strconv.Itoa(r.IntN(6))
	}
	a := func() string { return s30dExpr(r, d-1, vs) }
	switch r.IntN(8) {
	case 0:
		return "(" + a() + " + " + a() + ")"
	case 1:
		return "(" + a() + " - " + a() + ")"
	case 2, 3:
		return "(" + a() + ") / 3"
	case 4:
		return "min(" + a() + ", " + a() + ")"
	case 5:
		return "max(" + a() + ", " + a() + ")"
	case 6:
		cmp := []string{"<", "<=", "==", ">", "!="}[r.IntN(5)]
		return "(if " + a() + " " + cmp + " " + a() + " then " + a() + " else " + a() + ")"
	}
	return "2 * " + a()
}

// s30dModel is a model of four variables of 0..2 and two or three
// actions, each assigning one variable an expression nested five deep,
// clamped to 0..2 (or, when clamp is false, not: a range error may be
// reachable).
func s30dModel(seed uint64, clamp bool) string {
	r := rand.New(rand.NewPCG(seed, 30))
	vs := []string{"v0", "v1", "v2", "v3"}
	var b strings.Builder
	fmt.Fprintf(&b, "model s%d\n", seed)
	for _, v := range vs {
		fmt.Fprintf(&b, "var %s : 0 .. 2\n", v)
	}
	for j := 0; j < 2+r.IntN(2); j++ {
		e := s30dExpr(r, 5, vs)
		if clamp {
			e = "min(2, max(0, " + e + "))"
		}
		fmt.Fprintf(&b, "action a%d -> %s' = %s\n", j, vs[r.IntN(4)], e)
	}
	var start, unsafe []string
	for _, v := range vs {
		start = append(start, fmt.Sprintf("%s <= %d", v, r.IntN(3)))
		unsafe = append(unsafe, fmt.Sprintf("%s == %d", v, r.IntN(3)))
	}
	fmt.Fprintf(&b, "property p { start %s unsafe %s }\n", strings.Join(start, " && "), strings.Join(unsafe, " && "))
	return b.String()
}

// TestS30dCHCNestedMatchesBFS: Spacer on WriteCHC of models whose
// assignments nest if, min, max and floor division five deep answers
// what bfs answers (a timeout is no answer; a contradiction fails), and
// no define-fun of the file holds an ite term (z3 4.8.12 reads those in
// time exponential in their nesting: the atoms over maxCases cases are in
// the clauses' constraints instead). VIGIL_S30D_MODELS sets the number of
// models (default 60, of which a third unclamped); VIGIL_S30D_DUMP=DIR
// writes each as DIR/tSEED.spec (the models of FIGURES.md's second table).
func TestS30dCHCNestedMatchesBFS(t *testing.T) {
	needZ3(t)
	n := 60
	if s := os.Getenv("VIGIL_S30D_MODELS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{}
	var ps []problem
	counts := map[string]int{}
	withIte := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		clamp := seed%3 != 2
		src := s30dModel(seed, clamp)
		if dir := os.Getenv("VIGIL_S30D_DUMP"); dir != "" {
			if err := os.WriteFile(fmt.Sprintf("%s/t%d.spec", dir, seed), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m, diags := lang.LoadSource(fmt.Sprintf("s%d.spec", seed), []byte(src), lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("seed %d:\n%s\n%s", seed, src, diags.Render())
		}
		q := Question{Model: m, Property: m.Properties[0]}
		v, err := bfsVerdict(q)
		if err != nil {
			counts["skipped"]++
			continue
		}
		var b strings.Builder
		if err := WriteCHC(&b, q); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		text := b.String()
		defs, clauses, ok := strings.Cut(text, "(declare-fun "+fnInv+" ")
		if !ok {
			t.Fatalf("seed %d: no declaration of %s:\n%s", seed, fnInv, text)
		}
		if strings.Contains(defs, "(ite ") {
			t.Errorf("seed %d: a define-fun holds an ite term:\n%s", seed, defs)
		}
		if strings.Contains(clauses, "(ite ") {
			withIte++
		}
		name := fmt.Sprintf("s%d", seed)
		want[name] = v
		counts[v]++
		ps = append(ps, problem{name, text})
	}
	// -t: a soft timeout per check, so that a hard question answers
	// unknown (no answer) instead of stalling the batch
	got := runBatch(t, ps, 2, "-t:5000")
	unknown := 0
	for _, p := range ps {
		lines := got[p.name]
		switch {
		case len(lines) == 1 && lines[0] == want[p.name]:
		case len(lines) == 1 && (lines[0] == "unknown" || lines[0] == "timeout"):
			unknown++
			t.Logf("%s: Spacer gives no answer (bfs: %s)", p.name, want[p.name])
		default:
			t.Errorf("%s: Spacer printed %q, bfs answers %s\n%s", p.name, lines, want[p.name], p.text)
		}
	}
	t.Logf("%d models (%d safe, %d unsafe or a range error, %d skipped), %d with ite terms in a clause, %d without an answer",
		len(ps), counts["sat"], counts["unsat"], counts["skipped"], withIte, unknown)
	if n >= 60 && withIte < 10 {
		t.Errorf("only %d models keep ite terms (atoms over maxCases cases): the test no longer reaches them", withIte)
	}
}
