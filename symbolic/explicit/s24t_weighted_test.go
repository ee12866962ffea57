package explicit

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// maxSource is a rand source whose Float64 is the largest below 1.
type maxSource struct{}

func (maxSource) Uint64() uint64 { return ^uint64(0) }

// TestS24tWeightedNeverPicksZero: when rounding left the draw past the
// sum of the weights, vigil run --outcomes weighted took the last
// outcome, which may have weight 0 (it never happens).
func TestS24tWeightedNeverPicksZero(t *testing.T) {
	os := []symbolic.Outcome{{Prob: 0.1}, {Prob: 0.2}, {Prob: 0.7}, {Prob: 0}}
	if i := pickWeighted(rand.New(maxSource{}), os, nil); i == 3 {
		t.Errorf("picked outcome %d, of weight 0", i+1)
	}
}
