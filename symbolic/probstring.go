package symbolic

import "math/big"

// ProbString renders the value num/den of a probability for a message:
// reduced, an integer as an integer ("-1", not "-1/1"; "2", not "4/2"),
// and den 0 as "undefined (division by zero)". No decimal: rounded, a
// value just above 1 (9223372036854775810/9223372036854775809) would read
// as 1, inside [0, 1].
func ProbString(num, den *big.Int) string {
	if den.Sign() == 0 {
		return "undefined (division by zero)"
	}
	return new(big.Rat).SetFrac(num, den).RatString()
}
