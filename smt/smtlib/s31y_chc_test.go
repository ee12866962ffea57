package smtlib

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/lang"
)

// s31yModel is s31dModel with every kind at once: nested start, unsafe
// and goal conditions, rules and guards under a rules policy, so that
// let-bound definitions use each other (vigil.terminal uses
// vigil.unsafe, vigil.chosen.<l> uses vigil.rule.<n> and vigil.app.<l>)
// and one definition is used by several clauses (vigil.terminal by the
// step and the query clause, vigil.chosen by every command of a label).
func s31yModel(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3131))
	vs := []string{"v0", "v1", "v2", "v3"}
	var b strings.Builder
	fmt.Fprintf(&b, "model y%d\n", seed)
	for _, v := range vs {
		fmt.Fprintf(&b, "var %s : 0 .. 2\n", v)
	}
	var acts []string
	for j := 0; j < 2+r.IntN(2); j++ {
		for k := 0; k < 1+r.IntN(2); k++ { // a label with one or two commands
			v := vs[r.IntN(4)]
			e := fmt.Sprintf("%s + %d", v, 1-2*r.IntN(2))
			if seed%3 != 2 {
				e = "min(2, max(0, " + e + "))"
			}
			fmt.Fprintf(&b, "action a%d when %s -> %s' = %s\n", j, s31dCond(r, vs), v, e)
		}
		acts = append(acts, fmt.Sprintf("a%d", j))
	}
	b.WriteString("policy rules pi {\n")
	for _, a := range acts {
		fmt.Fprintf(&b, "    when %s -> %s\n", s31dCond(r, vs), a)
	}
	fmt.Fprintf(&b, "    otherwise -> %s\n}\n", acts[r.IntN(len(acts))])
	var start, unsafe []string
	for _, v := range vs {
		start = append(start, fmt.Sprintf("%s <= %d", v, r.IntN(3)))
		unsafe = append(unsafe, fmt.Sprintf("%s == %d", v, r.IntN(3)))
	}
	// unsafe states are rarer for every other seed, so that some
	// models are safe
	join := " || "
	if seed%4 >= 2 {
		join = " && "
	}
	fmt.Fprintf(&b, "property p { start (%s) || %s unsafe (%s)%s%s goal %s }\n",
		strings.Join(start, " && "), s31dCond(r, vs), strings.Join(unsafe, " && "), join, s31dCond(r, vs), s31dCond(r, vs))
	return b.String()
}

// TestS31yCHCAllKindsMatchesBFS: Spacer on WriteCHC of models with
// nested conditions everywhere at once answers what bfs answers; every
// other model has labels renamed to names that need quoting (a space,
// a non-ASCII letter, a symbol character), so the let-bound
// |vigil.app.<l>| and |vigil.chosen.<l>| are quoted symbols; no
// define-fun holds an ite term or a let-bound name.
func TestS31yCHCAllKindsMatchesBFS(t *testing.T) {
	needZ3(t)
	n := 16
	if testing.Short() {
		n = 6
	}
	odd := []string{"a b", "ä·0", "x'y", "vigil.app"}
	want := map[string]string{}
	var ps []problem
	counts, quoted := map[string]int{}, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := s31yModel(seed)
		name := fmt.Sprintf("all%d", seed)
		m, diags := lang.LoadSource(name+".spec", []byte(src), lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s:\n%s\n%s", name, src, diags.Render())
		}
		if seed%2 == 1 {
			for i := range m.Labels {
				m.Labels[i].Name = odd[i%len(odd)] + fmt.Sprint(i)
			}
		}
		q := Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0]}
		v, err := bfsVerdict(q)
		if err != nil {
			counts["skipped"]++
			continue
		}
		var b strings.Builder
		if err := WriteCHC(&b, q); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := b.String()
		defs, clauses, ok := strings.Cut(text, "(declare-fun "+fnInv+" ")
		if !ok {
			t.Fatalf("%s: no declaration of %s", name, fnInv)
		}
		if strings.Contains(defs, "(ite ") {
			t.Errorf("%s: a define-fun holds an ite term:\n%s", name, defs)
		}
		for _, d := range []string{fnUnsafe, fnTerminal, fnInit} {
			if mentions(defs, d) && !strings.Contains(defs, "(define-fun "+d+" ") {
				t.Errorf("%s: a define-fun uses the let-bound %s:\n%s", name, d, defs)
			}
		}
		if strings.Contains(clauses, "(let ((|vigil.") {
			quoted++
		}
		want[name] = v
		counts[v]++
		ps = append(ps, problem{name, text})
	}
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
	t.Logf("%d models (%d safe, %d unsafe or a range error, %d skipped), %d with quoted let-bound names, %d without an answer",
		len(ps), counts["sat"], counts["unsat"], counts["skipped"], quoted, unknown)
	if unknown > len(ps)/2 {
		t.Errorf("Spacer answered %d of %d models", len(ps)-unknown, len(ps))
	}
}
