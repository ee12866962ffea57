package bdd_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestS29rPropUEdge: on models at the int64 edges written as .spec text
// (gen.EdgeSpec with wide ranges: ranges next to ±2^63, constants -2^63
// and 2^63-1 in sums, divisions, products, arrays at variable indices),
// BDD Prop-U (radius inf) answers every state as explicit Prop-U does:
// the same verdict, or a range error in both. bdd may refuse a model
// (a value beyond int64), never answer differently.
func TestS29rPropUEdge(t *testing.T) {
	ctx := context.Background()
	n := 150
	if testing.Short() {
		n = 50
	}
	models, asked, errs, refused := 0, 0, 0, 0
	for seed := uint64(1); models < n && seed < uint64(8*n); seed++ {
		src := gen.EdgeSpec(seed, true)
		m, _ := lang.LoadSource(fmt.Sprintf("edge%d.spec", seed), []byte(src), lang.Options{})
		if m == nil || len(m.Properties) == 0 {
			continue
		}
		total := big.NewInt(1)
		for _, v := range m.Vars {
			total.Mul(total, big.NewInt(int64(v.Hi-v.Lo+1)))
		}
		if total.Cmp(big.NewInt(3000)) > 0 {
			continue
		}
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			continue // no start state, say: Prop-U asks every state anyway, but New needs one
		}
		models++
		res, err := bdd.PropU(ctx, m, prop, nil, safety.Inf, nil, bdd.Options{})
		if err != nil {
			if !strings.Contains(err.Error(), "bits") {
				t.Errorf("seed %d: BDD Prop-U: %v\n%s", seed, err, src)
			}
			refused++
			fits := m.CondFits(prop.Unsafe) && (prop.Start == nil || m.CondFits(prop.Start))
			for _, c := range m.Commands {
				fits = fits && m.CondFits(c.Guard)
				for _, o := range c.Outcomes {
					for _, a := range o.Assigns {
						fits = fits && m.Fits(a.Value)
					}
				}
			}
			if fits {
				t.Logf("seed %d: every value fits in int64, BDD refuses: %v", seed, err)
			}
			continue
		}
		for _, s := range gen.States(m) {
			sp := safety.NewSpace(g, nil)
			d := safety.NewPropU(sp, safety.Inf)
			id, _ := sp.Intern(s)
			want, werr := d.Decide(ctx, id)
			got, gerr := res.Decide([]symbolic.State{s})
			asked++
			var re *explicit.RangeError
			switch {
			case werr != nil:
				errs++
				if gerr == nil || !errors.As(gerr, &re) {
					t.Fatalf("seed %d, state %s: explicit fails (%v), BDD says %v (%v)\n%s", seed, m.FormatState(s), werr, got, gerr, src)
				}
			case gerr != nil:
				t.Fatalf("seed %d, state %s: explicit says safe=%v, BDD fails: %v\n%s", seed, m.FormatState(s), want, gerr, src)
			case (got[0] == bdd.AnswerSafe) != want || got[0] == bdd.AnswerUnknown:
				t.Fatalf("seed %d, state %s: explicit says safe=%v, BDD %v\n%s", seed, m.FormatState(s), want, got[0], src)
			}
		}
	}
	t.Logf("%d models (%d refused by bdd), %d states asked, %d range errors in both", models, refused, asked, errs)
	if models < n/2 || asked < n {
		t.Errorf("only %d models, %d states", models, asked)
	}
}
