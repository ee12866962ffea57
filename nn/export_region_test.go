package nn

// RoundUpForTest and RoundDownForTest expose region.go's rounding steps
// to the external tests.
var (
	RoundUpForTest   = up
	RoundDownForTest = down
)
