package cert

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"vigil/smt/smtlib"
	"vigil/symbolic"
)

// TestReview21vSureChunks: solveEach asks the policy facts' sure checks
// as disjunctions of at most sureChunk; a failing sure check at either
// side of a chunk's boundary, or in the last, short chunk, is found and
// named (its fact and witness), never skipped; with every check unsat
// the answer is nil. The other checks (init, consecution, safety) are
// asked one by one before the sure checks; a failing one among them is
// named too, whatever the sure checks say.
func TestReview21vSureChunks(t *testing.T) {
	m := &symbolic.Model{Name: "c", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 2000}}, Labels: []symbolic.Label{{Name: "a"}}}
	const n = 2*sureChunk + 7
	script := func(failing int, other string) *smtlib.Script {
		s := &smtlib.Script{Defs: "(declare-const |x| Int)", Cur: []string{"|x|"}}
		s.Checks = append(s.Checks, smtlib.Check{Name: "init", Formula: "false", Fact: -1})
		s.Checks = append(s.Checks, smtlib.Check{Name: "safety", Formula: other, Fact: -1})
		for i := 0; i < n; i++ {
			f := "(and (= |x| 1) (= |x| 2))"
			if i == failing {
				f = fmt.Sprintf("(= |x| %d)", 1000+i)
			}
			s.Checks = append(s.Checks, smtlib.Check{Name: "sure", Formula: f, Fact: i})
		}
		return s
	}
	facts := make(factList, n)
	for i := range facts {
		facts[i] = resolvedFact{Box: i, Label: 0, Sure: []symbolic.LabelID{0}}
	}
	ctx := context.Background()
	if err := solveEach(ctx, m, script(-1, "false"), facts); err != nil {
		t.Fatalf("every check unsat: %v", err)
	}
	for _, k := range []int{0, sureChunk - 1, sureChunk, sureChunk + 1, 2*sureChunk - 1, 2 * sureChunk, n - 1} {
		err := solveEach(ctx, m, script(k, "false"), facts)
		var f *Failure
		if !errors.As(err, &f) || f.Condition != "sure" || len(f.State) != 1 || f.State[0] != 1000+k {
			t.Errorf("sure check %d of %d fails: got %v", k, n, err)
			continue
		}
		if want := fmt.Sprintf("box %d ", k); !strings.Contains(f.msg, want) {
			t.Errorf("sure check %d: message %q does not name %q", k, f.msg, want)
		}
	}
	err := solveEach(ctx, m, script(sureChunk, "(= |x| 5)"), facts)
	var f *Failure
	if !errors.As(err, &f) || f.Condition != "safety" || f.State[0] != 5 {
		t.Errorf("safety fails beside a failing sure check: got %v", err)
	}
}
