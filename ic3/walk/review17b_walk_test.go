package walk_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/ic3/walk"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// genModel writes a small random model with a rules policy pi and a
// property p: two or three commands per label (guards that overlap,
// outcomes that coincide, several outcomes, range errors), goals and
// deadlocks.
func genModel(r *rand.Rand) string {
	var b strings.Builder
	const R = 6
	fmt.Fprintf(&b, "model gen\nvar x : 0 .. %d\nvar y : 0 .. %d\nvar f : bool\n", R, R)
	cmp := func() string {
		vs := []string{"x", "y"}
		ops := []string{"<", "<=", "==", "!=", ">", ">="}
		c := fmt.Sprintf("%s %s %d", vs[r.IntN(2)], ops[r.IntN(len(ops))], r.IntN(R+1))
		switch r.IntN(4) {
		case 0:
			c += " && f"
		case 1:
			c += " && !f"
		}
		return c
	}
	assign := func() string {
		var as []string
		switch r.IntN(9) {
		case 0:
			as = append(as, "x' = x + 1")
		case 1:
			as = append(as, "x' = x - 1")
		case 2:
			as = append(as, "y' = y + 1")
		case 3:
			as = append(as, fmt.Sprintf("y' = %d", r.IntN(R+1)))
		case 4:
			as = append(as, "x' = y")
		case 5:
			as = append(as, "f' = !f")
		case 6:
			as = append(as, "x' = min(x + 2, 6)", "y' = max(y - 1, 0)")
		case 7:
			as = append(as, "y' = x")
		default:
			return "skip"
		}
		if r.IntN(3) == 0 && !strings.HasPrefix(as[0], "f'") {
			as = append(as, "f' = x > y")
		}
		return strings.Join(as, ", ")
	}
	labels := []string{"a", "b", "c"}
	for _, l := range labels {
		for k := 1 + r.IntN(3); k > 0; k-- {
			fmt.Fprintf(&b, "action %s when %s -> ", l, cmp())
			o := assign()
			switch r.IntN(4) {
			case 0:
				o += " | " + assign()
			case 1:
				o += " | " + o // coinciding outcomes
			}
			b.WriteString(o + "\n")
		}
	}
	b.WriteString("policy rules pi {\n")
	for k := 1 + r.IntN(3); k > 0; k-- {
		fmt.Fprintf(&b, "    when %s -> %s\n", cmp(), labels[r.IntN(3)])
	}
	fmt.Fprintf(&b, "    when true -> %s\n}\n", labels[r.IntN(3)])
	b.WriteString("property p {\n    start " + cmp() + "\n    unsafe x == 6 && y == " + fmt.Sprint(r.IntN(R+1)) + "\n")
	if r.IntN(2) == 0 {
		b.WriteString("    goal " + cmp() + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestReview17bWalkAgreesWithBFS: on random small models, a walker that
// says it ended every run from the (enumerated) start states without
// meeting a state of two successors has found a counterexample whenever
// bfs finds one, and every counterexample a walk returns replays.
func TestReview17bWalkAgreesWithBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	n, unsafe, det, missed := 0, 0, 0, 0
	for i := 0; i < 600; i++ {
		src := genModel(r)
		m, diags := lang.LoadSource("gen.spec", []byte(src), lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("generated model does not load: %s\n%s", diags.Render(), src)
		}
		g, err := explicit.New(m, m.Property("p"))
		if err != nil {
			continue
		}
		dec, err := explicit.NewDecider(m, m.Policy("pi"))
		if err != nil {
			t.Fatal(err)
		}
		res, bfsErr := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		for _, seen := range []int64{0, 1} {
			w := walk.New(g, dec, walk.Options{Seed: uint64(i), SeenBytes: seen})
			var trace []explicit.Step
			var werr error
			for w.Steps < 200_000 && !w.Done() {
				trace, werr = w.Walk(context.Background(), w.Steps+1000)
				if trace != nil || werr != nil {
					break
				}
			}
			n++
			if trace != nil {
				unsafe++
				if err := g.CheckCounterexample(dec, trace); err != nil {
					t.Fatalf("model %d: the walk's counterexample does not replay: %v\n%s", i, err, src)
				}
				if bfsErr == nil && res.Verdict != explicit.UnsafeVerdict {
					t.Fatalf("model %d: a walk found a counterexample, bfs says %v\n%s", i, res.Verdict, src)
				}
				continue
			}
			var re *explicit.RangeError
			if werr != nil && !errors.As(werr, &re) && bfsErr == nil {
				t.Fatalf("model %d: walk error %v\n%s", i, werr, src)
			}
			if w.Done() && !w.MetNondet() && werr == nil {
				det++
				if bfsErr == nil && res.Verdict == explicit.UnsafeVerdict {
					missed++
					t.Errorf("model %d (seen %d): the deterministic walker ended every run without the counterexample bfs finds in %d steps\n%s", i, seen, len(res.Trace)-1, src)
				}
			}
		}
	}
	t.Logf("%d walks: %d unsafe, %d deterministic and done, %d missed", n, unsafe, det, missed)
}

// cycles is bench/adversarial/auto_cycles_deep's model, smaller: from
// each of K start states the policy runs around a cycle of its own (P
// states); from the last one (y == K) it runs D steps into an unsafe
// state.
const cycles = `
model cycles
const K = 400
const P = 100
const D = 3000
var y : 0 .. K
var c : 0 .. P
var z : 0 .. D
action tick when y < K -> c' = if c == P - 1 then 0 else c + 1
action deep when y == K && z < D -> z' = z + 1
policy rules pi {
    when y == K -> deep
    when true -> tick
}
property p {
    start c == 0 && z == 0
    unsafe z == D
}
`

// TestReview17bCyclesPastBound: when the states walked outgrow SeenBytes
// (here at once: 4,096 states of 40,000), walks in cycles no longer end;
// the deep run of the last start state must still be found, by the
// deterministic walks or, once they give up, by random ones (ThenRandom,
// as the hunter walks).
func TestReview17bCyclesPastBound(t *testing.T) {
	g, dec := loadSrc(t, cycles)
	for _, then := range []bool{false, true} {
		w := walk.New(g, dec, walk.Options{Seed: 1, SeenBytes: 1, ThenRandom: then})
		trace := hunt(t, w, 20_000_000)
		if trace == nil {
			t.Errorf("ThenRandom %v: no counterexample in %d steps (%d walks, Det %v, Done %v, %d remembered)", then, w.Steps, w.Walks, w.Det(), w.Done(), w.Seen())
			continue
		}
		if err := g.CheckCounterexample(dec, trace); err != nil {
			t.Fatal(err)
		}
		t.Logf("ThenRandom %v: found in %d steps, %d walks", then, w.Steps, w.Walks)
	}
}
