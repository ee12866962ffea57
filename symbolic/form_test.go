package symbolic

import "testing"

// RangeIn is the form's least and greatest value over a box: each term
// at the end of its variable's interval that makes it least (greatest).
func TestFormRangeIn(t *testing.T) {
	f := NewForm([]Term{{Coef: 2, Var: 0}, {Coef: -3, Var: 2}})
	lo, hi := []int{-1, 5, 0}, []int{4, 9, 2}
	least, greatest := f.RangeIn(lo, hi)
	if least != -2-6 || greatest != 8 {
		t.Errorf("RangeIn = %d..%d, want -8..8", least, greatest)
	}
	// Every state of the box lies within the range, and both ends are met.
	sawLeast, sawGreatest := false, false
	for x := lo[0]; x <= hi[0]; x++ {
		for z := lo[2]; z <= hi[2]; z++ {
			v := f.Eval(State{x, 0, z})
			if v < least || v > greatest {
				t.Fatalf("Eval(%d, _, %d) = %d outside %d..%d", x, z, v, least, greatest)
			}
			sawLeast = sawLeast || v == least
			sawGreatest = sawGreatest || v == greatest
		}
	}
	if !sawLeast || !sawGreatest {
		t.Errorf("range %d..%d not met by the box's states", least, greatest)
	}
}
