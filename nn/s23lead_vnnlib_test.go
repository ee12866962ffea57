package nn

import (
	"strings"
	"testing"
)

// TestVNNLIBLongNumberMessage: a refused number written with hundreds of
// digits is named by its ends and length, not printed whole; a divisor
// beyond float64, 10^340, is read exactly (s24l_vnnlib_beyond_float64).
func TestVNNLIBLongNumberMessage(t *testing.T) {
	big := "1" + strings.Repeat("0", 340)
	src := "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 (/ 1 " + big + ")))\n(assert (>= Y_0 5))\n"
	if _, err := ParseVNNLIB(src); err != nil {
		t.Fatalf("10^-340, a finite bound, was refused: %v", err)
	}
	huge := big + "e2000"
	src = strings.Replace(src, big, huge, 1)
	_, err := ParseVNNLIB(src)
	if err == nil {
		t.Fatal("10^2340 was read")
	}
	if msg := err.Error(); strings.Contains(msg, big) || !strings.Contains(msg, "(346 characters)") {
		t.Errorf("message %q, want the number clipped", msg)
	}
}
