package nn

import "fmt"

// Excludes answers PolIC3's decision query (paper 004, Theorem 3) over a
// box of network inputs: is output a never the policy's choice when the
// outputs in sure are all available? a is excluded at x if some a' in
// sure, a' != a, scores higher than a, or equally high and a' < a (ties go
// to the earlier output, as symbolic.Choose resolves them).
//
// Proved means a is excluded everywhere in the box (sound: established by
// bounds or exact evaluation at single points, never by sampling).
// Refuted comes with a witness input in the box where a beats every
// output of sure under exact evaluation. Unknown means the limits of opt
// ran out first.
func (n *Network) Excludes(box Box, a int, sure []int, opt Options) (Result, error) {
	d, err := n.exclusion(a, sure)
	if err != nil {
		return Result{}, err
	}
	return n.Prove(box, d, opt)
}

// exclusion builds the disjunction "some a' in sure beats a".
func (n *Network) exclusion(a int, sure []int) (Disjunction, error) {
	nout := n.Outputs()
	if a < 0 || a >= nout {
		return Disjunction{}, fmt.Errorf("nn: output %d out of range: the network has %d outputs", a, nout)
	}
	var d Disjunction
	seen := map[int]bool{}
	for _, o := range sure {
		if o < 0 || o >= nout {
			return Disjunction{}, fmt.Errorf("nn: output %d out of range: the network has %d outputs", o, nout)
		}
		if o == a || seen[o] {
			continue
		}
		seen[o] = true
		row := make([]float64, nout)
		row[o], row[a] = 1, -1
		d.Rows = append(d.Rows, row)
		d.Off = append(d.Off, 0)
		d.Strict = append(d.Strict, o < a)
	}
	return d, nil
}
