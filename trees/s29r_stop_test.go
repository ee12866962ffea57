package trees

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestS29rStopSound: Excludes and Margin stopped at random points (a
// Stop channel closed after a random delay, mid-expansion included, and
// random node budgets) keep sound answers, checked against enumeration
// of every integer point of a small box: Proved only where a never
// wins, a Refuted witness where a wins, and [Lower, Upper] holding the
// true margin.
func TestS29rStopSound(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 80
	}
	stopped, proved, refuted := 0, 0, 0
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 0x29))
		nf, nclass := 2+r.IntN(2), 2+r.IntN(2)
		// thresholds at half-integers in 0.5 .. 9.5, so that the integer
		// points of [0, 9]^nf meet every split cell; small integer leaves:
		// exact sums
		e := s29Ensemble(t, r, s29Shape{Trees: 20 + r.IntN(100), Depth: 3 + r.IntN(4), Features: nf, Classes: nclass,
			Thresholds: 9, Early: true, Leaf: func(r *rand.Rand) float64 { return float64(r.IntN(9) - 4) }})
		box := make(Box, nf)
		lo, hi := make([]int, nf), make([]int, nf)
		for f := range box {
			lo[f] = r.IntN(5)
			hi[f] = lo[f] + r.IntN(6)
			box[f] = Interval{float64(lo[f]), float64(hi[f])}
		}
		a := r.IntN(nclass)
		var sure []int
		for c := 0; c < nclass; c++ {
			if c != a && r.IntN(3) > 0 {
				sure = append(sure, c)
			}
		}
		// the true values by enumeration: the excludes margin (min over
		// sure of f_a - f_s, ties to the earlier class) and whether a wins
		// somewhere; the Margin objective (f_a - max_c f_c)
		wins, best, bestM := false, math.Inf(-1), math.Inf(-1)
		x := make([]float64, nf)
		sc := make([]float64, nclass)
		var enum func(f int)
		enum = func(f int) {
			if f == nf {
				if err := e.Scores(x, sc); err != nil {
					t.Fatal(err)
				}
				m, w := math.Inf(1), true
				mm := math.Inf(1)
				for c := 0; c < nclass; c++ {
					if c != a {
						mm = min(mm, sc[a]-sc[c])
					}
				}
				for _, c := range sure {
					d := sc[a] - sc[c]
					m = min(m, d)
					if d < 0 || d == 0 && c < a {
						w = false
					}
				}
				if len(sure) == 0 {
					m = math.Inf(1)
				}
				wins = wins || w
				best, bestM = max(best, m), max(bestM, mm)
				return
			}
			for v := lo[f]; v <= hi[f]; v++ {
				x[f] = float64(v)
				enum(f + 1)
			}
		}
		enum(0)
		for trial := 0; trial < 4; trial++ {
			ctx, cancel := context.WithCancel(context.Background())
			opt := Options{Stop: ctx.Done()}
			var tm *time.Timer
			switch trial {
			case 0:
				cancel()
			case 1:
				opt.MaxNodes = 1 + r.IntN(20)
			default:
				tm = time.AfterFunc(time.Duration(r.IntN(150))*time.Microsecond, cancel)
			}
			d, err := e.Excludes(box, a, sure, opt)
			if err != nil {
				t.Fatal(err)
			}
			res, merr := e.Margin(box, a, opt)
			if tm != nil {
				tm.Stop()
			}
			cancel()
			if merr != nil {
				t.Fatal(merr)
			}
			if d.Stopped != StopNone || res.Stopped != StopNone {
				stopped++
			}
			desc := func() string {
				return "seed " + itoa(int(seed)) + " trial " + itoa(trial)
			}
			switch d.Verdict {
			case Proved:
				proved++
				if wins {
					t.Errorf("%s: Proved (stopped %q) but class %d wins at some point of the box", desc(), d.Stopped, a)
				}
			case Refuted:
				refuted++
				if err := e.Scores(d.Witness, sc); err != nil {
					t.Fatal(err)
				}
				for _, c := range sure {
					if sc[a] < sc[c] || sc[a] == sc[c] && c < a {
						t.Errorf("%s: Refuted, but class %d beats %d at the witness %v", desc(), c, a, d.Witness)
					}
				}
			}
			// nodes whose bound is at most 0 are dropped (the floor), so
			// Upper bounds the margin only where it lies above 0
			if len(sure) > 0 && (max(d.Upper, 0) < best-1e-9 || d.Lower > best+1e-9) {
				t.Errorf("%s: Excludes (stopped %q) bounds [%v, %v] miss the margin %v", desc(), d.Stopped, d.Lower, d.Upper, best)
			}
			if res.Upper < bestM-1e-9 || res.Lower > bestM+1e-9 || res.Exact && res.Lower != bestM {
				t.Errorf("%s: Margin (stopped %q, exact %v) bounds [%v, %v] miss %v", desc(), res.Stopped, res.Exact, res.Lower, res.Upper, bestM)
			}
		}
	}
	t.Logf("%d stopped, %d proved, %d refuted of %d", stopped, proved, refuted, 4*n)
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
