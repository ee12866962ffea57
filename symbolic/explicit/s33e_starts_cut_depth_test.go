package explicit_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// TestS33eStartsCutDepth: a search whose state limit cut the enumeration
// of the start states took only some of them, so layer 0 is not expanded
// whole and its depth stays 0. Since s33a a search that gave way at a
// layer's end reported the next layer; after a cut it reported depth 1
// where 196 of the 201 start states were never looked at, and auto took
// them as checked: it answered the hunter's counterexample of 1 step
// although a start state has a range error (0 steps out; bfs reports
// it). Sequential and parallel (Workers 2).
func TestS33eStartsCutDepth(t *testing.T) {
	m := testutil.LoadSource(t, "s.spec", "model s\nvar x : 0 .. 200 = 0\nvar y : 0 .. 1 = 0\n"+
		"action a when x <= 100 -> y' = 1\naction b when x == 200 -> x' = x + 1\n"+
		"property p { start y == 0 unsafe y == 1 }\n")
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		for _, limit := range []int{2, 5, 50, 200} {
			t.Run(fmt.Sprintf("workers%d/limit%d", workers, limit), func(t *testing.T) {
				res, err := explicit.Search(context.Background(), g, explicit.Options{MaxStates: limit, Workers: workers, Block: 1, StopAtUnsafe: true})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != explicit.Unknown {
					t.Fatalf("verdict %v, want unknown (state limit)", res.Verdict)
				}
				if res.Stats.Depth != 0 {
					t.Errorf("depth %d after a state limit of %d cut the 201 start states (%d taken)", res.Stats.Depth, limit, res.Stats.Starts)
				}
			})
		}
	}
}
