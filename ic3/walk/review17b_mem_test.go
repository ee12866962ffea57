package walk

import (
	"context"
	"testing"
)

// TestReview17bSeenBytesHeld: the store of walked states stays within
// Options.SeenBytes (checked every 4,096 states, so within a few pages of
// it), not a table's doubling beyond it.
func TestReview17bSeenBytesHeld(t *testing.T) {
	src := `
model lanes
const L = 4000000
var z : 0 .. L
action tick when z < L -> z' = z + 1
policy rules pi {
    when true -> tick
}
property p {
    start z == 0
    unsafe false
    goal z == L
}
`
	g, dec := loadTestModel(t, src)
	for _, bound := range []int64{4 << 20, 9 << 20, 17 << 20} {
		w := New(g, dec, Options{Seed: 1, SeenBytes: bound})
		peak := 0
		for !w.Done() && w.Steps < 10_000_000 {
			if _, err := w.Walk(context.Background(), w.Steps+100_000); err != nil {
				t.Fatal(err)
			}
			if w.seen != nil {
				peak = max(peak, w.seen.Bytes())
			}
		}
		t.Logf("bound %d MB: peak %.1f MB (%.2f of the bound), %d states", bound>>20, float64(peak)/(1<<20), float64(peak)/float64(bound), w.Seen())
		if float64(peak) > 1.1*float64(bound) {
			t.Errorf("bound %d bytes: the store of walked states reached %d bytes (%.2f times the bound)", bound, peak, float64(peak)/float64(bound))
		}
	}
}
