package nn

import (
	"slices"
	"time"
)

// cornerInputs is the most inputs of positive width for which the
// corner check (cornerWitness) tries every corner of a case's box: 1,024
// evaluations of the network.
const cornerInputs = 10

// cornerTime bounds the corner check's work, over all the cases left
// undecided (it runs after the deadline when that ended the branch and
// bound): evaluations and bounds stop once it has passed, so --timeout
// stays within a second on any network (one CROWN bound of a large
// convolutional network takes a good part of it) and any number of cases
// (a VNNLIB disjunction of 40 boxes, each given 200 ms, ran 8 s late).
const cornerTime = 200 * time.Millisecond

// cornerBoxes is how many of the least-proved open boxes of each
// input-split run the corner check tries.
const cornerBoxes = 8

// cornerWitness is the last try of a case that branch and bound left
// undecided: where the largest value of a constraint's output equals its
// bound exactly, at a corner of the box, no box around that corner closes
// (proving needs the bound beaten by the rounding slack) and a
// non-strict property's counterexample is the corner itself, which the
// searches need not meet (random points, PGD from the centre; the
// bounding's corner, tryCorner, only under CROWN and for the row with the
// best bound). It evaluates the network (float64, lang/spec.md) at
//   - every corner of box when at most cornerInputs of its inputs have
//     positive width,
//   - for box and the least-proved open boxes of the input-split runs,
//     the corner where the CROWN linear lower bound of each row is least,
//
// until the time until (the corner check's end, cornerTime after it
// began, for all of a property's cases), and returns the first input there that violates
// every row (p.witness: the property's numbers compared exactly, < where
// the property is strict, <= where not), moved into p.points; nil when
// none does.
// Nothing here proves: a case without a witness stays unknown.
func (p *prover) cornerWitness(box Box, until time.Time) []float64 {
	late := func() bool { return time.Now().After(until) || p.stopped() }
	if len(p.d.Rows) == 0 || len(box.Lo) == 0 || late() {
		return nil
	}
	nin := len(box.Lo)
	x := make([]float64, nin)
	var wide []int
	for i := range box.Lo {
		if box.Hi[i] > box.Lo[i] {
			wide = append(wide, i)
		}
	}
	if len(wide) <= cornerInputs {
		for mask := 0; mask < 1<<len(wide); mask++ {
			if mask%64 == 63 && late() {
				return nil
			}
			copy(x, box.Lo)
			for k, i := range wide {
				if mask>>k&1 == 1 {
					x[i] = box.Hi[i]
				}
			}
			if p.witness(x) {
				return slices.Clone(x)
			}
		}
	}
	boxes := []Box{box}
	for r := range p.runs {
		h := slices.Clone(p.runs[r].h)
		slices.SortFunc(h, func(a, b node) int {
			switch {
			case a.score < b.score:
				return -1
			case a.score > b.score:
				return 1
			}
			return 0
		})
		for i := 0; i < len(h) && i < cornerBoxes; i++ {
			boxes = append(boxes, h[i].box)
		}
	}
	m := len(p.off)
	for _, bx := range boxes {
		if late() {
			return nil
		}
		p.b.lower(bx, p.rows, CROWN)
		if len(p.b.lastA) != m*nin {
			continue
		}
		for row := 0; row < m; row++ {
			for i, a := range p.b.lastA[row*nin : (row+1)*nin] {
				x[i] = bx.Lo[i]
				if a < 0 {
					x[i] = bx.Hi[i]
				}
			}
			if p.witness(x) {
				return slices.Clone(x)
			}
		}
	}
	return nil
}

// stopped reports that opt.Stop is closed (Ctrl-C): the corner check,
// which runs after the deadline has passed, is skipped then.
func (p *prover) stopped() bool {
	if p.opt.Stop == nil {
		return false
	}
	select {
	case <-p.opt.Stop:
		return true
	default:
		return false
	}
}
