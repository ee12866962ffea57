package nn

import "golang.org/x/sys/cpu"

// On amd64 processors with AVX2, evaluators sum sixteen rows of a layer
// at once in vector registers (affine_amd64.s). Each lane computes one
// row exactly as the scalar loop does: the same products and sums, in the
// same order, each rounded on its own, so the bits are the same
// (TestAffineKernel); only NaN payloads may differ, which no reader of a
// score looks at.
var hasAffine16 = cpu.X86.HasAVX2

//go:noescape
func affine16(w *float64, x *float64, n int, b *float64, y *float64, relu bool)
