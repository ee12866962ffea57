package explicit_test

import (
	"context"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// TestS33aDepthAtLayerEnd: a search that gives way at its state limit
// reports as its depth the layer it was at, every state of fewer steps
// expanded; where it gave way at a layer's end (the whole layer expanded,
// none of the next), that is the next layer. It reported the layer
// before, one short, and auto (verify/auto.go), which takes the depth as
// "every state of fewer steps is checked", held a counterexample a layer
// longer than it had to. The invariant is checked for every limit against
// the layers of the complete search, sequential and parallel (s33e:
// par.go had the same bug; Workers 2 with the default chunk, a layer in
// one chunk, and with chunks of 1 and 3 states, the limit met inside a
// layer as well as at its end).
func TestS33aDepthAtLayerEnd(t *testing.T) {
	// x goes up by 1 or 2: layer k holds 2k-1 and 2k (k >= 1)
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
	// below[d]: the states of fewer than d steps
	below := func(d int) int {
		if d >= len(full.Layers) {
			return full.Stats.States
		}
		return int(full.Layers[d])
	}
	for _, c := range []struct {
		name string
		opt  explicit.Options
	}{
		{"sequential", explicit.Options{}},
		{"par chunk0", explicit.Options{Workers: 2, Block: 1}},
		{"par chunk1", explicit.Options{Workers: 2, Block: 1, Chunk: 1}},
		{"par chunk3", explicit.Options{Workers: 2, Block: 1, Chunk: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			atEnd := 0
			for limit := 2; limit < full.Stats.States; limit++ {
				opt := c.opt
				opt.MaxStates = limit
				res, err := explicit.Search(context.Background(), g, opt)
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
