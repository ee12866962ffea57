package explicit

import (
	"errors"
	"testing"
)

// TestMeasureMedians: Measure keeps the states and transitions f reports
// (and its error), and MedianFigures takes the median times and heap and
// recomputes the rates from them.
func TestMeasureMedians(t *testing.T) {
	keep := make([]byte, 1<<20)
	f, err := Measure("e", func() (int, int, any, error) { return 10, 20, keep, nil })
	if err != nil || f.Engine != "e" || f.States != 10 || f.Transitions != 20 {
		t.Fatalf("Measure = %+v, %v", f, err)
	}
	boom := errors.New("boom")
	if f, err := Measure("e", func() (int, int, any, error) { return 3, 0, nil, boom }); err != boom || f.States != 3 {
		t.Fatalf("Measure of a failing run = %+v, %v; want 3 states and its error", f, err)
	}
	runs := []Figures{
		{Engine: "e", States: 100, WallSeconds: 1, CPUSeconds: 4, HeapBytes: 1000},
		{Engine: "e", States: 100, WallSeconds: 3, CPUSeconds: 2, HeapBytes: 3000},
		{Engine: "e", States: 100, WallSeconds: 2, CPUSeconds: 1, HeapBytes: 2000},
	}
	m := MedianFigures(runs)
	if m.WallSeconds != 2 || m.CPUSeconds != 2 || m.HeapBytes != 2000 {
		t.Fatalf("medians = %+v; want wall 2, cpu 2, heap 2000", m)
	}
	if m.StatesPerWallSec != 50 || m.StatesPerSec != 50 || m.BytesPerState != 20 {
		t.Fatalf("rates = %+v; want 50 states/s both ways and 20 bytes/state", m)
	}
	runs[1].Unmeasured = true
	if m := MedianFigures(runs); !m.Unmeasured || m.BytesPerState != 0 {
		t.Fatalf("one unmeasured run: %+v; want unmeasured memory", m)
	}
}
