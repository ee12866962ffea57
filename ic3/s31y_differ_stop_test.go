package ic3

import (
	"context"
	"testing"
)

// TestS31yDifferStopIsNoPairs: differPairs gives up with no pairs and no
// error when its context is done (its doc comment), also while it encodes.
func TestS31yDifferStopIsNoPairs(t *testing.T) {
	m := s31dBig(t, 20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pairs, err := differPairs(ctx, m, m.Properties[0], nil)
	if err != nil || pairs != nil {
		t.Fatalf("differPairs under a cancelled context: %v, %v; want no pairs and no error", pairs, err)
	}
}
