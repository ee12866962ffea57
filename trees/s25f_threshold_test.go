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
