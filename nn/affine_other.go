//go:build !amd64

package nn

// hasAffine16 is false where there is no vector kernel: evaluators use
// the scalar loop.
var hasAffine16 = false

func affine16(w *float64, x *float64, n int, b *float64, y *float64, relu bool) {
	panic("nn: affine16 without a vector kernel")
}
