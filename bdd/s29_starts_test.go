package bdd_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// Shared by the session-29 division and product tests (s29d_div_test.go,
// s29r_div_test.go): expression builders, a model with no step whose
// start states are those where a condition holds, the exact count of
// those states by big-integer evaluation, the check of bdd's count
// against it, and the random campaign over such conditions.

func s29Bin(op symbolic.Op, a, b *symbolic.Expr) *symbolic.Expr {
	return &symbolic.Expr{Op: op, Args: []*symbolic.Expr{a, b}}
}

func s29Div(a *symbolic.Expr, k int) *symbolic.Expr {
	return &symbolic.Expr{Op: symbolic.OpDiv, K: k, Args: []*symbolic.Expr{a}}
}

func s29Mul(k int, a *symbolic.Expr) *symbolic.Expr {
	return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{a}}
}

func s29Neg(a *symbolic.Expr) *symbolic.Expr {
	return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{a}}
}

// s29StartModel: a model over vars whose only command never fires and
// whose one property starts where start holds.
func s29StartModel(name string, vars []symbolic.Var, start *symbolic.Cond) *symbolic.Model {
	return &symbolic.Model{
		Name:       name,
		Vars:       vars,
		Labels:     []symbolic.Label{{Name: "a"}},
		Commands:   []symbolic.Command{{Label: 0, Guard: symbolic.False(), Outcomes: []symbolic.Outcome{{Prob: 1}}}},
		Properties: []*symbolic.Property{{Name: "p", Start: start, Unsafe: symbolic.False()}},
	}
}

// s29BigCount: how many states of m's variable ranges satisfy e op c,
// evaluating e exactly with big integers.
func s29BigCount(m *symbolic.Model, e *symbolic.Expr, op symbolic.CmpOp, c *big.Int) int {
	n := 0
	gen.EachState(m, func(s symbolic.State) {
		v := e.EvalBig(s).Cmp(c)
		if [...]bool{v == 0, v != 0, v < 0, v <= 0, v > 0, v >= 0}[op] {
			n++
		}
	})
	return n
}

// s29CheckStarts checks bdd's start-state count of m's property against
// want (from s29BigCount): where no state satisfies the start condition
// bdd must fail; it may refuse only where a value of the condition may
// leave int64; with refuseWide it must refuse there too. It reports
// whether bdd encoded the condition.
func s29CheckStarts(t *testing.T, ctx context.Context, m *symbolic.Model, want int, desc string, refuseWide bool) bool {
	t.Helper()
	start := m.Properties[0].Start
	got, err := bdd.Explore(ctx, m, m.Properties[0], nil, bdd.Options{})
	switch {
	case want == 0:
		if err == nil {
			t.Errorf("%s: no state satisfies it, BDD explores %v", desc, got.Starts)
		}
		return false
	case err != nil:
		if m.CondFits(start) {
			t.Errorf("%s: every value fits in int64, BDD refuses: %v", desc, err)
		}
		return false
	case refuseWide && !m.CondFits(start):
		t.Errorf("%s: a value leaves int64, BDD counts %v", desc, got.Starts)
	case got.Starts.Int64() != int64(want):
		t.Errorf("%s: %d states satisfy it, BDD counts %v", desc, want, got.Starts)
	}
	return true
}

// s29Case is one random start condition e op c over vars; where says
// where the variables lie, for messages.
type s29Case struct {
	vars  []symbolic.Var
	e     *symbolic.Expr
	op    symbolic.CmpOp
	c     *big.Int
	where string
}

// s29StartCampaign draws n start conditions, seed i's from the generator
// PCG(i, stream), and checks bdd's start-state count of each against
// exact big-integer evaluation (s29CheckStarts); at least n/minDiv of
// them must be encoded.
func s29StartCampaign(t *testing.T, n int, stream uint64, minDiv int, draw func(r *rand.Rand) s29Case) {
	t.Helper()
	ctx := context.Background()
	encoded := 0
	for seed := range uint64(n) {
		k := draw(rand.New(rand.NewPCG(seed, stream)))
		start := symbolic.Compare(k.e, k.op, symbolic.Lit(int(k.c.Int64())))
		m := s29StartModel("div", k.vars, start)
		want := s29BigCount(m, k.e, k.op, k.c)
		desc := fmt.Sprintf("seed %d: %s: %s", seed, k.where, m.CondString(start))
		if s29CheckStarts(t, ctx, m, want, desc, false) {
			encoded++
		}
	}
	t.Logf("%d of %d encoded", encoded, n)
	if encoded < n/minDiv {
		t.Errorf("only %d of %d encoded", encoded, n)
	}
}
