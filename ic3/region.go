package ic3

// Regions: the states a policy fact is certified over.
//
// A box of PolIC3 may hold linear atoms (relational.go): its states are
// the integer points of its bounding box (its bound literals) that
// satisfy the atoms. Where the policy's certifier implements
// symbolic.RegionCertifiable, a label is certified over that region
// itself (ExcludeWithin); otherwise over the bounding box, a superset, so
// an exclusion proved there holds in the region too. The certification
// cache then holds regions: an exclusion proved over region R answers for
// region R' only when R' ⊆ R (regionInside), and a failure over R' says
// something of R only when R' ⊆ R.

import "vigil/symbolic"

// region returns b's bounding box (bounds) and its linear atoms.
func (r *run) region(b box) (lo, hi []int, atoms []symbolic.Atom) {
	lo, hi = r.bounds(b)
	for _, l := range b {
		if l.Form != nil {
			atoms = append(atoms, symbolic.Atom{Form: l.Form, Upper: l.Upper, K: l.K})
		}
	}
	return lo, hi, atoms
}

// atomLits returns b's linear atoms as literals.
func atomLits(b box) box {
	var out box
	for _, l := range b {
		if l.Form != nil {
			out = append(out, l)
		}
	}
	return out
}

// subRegion is the box of the bounds lo..hi with b's linear atoms: the
// part of b's region within lo..hi, when lo..hi lies in b's bounding box.
func (r *run) subRegion(b box, lo, hi []int) box {
	return append(r.boxOf(lo, hi), atomLits(b)...).sorted()
}

// implied reports whether every state of the region lo..hi ∧ atoms
// satisfies the atom A: an atom of the region on the same form and side
// with a constant at least as tight, or the box alone (the form's range
// over it). A sound sufficient test.
func implied(A symbolic.Atom, lo, hi []int, atoms []symbolic.Atom) bool {
	for _, a := range atoms {
		if a.Form == A.Form && a.Upper == A.Upper && (A.Upper && a.K <= A.K || !A.Upper && a.K >= A.K) {
			return true
		}
	}
	flo, fhi := A.Form.RangeIn(lo, hi)
	if A.Upper {
		return fhi <= A.K
	}
	return flo >= A.K
}

// regionInside reports whether the region lo..hi ∧ atoms lies in the
// region LO..HI ∧ ATOMS: box containment, and every atom of the larger
// region implied by the smaller one (implied). Sound, not complete.
func regionInside(lo, hi []int, atoms []symbolic.Atom, LO, HI []int, ATOMS []symbolic.Atom) bool {
	if !inside(lo, hi, LO, HI) {
		return false
	}
	for _, A := range ATOMS {
		if !implied(A, lo, hi, atoms) {
			return false
		}
	}
	return true
}

// relevantAtoms drops the atoms the box lo..hi implies alone: they cut
// nothing, and a certifier without them answers over the box exactly.
func relevantAtoms(lo, hi []int, atoms []symbolic.Atom) []symbolic.Atom {
	var out []symbolic.Atom
	for _, a := range atoms {
		if !implied(a, lo, hi, nil) {
			out = append(out, a)
		}
	}
	return out
}

// certify asks the policy's certifier whether a is never chosen in the
// region lo..hi ∧ atoms given sure: over the region where the certifier
// implements symbolic.RegionCertifiable, else over the bounding box.
// used are the atoms the answer holds under (nil: the whole box).
func (l *learned) certify(lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (v symbolic.Exclusion, w symbolic.State, used []symbolic.Atom, err error) {
	if atoms = relevantAtoms(lo, hi, atoms); len(atoms) > 0 {
		if rc, ok := l.pol.(symbolic.RegionCertifiable); ok {
			v, w, err = rc.ExcludeWithin(lo, hi, atoms, a, sure)
			return v, w, atoms, err
		}
	}
	v, w, err = l.pol.Exclude(lo, hi, a, sure)
	return v, w, nil, err
}
