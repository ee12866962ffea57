package trees

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseBox reads a box over nf features written as vigil trees takes it:
// comma-separated FEATURE:LO..HI (closed) or FEATURE:LO..<HI (half-open),
// "0:0..30,1:..<5"; LO or HI may be empty for no bound, and features not
// listed are unbounded.
func ParseBox(s string, nf int) (Box, error) {
	box := make(Box, nf)
	for f := range box {
		box[f] = Interval{Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	if strings.TrimSpace(s) == "" {
		return box, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		fs, rng, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("%q: want FEATURE:LO..HI", part)
		}
		f, err := strconv.Atoi(strings.TrimSpace(fs))
		if err != nil || f < 0 {
			return nil, fmt.Errorf("%q: feature %q is not an index", part, fs)
		}
		if f >= nf {
			return nil, fmt.Errorf("%q: feature %d out of range: the model has features 0..%d", part, f, nf-1)
		}
		if seen[f] {
			return nil, fmt.Errorf("feature %d is given twice", f)
		}
		seen[f] = true
		los, his, ok := strings.Cut(rng, "..")
		if !ok {
			return nil, fmt.Errorf("%q: want FEATURE:LO..HI", part)
		}
		open := strings.HasPrefix(his, "<")
		his = strings.TrimPrefix(his, "<")
		iv := Interval{Lo: math.Inf(-1), Hi: math.Inf(1)}
		if t := strings.TrimSpace(los); t != "" {
			if iv.Lo, err = parseBound(part, t); err != nil {
				return nil, err
			}
		}
		if t := strings.TrimSpace(his); t != "" {
			if iv.Hi, err = parseBound(part, t); err != nil {
				return nil, err
			}
			if open {
				iv.Hi = math.Nextafter(iv.Hi, math.Inf(-1))
			}
		}
		if !(iv.Lo <= iv.Hi) || math.IsInf(iv.Lo, 1) || math.IsInf(iv.Hi, -1) {
			return nil, fmt.Errorf("%q: the interval is empty", part)
		}
		box[f] = iv
	}
	return box, nil
}

// parseBound reads one bound of a box's interval (text of part): a finite
// number; an infinite one is written as an empty bound.
func parseBound(part, t string) (float64, error) {
	x, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // 1e400 is ±Inf: not finite, below
		return 0, fmt.Errorf("%q: %q is not a number", part, t)
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q: %q is not a finite number; leave LO or HI empty for no bound (0:..5)", part, t)
	}
	return x, nil
}
