package nn

import (
	"strings"
	"testing"
)

// TestVNNLIBLongNumberMessage: a number beyond float64 written with
// hundreds of digits is named by its ends and length, not printed whole.
func TestVNNLIBLongNumberMessage(t *testing.T) {
	big := "1" + strings.Repeat("0", 340)
	src := "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 (/ 1 " + big + ")))\n(assert (>= Y_0 5))\n"
	_, err := ParseVNNLIB(src)
	if err == nil {
		t.Fatal("10^340, beyond float64, was read")
	}
	if msg := err.Error(); strings.Contains(msg, big) || !strings.Contains(msg, "(341 characters)") {
		t.Errorf("message %q, want the number clipped", msg)
	}
}
