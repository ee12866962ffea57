package prob

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestS32qLeaveRatioEnclosure: leaveRatio's interval must hold the exact
// (r + Σ p_e·v_e) / Σ p_e for rationals p_e that the float64 entries
// stand for (rounded to nearest, some below 2^-1075: a float64 0),
// rewards from 0 through 1e300 and MaxFloat64 (rlo = rhi), values from
// 0 to 1e300, leaving entries from 2^-1100 to 2^-901, one to four of
// them (and one staying with the rest).
func TestS32qLeaveRatioEnclosure(t *testing.T) {
	r := rand.New(rand.NewPCG(0x532, 0x5e1f))
	checked, bounded := 0, 0
	for range 20000 {
		k := 1 + r.IntN(4)
		m := &Model{EntryStart: []uint32{0}}
		var ps []*big.Rat
		vals := map[uint32]float64{}
		for e := range k {
			x := []int{901, 950, 1022, 1030, 1060, 1074, 1075, 1076, 1100}[r.IntN(9)]
			// p = (1 + f)·2^-x, f a random fraction (not a float64's)
			f := big.NewRat(int64(r.IntN(1<<20)), 1<<20+1)
			p := new(big.Rat).Add(big.NewRat(1, 1), f)
			p.Mul(p, new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(x))))
			pf, _ := p.Float64()
			m.To = append(m.To, uint32(e+1))
			m.P = append(m.P, pf)
			ps = append(ps, p)
			vals[uint32(e+1)] = []float64{0, 1, 0.5, 1e300, 1e-300, 7, 0x1p1000}[r.IntN(7)]
		}
		m.To = append(m.To, 0) // the self-loop
		m.P = append(m.P, 1)
		m.EntryStart = append(m.EntryStart, uint32(len(m.To)))
		rw := []float64{0, 1, 1e300, 1e-300, math.MaxFloat64, 0x1p-1074}[r.IntN(6)]
		iv, ok := leaveRatio(m, 0, func(t uint32) bool { return t != 0 }, func(t uint32) float64 { return vals[t] }, rw, rw)
		if !ok {
			t.Fatal("no leaving entry found")
		}
		num, den := new(big.Rat).SetFloat64(rw), new(big.Rat)
		for e, p := range ps {
			den.Add(den, p)
			num.Add(num, new(big.Rat).Mul(p, new(big.Rat).SetFloat64(vals[uint32(e+1)])))
		}
		want := new(big.Rat).Quo(num, den)
		checked++
		lo := new(big.Rat).SetFloat64(iv.lo)
		if math.IsNaN(iv.lo) || math.IsNaN(iv.hi) || lo == nil || lo.Cmp(want) > 0 {
			wf, _ := want.Float64()
			t.Fatalf("lower end %v above %v (entries %v, values %v, reward %v)", iv.lo, wf, m.P, vals, rw)
		}
		if hi := new(big.Rat).SetFloat64(iv.hi); hi != nil {
			bounded++
			if hi.Cmp(want) < 0 {
				wf, _ := want.Float64()
				t.Fatalf("upper end %v below %v (entries %v, values %v, reward %v)", iv.hi, wf, m.P, vals, rw)
			}
		}
	}
	t.Logf("%d ratios checked, %d with a finite upper end", checked, bounded)
}
