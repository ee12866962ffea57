#include "textflag.h"

// func affine16(w *float64, x *float64, n int, b *float64, y *float64, relu bool)
//
// Sixteen rows of an affine layer side by side (affine_amd64.go): w holds
// the rows' weights interleaved (w[16*j+r] is row r's weight of input j),
// b their biases. Each row's sum starts at its bias and adds w*x for
// j = 0 .. n-1 in order, each product and sum rounded on its own (VMULPD,
// then VADDPD; never a fused multiply-add), as the scalar loop does. The
// operands keep the scalar loop's order too (w*x, then s+p), so that where
// both are NaN the result carries the same one. With relu, each sum s
// becomes (0 > s) ? 0 : s (VMAXPD with 0 first), which is lang/spec.md's
// ReLU exactly: -0 and NaN stay as they are.
TEXT ·affine16(SB), NOSPLIT, $0-41
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ b+24(FP), AX
	MOVQ y+32(FP), DI
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	TESTQ CX, CX
	JEQ done

loop:
	VBROADCASTSD (DX), Y4
	VMOVUPD 0(SI), Y5
	VMOVUPD 32(SI), Y6
	VMOVUPD 64(SI), Y7
	VMOVUPD 96(SI), Y8
	VMULPD Y4, Y5, Y5
	VMULPD Y4, Y6, Y6
	VMULPD Y4, Y7, Y7
	VMULPD Y4, Y8, Y8
	VADDPD Y5, Y0, Y0
	VADDPD Y6, Y1, Y1
	VADDPD Y7, Y2, Y2
	VADDPD Y8, Y3, Y3
	ADDQ $128, SI
	ADDQ $8, DX
	DECQ CX
	JNE loop

done:
	MOVBQZX relu+40(FP), BX
	TESTQ BX, BX
	JEQ store
	VXORPD Y9, Y9, Y9
	VMAXPD Y0, Y9, Y0
	VMAXPD Y1, Y9, Y1
	VMAXPD Y2, Y9, Y2
	VMAXPD Y3, Y9, Y3

store:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET
