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

// s31dKinds are where s31dModel puts its nested conditions: the start,
// unsafe and goal conditions (vigil.init, vigil.unsafe, vigil.terminal),
// the rules of a policy (vigil.rule, vigil.chosen) and the guards under
// a policy (vigil.app).
var s31dKinds = []string{"start", "unsafe", "goal", "rule", "guard"}

// s31dCond is a comparison of two expressions nested five deep over + -
// 2* /3 min max and if (s30dExpr); about one in four has an atom of more
// than maxCases cases, which keeps its ite terms.
func s31dCond(r *rand.Rand, vs []string) string {
	cmp := []string{"<", "<=", "==", ">", "!="}[r.IntN(5)]
	return s30dExpr(r, 5, vs) + " " + cmp + " " + s30dExpr(r, 5, vs)
}

// s31dModel is a model of four variables of 0..2 and two or three
// actions that step one variable up or down (clamped, or for every third
// seed not, so that range errors are reachable), with a nested condition
// where kind says (s31dKinds); rule and guard models have a rules policy.
func s31dModel(seed uint64, kind string) string {
	r := rand.New(rand.NewPCG(seed, 31))
	vs := []string{"v0", "v1", "v2", "v3"}
	var b strings.Builder
	fmt.Fprintf(&b, "model s%d\n", seed)
	for _, v := range vs {
		fmt.Fprintf(&b, "var %s : 0 .. 2\n", v)
	}
	var acts []string
	for j := 0; j < 2+r.IntN(2); j++ {
		guard := ""
		if kind == "guard" {
			guard = " when " + s31dCond(r, vs)
		}
		v := vs[r.IntN(4)]
		e := fmt.Sprintf("%s + %d", v, 1-2*r.IntN(2))
		if seed%3 != 2 {
			e = "min(2, max(0, " + e + "))"
		}
		fmt.Fprintf(&b, "action a%d%s -> %s' = %s\n", j, guard, v, e)
		acts = append(acts, fmt.Sprintf("a%d", j))
	}
	if kind == "rule" || kind == "guard" {
		b.WriteString("policy rules pi {\n")
		for _, a := range acts {
			cond := fmt.Sprintf("%s <= %d", vs[r.IntN(4)], r.IntN(3))
			if kind == "rule" {
				cond = s31dCond(r, vs)
			}
			fmt.Fprintf(&b, "    when %s -> %s\n", cond, a)
		}
		fmt.Fprintf(&b, "    otherwise -> %s\n}\n", acts[r.IntN(len(acts))])
	}
	var start, unsafe []string
	for _, v := range vs {
		start = append(start, fmt.Sprintf("%s <= %d", v, r.IntN(3)))
		unsafe = append(unsafe, fmt.Sprintf("%s == %d", v, r.IntN(3)))
	}
	st, un, goal := strings.Join(start, " && "), strings.Join(unsafe, " && "), ""
	switch kind {
	case "start":
		st = "(" + st + ") || " + s31dCond(r, vs)
	case "unsafe":
		un = "(" + un + ") || " + s31dCond(r, vs)
	case "goal":
		goal = " goal " + s31dCond(r, vs)
	}
	fmt.Fprintf(&b, "property p { start %s unsafe %s%s }\n", st, un, goal)
	return b.String()
}

// TestS31dCHCNestedCondsMatchesBFS: Spacer on WriteCHC of models whose
// start, unsafe, goal or rule conditions, or guards under a policy, nest
// if, min, max and floor division five deep answers what bfs answers (a
// timeout is no answer; a contradiction fails), and no define-fun of the
// file holds an ite term: z3 4.8.12 took more than 20 s to read such a
// vigil.rule.<n> as a define-fun (FIGURES.md, session 31); WriteCHC binds
// those definitions with let in the clauses. VIGIL_S31D_MODELS sets the
// number of models per kind (default 12); VIGIL_S31D_DUMP=DIR writes each
// as DIR/KINDSEED.spec (the models of FIGURES.md's session-31 table).
func TestS31dCHCNestedCondsMatchesBFS(t *testing.T) {
	needZ3(t)
	n := 12
	if s := os.Getenv("VIGIL_S31D_MODELS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{}
	var ps []problem
	counts := map[string]int{}
	withLet := map[string]int{}
	for _, kind := range s31dKinds {
		for seed := uint64(0); seed < uint64(n); seed++ {
			src := s31dModel(seed, kind)
			name := fmt.Sprintf("%s%d", kind, seed)
			if dir := os.Getenv("VIGIL_S31D_DUMP"); dir != "" {
				if err := os.WriteFile(dir+"/"+name+".spec", []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m, diags := lang.LoadSource(name+".spec", []byte(src), lang.Options{})
			if diags.HasErrors() {
				t.Fatalf("%s:\n%s\n%s", name, src, diags.Render())
			}
			q := Question{Model: m, Property: m.Properties[0]}
			if len(m.Policies) > 0 {
				q.Policy = m.Policies[0]
			}
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
				t.Fatalf("%s: no declaration of %s:\n%s", name, fnInv, text)
			}
			if strings.Contains(defs, "(ite ") {
				t.Errorf("%s: a define-fun holds an ite term:\n%s", name, defs)
			}
			if strings.Contains(clauses, "(let ((vigil.") {
				withLet[kind]++
			}
			want[name] = v
			counts[v]++
			ps = append(ps, problem{name, text})
		}
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
	t.Logf("%d models (%d safe, %d unsafe or a range error, %d skipped), bound with let: %v, %d without an answer",
		len(ps), counts["sat"], counts["unsat"], counts["skipped"], withLet, unknown)
	if n >= 12 {
		for _, k := range s31dKinds {
			if withLet[k] == 0 {
				t.Errorf("no %s model binds a definition with let: the test no longer reaches atoms over maxCases cases there", k)
			}
		}
	}
}
