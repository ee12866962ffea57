package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s33eDepths is the breadth-first reference from every start state (the
// start condition's, or the initial state): the depth of the shallowest
// unsafe state (u) and of the shallowest non-terminal state whose
// expansion meets a range error (r), each -1 when none lies in the first
// layer that holds a bad state (or none is reachable at all: both -1).
func s33eDepths(t *testing.T, g *explicit.Generator, dec explicit.Decider) (u, r int) {
	m := g.M
	u, r = -1, -1
	seen := map[string]bool{}
	var layer []symbolic.State
	if err := g.Starts(func(s symbolic.State) bool {
		if k := m.FormatState(s); !seen[k] {
			seen[k] = true
			layer = append(layer, append(symbolic.State(nil), s...))
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	x := &explicit.Expansion{}
	for d := 0; len(layer) > 0; d++ {
		var next []symbolic.State
		for _, s := range layer {
			switch g.Status(s) {
			case explicit.Unsafe:
				if u < 0 {
					u = d
				}
				continue
			case explicit.Goal:
				continue
			}
			if g.ErrorAt(s, dec) != nil {
				if r < 0 {
					r = d
				}
				continue
			}
			g.Applicable(s, x)
			chosen := symbolic.NoLabel
			if dec != nil {
				var err error
				if chosen, err = dec.Decide(s, x.App); err != nil || chosen == symbolic.NoLabel {
					continue
				}
			}
			for c := range m.Commands {
				if !g.Guard(s, c) || (dec != nil && m.Commands[c].Label != chosen) {
					continue
				}
				for o := range m.Commands[c].Outcomes {
					t, err := g.Apply(s, c, o)
					if err != nil {
						continue
					}
					if k := m.FormatState(t); !seen[k] {
						seen[k] = true
						next = append(next, t)
					}
				}
			}
		}
		if u >= 0 || r >= 0 {
			return
		}
		layer = next
	}
	return
}

// s33eModel writes a random model with what the unrolling must encode as
// the explicit semantics does: floor division of negative values, min,
// max, abs and if, a variable whose values lie near +-2^62 (its guards'
// and updates' values leave the 64-bit integers), goal states (also
// overlapping the unsafe ones), deadlocks, outcomes of weight 0, and
// start conditions with several start states.
func s33eModel(rng *rand.Rand) string {
	var b strings.Builder
	X := 4 + rng.IntN(8)
	H := 2 + rng.IntN(4)
	fmt.Fprintf(&b, "model g\nconst B = 4611686018427387904\nvar x : 0 .. %d = 0\nvar y : -%d .. %d = 0\n", X, H, H)
	big := rng.IntN(2) == 0
	if big {
		b.WriteString("var w : 4611686018427387900 .. 4611686018427387908 = 4611686018427387904\n")
	}
	weights := rng.IntN(2) == 0
	w := func(s string) string {
		if !weights {
			return s
		}
		return []string{"0", "1", "1/2", "3"}[rng.IntN(4)] + ": " + s
	}
	// the second of two outcomes: a positive weight
	w1 := func(s string) string {
		if !weights {
			return s
		}
		return []string{"1", "1/2", "3"}[rng.IntN(3)] + ": " + s
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "action a0 when x < %d -> %s | %s", X, w("x' = x + 1"), w1("x' = x + 1, y' = y - 1"))
	} else {
		fmt.Fprintf(&b, "action a0 when x < %d -> x' = x + 1", X)
	}
	b.WriteString("\n")
	n := 2 + rng.IntN(4)
	for c := 1; c <= n; c++ {
		var g string
		switch rng.IntN(5) {
		case 0:
			g = fmt.Sprintf("x %s %d", []string{"==", ">=", "<="}[rng.IntN(3)], rng.IntN(X+1))
		case 1:
			g = fmt.Sprintf("y / %d %s %d", 2+rng.IntN(2), []string{"==", "<", ">"}[rng.IntN(3)], rng.IntN(3)-1)
		case 2:
			g = fmt.Sprintf("abs(y) + x %s %d", []string{"==", ">="}[rng.IntN(2)], rng.IntN(X+H))
		case 3:
			if big {
				g = fmt.Sprintf("w * 2 - B %s %s", []string{">", "<", "==", ">="}[rng.IntN(4)], []string{"B", "B + 2", "B - 2", "9223372036854775807 - B + 1"}[rng.IntN(4)])
			} else {
				g = fmt.Sprintf("x * B + y * B > %d", rng.IntN(3))
			}
		default:
			g = fmt.Sprintf("(if y > 0 then x else -x) %s %d", []string{"==", "<", ">"}[rng.IntN(3)], rng.IntN(X)-2)
		}
		updates := []string{"y' = y + 1", "y' = y - 2", "y' = y / 2", "y' = (y - 3) / 2", "y' = -y - 1", "y' = y * 2",
			"y' = min(y + 1, x)", "y' = max(y - 1, -x)", "y' = abs(y) + 1", "x' = x + 1, y' = y + 1", "x' = 0", "skip"}
		if big {
			updates = append(updates, "w' = w + 1", "w' = w - 3", "w' = (w * 2) / 2 + 2", "w' = (w + B) / 2 + 1", "w' = w * 2 - B + 1", "w' = -(-w * 3 + B + B)")
		}
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "action a%d when %s -> %s | %s", c, g, w(updates[rng.IntN(len(updates))]), w1(updates[rng.IntN(len(updates))]))
		} else {
			fmt.Fprintf(&b, "action a%d when %s -> %s", c, g, updates[rng.IntN(len(updates))])
		}
		b.WriteString("\n")
	}
	var us []string
	for range 1 + rng.IntN(2) {
		switch rng.IntN(4) {
		case 0:
			us = append(us, fmt.Sprintf("x == %d", 1+rng.IntN(X)))
		case 1:
			us = append(us, fmt.Sprintf("y == %d", rng.IntN(2*H+1)-H))
		case 2:
			if big {
				us = append(us, []string{"w * 2 - 3 > 9223372036854775807", "w + w - B == B + 2"}[rng.IntN(2)])
				break
			}
			fallthrough
		default:
			us = append(us, fmt.Sprintf("x + y == %d", rng.IntN(X+1)))
		}
	}
	b.WriteString("property p { ")
	switch rng.IntN(4) {
	case 0:
		fmt.Fprintf(&b, "start x == 0 && y >= %d && y <= %d ", -rng.IntN(H+1), rng.IntN(H+1))
		if big {
			b.WriteString("&& w >= B - 1 && w <= B ")
		}
	case 1:
		// x free: a state limit cuts the start states
		fmt.Fprintf(&b, "start y == %d ", rng.IntN(2*H+1)-H)
		if big {
			b.WriteString("&& w == B ")
		}
	}
	fmt.Fprintf(&b, "unsafe %s ", strings.Join(us, " || "))
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "goal %s ", []string{fmt.Sprintf("x == %d", rng.IntN(X+1)), fmt.Sprintf("y <= %d", -rng.IntN(H+1))}[rng.IntN(2)])
	}
	b.WriteString("}\n")
	return b.String()
}

// s33ePolicySrc appends a rules policy whose rules overlap (several may
// hold, their labels need not be applicable) and may leave the policy
// stuck (no otherwise, or an otherwise whose label is not applicable).
func s33ePolicySrc(rng *rand.Rand, src string) string {
	n := strings.Count(src, "\naction ")
	var b strings.Builder
	b.WriteString(src)
	b.WriteString("policy rules pi {\n")
	for range 1 + rng.IntN(4) {
		v := []string{"x", "y", "x + y"}[rng.IntN(3)]
		fmt.Fprintf(&b, "  when %s %s %d -> a%d\n", v, []string{"<", "==", ">", ">="}[rng.IntN(4)], rng.IntN(6)-1, rng.IntN(n))
	}
	if rng.IntN(3) != 0 {
		fmt.Fprintf(&b, "  otherwise -> a%d\n", rng.IntN(n))
	}
	b.WriteString("}\n")
	return b.String()
}

// TestS33eBoundedSweep asks the bounded question (askBounded) itself, far
// enough, on generated models (s33eModel), with and without a rules
// policy (s33ePolicySrc), and compares with the breadth-first reference
// (s33eDepths): where the relation is exact its witness must be the
// shallowest bad state's kind and depth, and it must answer none where
// the reference reaches none; taking every label (free), each kind's
// "none closer than n" must hold for the policy's runs. S33E_SWEEP=N runs
// N models of each kind.
func TestS33eBoundedSweep(t *testing.T) {
	n := 12
	if s := os.Getenv("S33E_SWEEP"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	const limit = 30
	for _, withPolicy := range []bool{false, true} {
		for _, free := range []bool{false, true} {
			counts := map[string]int{}
			rng := rand.New(rand.NewPCG(33, 5))
			for i := range n {
				src := s33eModel(rng)
				if withPolicy {
					src = s33ePolicySrc(rng, src)
				}
				m, diags := lang.LoadSource("g.spec", []byte(src), lang.Options{})
				if diags.HasErrors() {
					t.Fatalf("model %d: %s\n%s", i, diags.Render(), src)
				}
				var pol *symbolic.PolicyDecl
				if withPolicy {
					pol = m.Policies[0]
				}
				q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: pol, Engine: "auto"})
				if err != nil {
					t.Fatalf("model %d: %v\n%s", i, err, src)
				}
				u, r := s33eDepths(t, q.Gen, q.Dec)
				st := &bmcState{free: free}
				st.uLimit.Store(limit)
				st.rLimit.Store(limit)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				out := askBounded(ctx, q, st)
				cancel()
				uc, rc := st.unsafeClear.Load(), st.rangeClear.Load()
				tag := fmt.Sprintf("model %d (policy %v, free %v; reference u=%d r=%d; clear u<%d r<%d)", i, withPolicy, free, u, r, uc, rc)
				if out.bug != nil {
					t.Errorf("%s: %v\n%s", tag, out.bug, src)
					continue
				}
				if out.why != "" {
					t.Logf("%s: ended: %s", tag, out.why)
					counts["ended"]++
					continue
				}
				// "none closer" must hold
				if u >= 0 && uc > int64(u) {
					t.Errorf("%s: the bounded question says no unsafe state in fewer than %d steps\n%s", tag, uc, src)
				}
				if r >= 0 && rc > int64(r) {
					t.Errorf("%s: the bounded question says no range error in fewer than %d steps\n%s", tag, rc, src)
				}
				if u < 0 && r < 0 {
					// nothing is reachable: within the limit both are clear
					if !free && (out.cex != nil || out.found != nil) {
						t.Errorf("%s: a witness where the reference reaches no bad state\n%s", tag, src)
					}
					if !free && (uc < limit || rc < limit) {
						t.Errorf("%s: not drained to the limit\n%s", tag, src)
					}
					counts["none"]++
					continue
				}
				mn := u
				if mn < 0 || r >= 0 && r < mn {
					mn = r
				}
				if free {
					counts["free"]++
					continue
				}
				switch {
				case out.cex != nil:
					if len(out.cex)-1 != mn || u != mn {
						t.Errorf("%s: a counterexample of %d steps\n%s", tag, len(out.cex)-1, src)
					}
					counts["cex"]++
				case out.found != nil:
					if out.found.Steps() != mn || r != mn {
						t.Errorf("%s: a range error %d steps out\n%s", tag, out.found.Steps(), src)
					}
					counts["range"]++
				default:
					t.Errorf("%s: no witness\n%s", tag, src)
				}
			}
			t.Logf("%d models, policy %v, free %v: %v", n, withPolicy, free, counts)
		}
	}
}
