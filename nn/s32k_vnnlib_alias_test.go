package nn

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// s32kCaseKey is a case as text: its box, points, float64 rows and exact
// rows (coefficients sorted), so that two parses' cases compare exactly.
func s32kCaseKey(c *Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "box %v %v points %v %v rows", c.Box.Lo, c.Box.Hi, c.Points.Lo, c.Points.Hi)
	for k := range c.Cons.Rows {
		fmt.Fprintf(&b, " [%v %v %v]", c.Cons.Rows[k], c.Cons.Off[k], c.Cons.Strict[k])
	}
	var ex []string
	for _, r := range c.exact {
		var cs []string
		for j, v := range r.coef {
			cs = append(cs, fmt.Sprintf("%d:%s", j, v.RatString()))
		}
		sort.Strings(cs)
		ex = append(ex, fmt.Sprintf("{%s %s %v}", strings.Join(cs, ","), r.off.RatString(), r.strict))
	}
	fmt.Fprintf(&b, " exact %s", strings.Join(ex, " "))
	return b.String()
}

// TestS32kVNNLIBSharedAtoms (review of s32-fuzz's atom memo): an atom
// asserted outside the ors stands in every case of the DNF, and its
// bound or row is now computed once and shared among them. On random
// properties of many ors (input bounds strict or not, numbers that are
// not float64s such as 0.1 and 1/3 written as 0.333..., equalities,
// output rows with coefficients beyond float64, constant comparisons),
// each case of the whole property must be exactly the case that the
// conjunction it stands for gives when parsed alone (compared as
// multisets, since empty cases are dropped), and vigil nn verify's
// answer on a small ReLU network must be sat exactly when some case
// alone is sat and unsat exactly when every case alone is unsat. After
// the verify runs, the cases must still be what they were: nothing the
// verifier did to one case shows in another.
func TestS32kVNNLIBSharedAtoms(t *testing.T) {
	seeds := 150
	if n, err := strconv.Atoi(os.Getenv("S32K_SEEDS")); err == nil {
		seeds = n
	}
	if testing.Short() {
		seeds = 30
	}
	cases, verified := 0, 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 0x532b))
		nx, ny := 1+r.IntN(2), 2+r.IntN(2)
		num := func() string {
			switch r.IntN(30) {
			case 0:
				return "0.1"
			case 1:
				return "0.3333333333333333333333"
			case 2:
				return "-0.25"
			case 3:
				return strconv.Itoa(r.IntN(5) - 2)
			case 29:
				return "1e400"
			default:
				return fmt.Sprintf("%.3f", r.Float64()*2-1)
			}
		}
		atom := func() string {
			ops := []string{"<=", "<", ">=", ">", "="}
			op := ops[r.IntN(len(ops))]
			switch r.IntN(5) {
			case 0, 1:
				// an input bound, within [-1, 1] mostly
				v := fmt.Sprintf("%.2f", r.Float64())
				if op == ">" || op == ">=" {
					v = fmt.Sprintf("%.2f", -r.Float64())
				}
				if r.IntN(6) == 0 {
					v = "0.1"
				}
				if op == "=" && r.IntN(3) != 0 {
					op = "<="
				}
				return fmt.Sprintf("(%s X_%d %s)", op, r.IntN(nx), v)
			case 2:
				if op == "=" {
					op = ">="
				}
				return fmt.Sprintf("(%s Y_%d %s)", op, r.IntN(ny), num())
			case 3:
				if op == "=" {
					op = "<="
				}
				a, b := r.IntN(ny), r.IntN(ny)
				return fmt.Sprintf("(%s (+ (* %s Y_%d) (* -1 Y_%d)) %s)", op, num(), a, b, num())
			default:
				if r.IntN(3) != 0 {
					return fmt.Sprintf("(%s Y_%d %s)", op, r.IntN(ny), num())
				}
				if r.IntN(2) == 0 {
					return fmt.Sprintf("(%s 1 %s)", op, num())
				}
				return fmt.Sprintf("(%s (* 0 Y_0) %s)", op, num())
			}
		}
		// asserts: plain atoms (in every case) and ors of one or two
		// atoms each (a conjunction of them)
		type disj [][]string
		var asserts []disj
		for range 2 + r.IntN(4) {
			asserts = append(asserts, disj{{atom()}})
		}
		for range 1 + r.IntN(5) {
			var d disj
			for range 2 + r.IntN(2) {
				var conj []string
				for range 1 + r.IntN(2) {
					conj = append(conj, atom())
				}
				d = append(d, conj)
			}
			asserts = append(asserts, d)
		}
		// every input bounded, so that verify may answer
		var head strings.Builder
		for i := range nx {
			fmt.Fprintf(&head, "(declare-const X_%d Real)\n", i)
		}
		for j := range ny {
			fmt.Fprintf(&head, "(declare-const Y_%d Real)\n", j)
		}
		for i := range nx {
			fmt.Fprintf(&head, "(assert (>= X_%d -1))\n(assert (<= X_%d 1))\n", i, i)
		}
		var full strings.Builder
		full.WriteString(head.String())
		for _, d := range asserts {
			if len(d) == 1 {
				fmt.Fprintf(&full, "(assert (and %s))\n", strings.Join(d[0], " "))
				continue
			}
			full.WriteString("(assert (or")
			for _, conj := range d {
				fmt.Fprintf(&full, " (and %s)", strings.Join(conj, " "))
			}
			full.WriteString("))\n")
		}
		prop, err := ParseVNNLIB(full.String())
		// each combination of the ors' disjuncts, parsed alone
		var alone []*Property
		var aloneErr error
		idx := make([]int, len(asserts))
		for {
			var b strings.Builder
			b.WriteString(head.String())
			for k, d := range asserts {
				for _, a := range d[idx[k]] {
					fmt.Fprintf(&b, "(assert %s)\n", a)
				}
			}
			p, err := ParseVNNLIB(b.String())
			switch {
			case err != nil && strings.Contains(err.Error(), "every case"):
				// this case alone is empty (its box, or a false
				// comparison of constants): the whole drops it
			case err != nil:
				if aloneErr == nil {
					aloneErr = err
				}
			default:
				alone = append(alone, p)
			}
			k := 0
			for ; k < len(asserts); k++ {
				if idx[k]++; idx[k] < len(asserts[k]) {
					break
				}
				idx[k] = 0
			}
			if k == len(asserts) {
				break
			}
		}
		switch {
		case aloneErr != nil && err == nil:
			t.Fatalf("seed %d: whole property parsed; a case alone: %v\n%s", seed, aloneErr, full.String())
		case err != nil && aloneErr == nil && !(len(alone) == 0 && strings.Contains(err.Error(), "every case")):
			t.Fatalf("seed %d: whole property: %v; its cases alone parse (%d not empty)\n%s", seed, err, len(alone), full.String())
		case err != nil:
			continue
		}
		var want, got []string
		for _, p := range alone {
			for i := range p.Cases {
				want = append(want, s32kCaseKey(&p.Cases[i]))
			}
		}
		for i := range prop.Cases {
			got = append(got, s32kCaseKey(&prop.Cases[i]))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Fatalf("seed %d: the cases differ from the cases parsed alone\ngot  %q\nwant %q\n%s", seed, got, want, full.String())
		}
		cases += len(got)
		// verify: the whole against the cases alone
		net := tinyNet(r, []int{nx, 4, ny}, false)
		res, err := net.Verify(prop, time.Second, Options{Seed: uint64(seed)})
		if err != nil {
			t.Fatalf("seed %d: verify: %v", seed, err)
		}
		anySat, allUnsat := false, true
		for _, p := range alone {
			if len(p.Cases) == 0 {
				continue
			}
			ra, err := net.Verify(p, time.Second, Options{Seed: uint64(seed)})
			if err != nil {
				t.Fatalf("seed %d: verify alone: %v", seed, err)
			}
			anySat = anySat || ra.Answer == Sat
			allUnsat = allUnsat && ra.Answer == Unsat
		}
		switch {
		case res.Answer == Unsat && anySat:
			t.Fatalf("seed %d: unsat, but a case alone is sat\n%s", seed, full.String())
		case res.Answer == Sat && allUnsat:
			t.Fatalf("seed %d: sat, but every case alone is unsat\n%s", seed, full.String())
		case res.Answer == Sat || res.Answer == Unsat:
			verified++
		}
		var after []string
		for i := range prop.Cases {
			after = append(after, s32kCaseKey(&prop.Cases[i]))
		}
		slices.Sort(after)
		if !slices.Equal(after, got) {
			t.Fatalf("seed %d: verify changed the cases\n%s", seed, full.String())
		}
	}
	t.Logf("%d cases compared; %d of %d properties decided (sat or unsat) and checked against their cases alone", cases, verified, seeds)
	_ = big.NewRat
}
