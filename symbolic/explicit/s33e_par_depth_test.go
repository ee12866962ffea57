package explicit_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// TestS33eParDepthAtLayerEnd is TestS33aDepthAtLayerEnd for the parallel
// search (Workers 2, par.go): where it gives way at its state limit after
// a layer's last chunk (every state of the layer expanded, none of the
// next), its depth is the next layer. It reported the layer before, one
// short, as the sequential search did before s33a, and auto (verify)
// took the states of that depth as not all checked. Run with the default
// chunk (a layer in one chunk) and with chunks of 1 and 3 states (the
// limit met inside a layer as well as at its end).
func TestS33eParDepthAtLayerEnd(t *testing.T) {
	m := testutil.LoadSource(t, "m.spec", "model m\nvar x : 0 .. 60 = 0\n"+
		"action a when x < 59 -> x' = x + 1\naction b when x < 59 -> x' = x + 2\n"+
		"property p { unsafe x == 60 }\n")
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	full, err := explicit.Search(context.Background(), g, explicit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	below := func(d int) int {
		if d >= len(full.Layers) {
			return full.Stats.States
		}
		return int(full.Layers[d])
	}
	for _, chunk := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("chunk%d", chunk), func(t *testing.T) {
			atEnd := 0
			for limit := 2; limit < full.Stats.States; limit++ {
				res, err := explicit.Search(context.Background(), g, explicit.Options{MaxStates: limit, Workers: 2, Block: 1, Chunk: chunk})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != explicit.Unknown {
					continue
				}
				d, n := res.Stats.Depth, res.Stats.Expanded
				if n < below(d) {
					t.Errorf("limit %d: depth %d, but only %d of the %d states of fewer steps expanded", limit, d, n, below(d))
				}
				if n >= below(d+1) {
					t.Errorf("limit %d: depth %d, one short: every state of %d steps (%d) was expanded", limit, d, d, below(d+1))
				}
				if len(res.Layers) != d+1 {
					t.Errorf("limit %d: depth %d but %d layers", limit, d, len(res.Layers))
				}
				if n == below(d) {
					atEnd++
				}
			}
			if atEnd == 0 {
				t.Error("no limit made the search give way at a layer's end")
			}
		})
	}
}
