package nn

import (
	"fmt"
	"strings"
	"testing"
)

// s31zProp is a one-input, one-output property whose bound on X_0 is the
// term t.
func s31zProp(t string) string {
	return "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (<= X_0 " + t + "))\n(assert (>= X_0 0))\n(assert (<= Y_0 0))\n"
}

// A term whose exact arithmetic grows its numbers with every operand is
// refused, naming the line and what to do, before big.Rat spends seconds
// on it: a 24 KB product of 4000 factors 1e999 took 29 s, a 51 KB sum of
// 1/p over 3000 primes 29 s (session 31's fuzzing). Terms whose numbers
// stay small, or whose one literal is long, still read exactly.
func TestS31zVNNLIBGrowingTerms(t *testing.T) {
	rep := func(s string, n int) string { return strings.TrimSpace(strings.Repeat(s+" ", n)) }
	var harmonic strings.Builder
	for k := 1; k <= 20000; k++ {
		fmt.Fprintf(&harmonic, " (/ 1 %d)", k)
	}
	for name, term := range map[string]string{
		"product":    "(* " + rep("1e999", 1000) + ")",
		"quotient":   "(/ 1 " + rep("1e999", 1000) + ")",
		"scaled var": "(* " + rep("1e-999", 1000) + " X_0)",
		"harmonic":   "(+" + harmonic.String() + ")",
		"difference": "(- 0" + strings.ReplaceAll(harmonic.String(), "(/ 1", "(/ 3") + ")",
	} {
		_, err := ParseVNNLIB(s31zProp(term))
		if err == nil || !strings.Contains(err.Error(), "vnnlib line 3:") || !strings.Contains(err.Error(), "write the value") {
			t.Errorf("%s: %v, want line 3's term refused", name, err)
		}
	}
	for name, term := range map[string]string{
		"cancelling":   "(* 1e999 1e-999 0.5)",
		"tiny divisor": "(/ 1 1e340 1e-340)",
		"long literal": "0." + strings.Repeat("3", 6000),
		"long sum":     "(+ " + rep("0.001", 5000) + ")",
		"thirds":       "(/ 1 " + rep("3", 500) + " " + rep("0.3333333333333333", 1) + ")",
	} {
		if _, err := ParseVNNLIB(s31zProp(term)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A number of more than maxNumberLen characters is refused, naming its
// line: big.Int reads decimal digits in quadratic time (a 1.6 MB literal
// took 6 s). One of maxNumberLen characters still reads exactly.
func TestS31zVNNLIBLongNumber(t *testing.T) {
	long := "0." + strings.Repeat("3", maxNumberLen-2)
	if _, err := ParseVNNLIB(s31zProp(long)); err != nil {
		t.Errorf("a number of %d characters: %v", len(long), err)
	}
	_, err := ParseVNNLIB(s31zProp(long + "7"))
	if err == nil || !strings.Contains(err.Error(), "vnnlib line 3: the term 0.33333333333333…33333337 (100001 characters) has more than 100000 characters") {
		t.Errorf("a number of %d characters: %v, want it refused", len(long)+1, err)
	}
}
