// Package stats holds the few statistics vigil's benchmarks report: the
// mean and median of a sample, PAR-2 scores and the median ratio of two
// engines' times. vigil batch's reports and vigil bench use it, so that
// every figure of the repository is computed one way.
package stats

import (
	"math"
	"slices"
)

// Mean is the arithmetic mean of xs, NaN for an empty sample.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Median is the median of xs (the mean of the two middle values for an
// even count), NaN for an empty sample. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// PAR2 is the penalized average runtime's contribution of one run: its
// time when it solved the instance, twice the limit when it did not (nor
// when it ran past the limit).
func PAR2(seconds float64, solved bool, limit float64) float64 {
	if !solved || seconds > limit {
		return 2 * limit
	}
	return seconds
}

// MinRatioTime is the smallest time a ratio divides by: a run measured
// below a millisecond counts as one, so that a ratio stays finite.
const MinRatioTime = 1e-3

// Ratio is a's time over b's, both counted as at least MinRatioTime: a
// floor on the divisor alone would make two equal times under it (0.2 ms
// each) a ratio of 0.2, "five times faster".
func Ratio(a, b float64) float64 {
	return math.Max(a, MinRatioTime) / math.Max(b, MinRatioTime)
}

// MedianRatio is the median of Ratio(a[i], b[i]) over the pairs, NaN when
// there are none. a and b have the same length.
func MedianRatio(a, b []float64) float64 {
	rs := make([]float64, len(a))
	for i := range a {
		rs[i] = Ratio(a[i], b[i])
	}
	return Median(rs)
}
