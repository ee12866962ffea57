package jani_test

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// s32kDists is, in state s of m, per enabled command, its label, its
// cost and its distribution over successors (equal successors summed,
// exactly; weights normalised per command, none written: equal shares).
func s32kDists(m *symbolic.Model, s symbolic.State, withCost bool) string {
	var out []string
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if !c.Guard.Holds(s) {
			continue
		}
		ws := make([]*big.Rat, len(c.Outcomes))
		sum := new(big.Rat)
		for i, o := range c.Outcomes {
			if o.Weight.Den == 0 {
				ws[i] = big.NewRat(1, 1)
			} else {
				ws[i] = big.NewRat(o.Weight.Num, o.Weight.Den)
			}
			sum.Add(sum, ws[i])
		}
		got := map[string]*big.Rat{}
		for i, o := range c.Outcomes {
			u := slices.Clone(s)
			for _, a := range o.Assigns {
				u[a.Var] = a.Value.Eval(s)
			}
			k := fmt.Sprint(u)
			if got[k] == nil {
				got[k] = new(big.Rat)
			}
			got[k].Add(got[k], new(big.Rat).Quo(ws[i], sum))
		}
		var keys []string
		for k, p := range got {
			keys = append(keys, k+":"+p.RatString())
		}
		sort.Strings(keys)
		cost := ""
		if withCost {
			cost = fmt.Sprintf(" cost %d", c.CostIn(s))
		}
		out = append(out, m.Labels[c.Label].Name+cost+"{"+strings.Join(keys, " ")+"}")
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// TestS32kSpecSchemaExport (review of s32-jani's mergeChoiceSplits):
// the export merges any run of commands of one source position whose
// guards end in pins x == v, and a .spec schema (action go for p in ...
// when G && x == p) makes such runs, with outcomes that differ by piece
// in number, weights and values, costs that may read p, pins over two
// variables, values out of range (range errors), and pins that fold
// the guard to false (the command dropped, so the run is no full box).
// The import of the export must have, in every state, the .spec
// model's enabled labels, costs and exact distributions.
func TestS32kSpecSchemaExport(t *testing.T) {
	seeds := 300
	if n, err := strconv.Atoi(os.Getenv("S32K_SEEDS")); err == nil {
		seeds = n
	}
	if testing.Short() {
		seeds = 60
	}
	merged, loaded, costed := 0, 0, 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 0x532c))
		xl, yl := r.IntN(4)-2, r.IntN(4)-2
		xh, yh := xl+1+r.IntN(4), yl+1+r.IntN(4)
		two := r.IntN(3) == 0
		var b strings.Builder
		fmt.Fprintf(&b, "model g\nvar x : %d .. %d = %d\nvar y : %d .. %d = %d\nvar z : 0 .. 3 = 0\n", xl, xh, xl, yl, yh, yl)
		term := func() string {
			switch r.IntN(7) {
			case 0:
				return strconv.Itoa(r.IntN(7) - 2)
			case 1:
				return fmt.Sprintf("p + %d", r.IntN(3)-1)
			case 2:
				return fmt.Sprintf("max(p, %d)", r.IntN(4)-1)
			case 3:
				return fmt.Sprintf("min(p, %d)", r.IntN(4)-1)
			case 4:
				return "x + 1"
			case 5:
				if two {
					return "q - p"
				}
				return "p * 2"
			default:
				return "z"
			}
		}
		for a := range 1 + r.IntN(2) {
			pl := xl - r.IntN(2)
			ph := xh + r.IntN(2) - r.IntN(3)
			params := fmt.Sprintf("p in %d .. %d", pl, ph)
			guard := "x == p"
			if two {
				params += fmt.Sprintf(", q in %d .. %d", yl, yl+r.IntN(3))
				guard = "x == p && y == q"
			}
			if r.IntN(2) == 0 {
				guard = []string{"z < 2", "z != p", "y >= 0", "x + y > 0"}[r.IntN(4)] + " && " + guard
			}
			cost := ""
			switch r.IntN(4) {
			case 0:
				cost = " cost 2"
			case 1:
				cost = " cost max(p, 0) + 1"
			}
			var outs []string
			weighted := r.IntN(2) == 0
			for range 1 + r.IntN(3) {
				o := ""
				if weighted {
					o = fmt.Sprintf("%d: ", 1+r.IntN(4))
				}
				var as []string
				for _, v := range []string{"x", "y", "z"} {
					if r.IntN(2) == 0 {
						as = append(as, fmt.Sprintf("%s' = %s", v, term()))
					}
				}
				if len(as) == 0 {
					as = []string{"skip"}
				}
				outs = append(outs, o+strings.Join(as, ", "))
			}
			fmt.Fprintf(&b, "action a%d for %s when %s%s -> %s\n", a%2, params, guard, cost, strings.Join(outs, " | "))
		}
		fmt.Fprintf(&b, "property q {\n    start x == %d\n    unsafe z == 3\n    goal y == %d\n}\n", xl, yh)
		src := b.String()
		m, diags := lang.LoadSource("g.spec", []byte(src), lang.Options{})
		if m == nil || diags.HasErrors() {
			continue // refused (an assignment's range, a cost below 1): no model to check
		}
		loaded++
		var out bytes.Buffer
		if err := jani.Export(&out, m, m.Properties[0], nil); err != nil {
			continue // refused with its message (weight 0 and the like)
		}
		back, _, err := jani.Decode("back.jani", out.Bytes(), nil)
		if err != nil {
			t.Fatalf("seed %d: the export does not import back: %v\n%s\n%s", seed, err, src, out.String())
		}
		if len(back.Commands) < len(m.Commands) {
			merged++
		}
		withCost := false
		for _, c := range back.Commands {
			withCost = withCost || c.Cost != nil
		}
		for _, c := range m.Commands {
			withCost = withCost || c.Cost != nil
		}
		if withCost {
			costed++
		}
		s := make(symbolic.State, len(m.Vars))
		lo := []int{xl, yl, 0}
		hi := []int{xh, yh, 3}
		copy(s, lo)
		for {
			full := append(slices.Clone(s), make([]int, max(0, len(back.Vars)-len(s)))...)
			if w, g := s32kDists(m, s, withCost), s32kDists(back, full[:len(back.Vars)], withCost); w != g {
				t.Fatalf("seed %d, state %v: export imports back to\n%s\nwant\n%s\n%s\nexport %s", seed, s, g, w, src, out.String())
			}
			i := 0
			for ; i < 3; i++ {
				if s[i] < hi[i] {
					s[i]++
					break
				}
				s[i] = lo[i]
			}
			if i == 3 {
				break
			}
		}
	}
	t.Logf("%d of %d models loaded; %d exports had fewer commands; %d compared with costs", loaded, seeds, merged, costed)
	if loaded < seeds/3 {
		t.Errorf("only %d models loaded", loaded)
	}
}
