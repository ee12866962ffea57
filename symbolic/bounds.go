package symbolic

import "math/big"

// PathBounds bound a JANI property's path formula ("step-bounds" or one
// "reward-bounds" element of F, U) or make an expected reward the reward
// accumulated over the first steps ("step-instant" with "accumulate"):
// vigil prob reads them (prob/bounded.go); the other commands refuse a
// property that has them.
type PathBounds struct {
	// Steps: the bound counts steps; else Reward's accumulated value.
	Steps  bool
	Reward *Reward
	// Lower and Upper are the bounds' values (constant expressions of
	// the model), nil where there is none; a Strict one excludes its
	// value.
	Lower, Upper             *big.Rat
	LowerStrict, UpperStrict bool
	// Left is ψ of ψ U φ (nil: true): a run must satisfy it in every
	// state before the one of φ that counts, goal states included when a
	// lower bound makes runs go past them.
	Left *Cond
	// Instant marks an expected reward (Emin, Emax) accumulated over the
	// first Upper steps (Storm's C<=k); Query.Reward is the reward.
	Instant bool
	// Text is the bound as written, for messages ("[0, 5] steps").
	Text string
}

// StepRange is a step bound's range of step counts as Storm reads it: an
// exclusive lower bound l from l+1, an exclusive upper bound u to u-1; the
// lower end 0 when there is no lower bound. Upper must be set.
func (b *PathBounds) StepRange() (lo, hi *big.Int) {
	lo, hi = new(big.Int), new(big.Int).Set(b.Upper.Num())
	if b.Lower != nil {
		lo.Set(b.Lower.Num())
		if b.LowerStrict {
			lo.Add(lo, big.NewInt(1))
		}
	}
	if b.UpperStrict {
		hi.Sub(hi, big.NewInt(1))
	}
	return lo, hi
}
