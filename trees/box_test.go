package trees

import (
	"math"
	"strings"
	"testing"
)

// ParseBox reads closed and half-open bounds, leaves unlisted features
// unbounded, and says what is wrong with a bad box.
func TestParseBox(t *testing.T) {
	inf := math.Inf(1)
	b, err := ParseBox("0:0..30, 2:..<5", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := Box{{0, 30}, {-inf, inf}, {-inf, math.Nextafter(5, -inf)}}
	for i := range want {
		if b[i] != want[i] {
			t.Errorf("feature %d: %v, want %v", i, b[i], want[i])
		}
	}
	for _, c := range []struct{ in, want string }{
		{"0:1", "want FEATURE:LO..HI"},
		{"x:1..2", `feature "x" is not an index`},
		{"3:1..2", "feature 3 out of range: the model has features 0..2"},
		{"0:1..2,0:3..4", "feature 0 is given twice"},
		{"1:a..2", `"a" is not a number`},
		{"1:2..1", "the interval is empty"},
		{"0:Inf..Inf", `"Inf" is not a finite number; leave LO or HI empty for no bound`},
		{"0:..<-Inf", `"-Inf" is not a finite number`},
		{"0:..<-1.7976931348623157e308", "the interval is empty"},
		{"0:NaN..", `"NaN" is not a finite number`},
	} {
		if _, err := ParseBox(c.in, 3); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBox(%q): %v, want an error saying %q", c.in, err, c.want)
		}
	}
}
