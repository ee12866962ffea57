package trees

import (
	"math"
	"testing"
)

// TestS25fXGBThresholdInfinite: a split condition beyond float32's range
// (a JSON number such as 1E39 reads as float32 +Inf) sends left exactly
// the inputs whose float32 is not +Inf, those below MaxFloat32 plus half
// its ulp, as "float32(x) < t" (lang/spec.md) says; the threshold was
// +Inf, which sent 1e300 left too. -Inf sends nothing left.
func TestS25fXGBThresholdInfinite(t *testing.T) {
	edge := math.MaxFloat32 + 0x1p103 // the least float64 that rounds to float32 +Inf
	xs := []float64{0, 1, -1, math.MaxFloat32, edge, math.Nextafter(edge, 0), math.Nextafter(edge, math.Inf(1)),
		-edge, -math.Nextafter(edge, 0), 1e39, 1e300, -1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1)}
	for _, th := range []float32{float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32} {
		T := xgbThreshold(th)
		for _, x := range xs {
			if (float32(x) < th) != (x < T) {
				t.Errorf("threshold %v: x=%v: float32(x) < t is %v, x < T=%v is %v", th, x, float32(x) < th, T, x < T)
			}
		}
	}
}

// TestS25fXGBFloatsRoundOnce: split conditions, leaf values and dart
// weights are read as XGBoost reads them, each decimal rounded once to
// float32 (strconv.ParseFloat with bitSize 32), never through float64.
func TestS25fXGBFloatsRoundOnce(t *testing.T) {
	var xs xgbFloats
	in := `[1.00000005960464477539062500000001, 1.000000059604644775390625, 0.99999997019767761230468750000001, 1e39, -1e39, 1e-50, 16777217, 5E-1]`
	if err := xs.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	want := []float64{1.0000001192092896, 1, 1, math.Inf(1), math.Inf(-1), 0, 16777216, 0.5}
	for i := range want {
		if xs[i] != want[i] {
			t.Errorf("entry %d: %v, want %v", i, xs[i], want[i])
		}
	}
	for _, bad := range []string{`[null]`, `["1"]`, `[1,]`} {
		if err := xs.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}
