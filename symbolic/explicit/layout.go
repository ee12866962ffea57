package explicit

import (
	"fmt"
	"math/bits"

	"vigil/symbolic"
)

// field locates one variable inside a packed state.
type field struct {
	word  int
	shift uint
	mask  uint64 // unshifted
	lo    int
}

// Layout maps a model's variables to bit fields of packed states.
type Layout struct {
	W      int // words per state (at least 1)
	Bits   int // bits used in all (the last word may be partly empty)
	fields []field
}

// NewLayout packs the variables of m first-fit in declaration order.
func NewLayout(m *symbolic.Model) (*Layout, error) {
	l := &Layout{fields: make([]field, len(m.Vars))}
	word, used := 0, uint(0)
	for i := range m.Vars {
		v := &m.Vars[i]
		if v.Hi < v.Lo {
			return nil, fmt.Errorf("explicit: variable %s (%s) has an empty range %d..%d", v.Name, v.Pos, v.Lo, v.Hi)
		}
		span := uint64(v.Hi) - uint64(v.Lo) // values - 1
		nb := uint(bits.Len64(span))
		if nb > 64 {
			return nil, fmt.Errorf("explicit: variable %s has too large a range", v.Name)
		}
		if used+nb > 64 {
			word++
			used = 0
		}
		var mask uint64
		if nb == 64 {
			mask = ^uint64(0)
		} else {
			mask = 1<<nb - 1
		}
		l.fields[i] = field{word: word, shift: used, mask: mask, lo: v.Lo}
		used += nb
		l.Bits += int(nb)
	}
	l.W = word + 1
	return l, nil
}

// Pack writes s into dst (len W). s must be in range.
func (l *Layout) Pack(s symbolic.State, dst []uint64) {
	clear(dst[:l.W])
	for i, f := range l.fields {
		dst[f.word] |= uint64(s[i]-f.lo) << f.shift
	}
}

// Unpack writes the packed state src into dst (len = number of variables).
func (l *Layout) Unpack(src []uint64, dst symbolic.State) {
	for i, f := range l.fields {
		dst[i] = int((src[f.word]>>f.shift)&f.mask) + f.lo
	}
}

// Get returns variable v of the packed state src.
func (l *Layout) Get(src []uint64, v symbolic.VarID) int {
	f := l.fields[v]
	return int((src[f.word]>>f.shift)&f.mask) + f.lo
}

// set writes value val (in range) of variable v into dst.
func (l *Layout) set(dst []uint64, v symbolic.VarID, val int) {
	f := &l.fields[v]
	dst[f.word] = dst[f.word]&^(f.mask<<f.shift) | uint64(val-f.lo)<<f.shift
}
