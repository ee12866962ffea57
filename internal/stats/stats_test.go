package stats

import (
	"fmt"
	"math"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{-1, -1, 5}, -1},
	} {
		in := append([]float64(nil), c.in...)
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Errorf("Median reordered its argument: %v, was %v", c.in, in)
			}
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Mean(nil)) {
		t.Error("the median and mean of no values must be NaN, not a number a table would print")
	}
}

func TestMean(t *testing.T) {
	if got := Mean([]float64{1, 2, 6}); got != 3 {
		t.Errorf("Mean = %v, want 3", got)
	}
}

func TestPAR2(t *testing.T) {
	for _, c := range []struct {
		s      float64
		solved bool
		want   float64
	}{
		{1.5, true, 1.5},
		{1.5, false, 20},
		{11, true, 20}, // past the limit counts as unsolved
		{10, true, 10},
	} {
		if got := PAR2(c.s, c.solved, 10); got != c.want {
			t.Errorf("PAR2(%v, %v, 10) = %v, want %v", c.s, c.solved, got, c.want)
		}
	}
}

func TestMedianRatio(t *testing.T) {
	got := MedianRatio([]float64{1, 4, 0.01}, []float64{2, 1, 0})
	// ratios 0.5, 4, 0.01/0.001 = 10
	if got != 4 {
		t.Errorf("MedianRatio = %v, want 4", got)
	}
	// Two times under the floor are equal as far as it can tell: 1, not
	// 0.0002/0.001 = 0.2; a zero time over a zero time is 1, not 0.
	if got := MedianRatio([]float64{0.0002, 0}, []float64{0.0002, 0}); got != 1 {
		t.Errorf("MedianRatio of equal times under the floor = %v, want 1", got)
	}
	if got := Ratio(0, 0.5); got != 0.002 {
		t.Errorf("Ratio(0, 0.5) = %v, want 0.002 (0 counted as 0.001)", got)
	}
	if !math.IsNaN(MedianRatio(nil, nil)) {
		t.Error("MedianRatio of no pairs must be NaN")
	}
}

func ExampleMedianRatio() {
	ic3 := []float64{0.2, 3.0, 12.0}
	spacer := []float64{0.4, 1.0, 3.0}
	fmt.Printf("median ic3/spacer %.2f\n", MedianRatio(ic3, spacer))
	// Output: median ic3/spacer 3.00
}
