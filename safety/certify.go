package safety

import (
	"fmt"

	"vigil/internal/vigilerr"
	"vigil/safety/cert"
	"vigil/symbolic/explicit"
)

// Certify returns the certificate of d's answer for state id, which d must
// have decided (Decide returned without error), in the file format of the
// independent checker (package vigil/safety/cert, `vigil cert check`).
// Kind safe: a policy over (state, budget) pairs closed under outcomes
// that avoids unsafe states and spends at most the budget on deviations;
// kind unsafe: a ranking where every available label of a rank-k pair has
// an outcome of smaller rank, rank 0 being unsafe states. The caller fills
// in Spec, Defines, Plaja, Property and Policy.
func Certify(d Decider, id uint32) (*cert.Certificate, error) {
	return CertifyStarts(d, []uint32{id})
}

// CertifyStarts returns one certificate for the states ids, which d must
// all have decided: kind safe or unsafe when they agree, else kind starts
// with each state listed under its verdict. The states share one table of
// entries, each entry written once. (WriteCertificate writes the same
// certificate without holding its entries.)
func CertifyStarts(d Decider, ids []uint32) (*cert.Certificate, error) {
	c, cf, err := newCertifier(d, ids)
	if err != nil {
		return nil, err
	}
	cf.emit = func(e cert.Entry) error { c.Entries = append(c.Entries, e); return nil }
	for _, id := range ids {
		if err := cf.add(id); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// newCertifier returns the certificate's header for the states ids (its
// kind, its state or states, everything but the entries and what the
// caller fills in) and the certifier that makes its entries, whose emit
// the caller sets.
func newCertifier(d Decider, ids []uint32) (*cert.Certificate, *certifier, error) {
	if c, ok := d.(interface{ certifiable() bool }); ok && !c.certifiable() {
		return nil, nil, fmt.Errorf("safety: %s keeps no certificates; use tarjan", d.Name())
	}
	if len(ids) == 0 {
		return nil, nil, fmt.Errorf("safety: no decided state to certify")
	}
	sp := d.Space()
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Model: sp.G.M.Name, Radius: cert.Inf}
	if d.Radius() >= 0 {
		c.Radius = int(d.Radius())
	}
	for _, v := range sp.G.M.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	cf := &certifier{d: d, doneSafe: make([]uint64, (sp.Len()+63)/64), doneUnsafe: map[int64]bool{}}
	for _, id := range ids {
		kind, err := cf.verdict(id)
		if err != nil {
			return nil, nil, err
		}
		if kind == cert.Safe {
			c.SafeStates = append(c.SafeStates, sp.State(id))
		} else {
			c.UnsafeStates = append(c.UnsafeStates, sp.State(id))
		}
	}
	switch {
	case len(ids) == 1 && len(c.SafeStates) == 1:
		c.Kind, c.State, c.SafeStates = cert.Safe, c.SafeStates[0], nil
	case len(ids) == 1:
		c.Kind, c.State, c.UnsafeStates = cert.Unsafe, c.UnsafeStates[0], nil
	default:
		c.Kind = cert.Starts
	}
	return c, cf, nil
}

// certifier makes the entries of one certificate over several roots and
// hands each to emit as it is made.
type certifier struct {
	d          Decider
	emit       func(cert.Entry) error
	doneSafe   []uint64       // states whose safe entry is made, a bit each (a map took 40 bytes a state)
	doneUnsafe map[int64]bool // (proof, budget) pairs whose unsafe entry is made
}

func (cf *certifier) safeDone(s uint32) bool { return cf.doneSafe[s/64]&(1<<(s%64)) != 0 }
func (cf *certifier) markSafe(s uint32)      { cf.doneSafe[s/64] |= 1 << (s % 64) }

// verdict returns d's answer for id: safe or unsafe, or an error when d
// has not decided it.
func (cf *certifier) verdict(id uint32) (cert.Kind, error) {
	d := cf.d
	sp, f := d.Space(), d.facts()
	b0 := int32(0)
	if d.Radius() >= 0 {
		b0 = int32(d.searched())
	}
	switch {
	case sp.Status(id) != explicit.Unsafe && (cf.terminalSafe(id) || f.yes[id] <= b0):
		return cert.Safe, nil
	case sp.Status(id) == explicit.Unsafe || f.no[id] >= b0:
		return cert.Unsafe, nil
	}
	return "", fmt.Errorf("safety: %s has not been decided", sp.Format(id))
}

// terminalSafe says whether s is a goal or a deadlock.
func (cf *certifier) terminalSafe(s uint32) bool {
	sp := cf.d.Space()
	return sp.Status(s) == explicit.Goal || (sp.IsExpanded(s) && sp.Deadlock(s))
}

// add makes the entries that prove d's answer for id (verdict).
func (cf *certifier) add(id uint32) error {
	d := cf.d
	sp, f := d.Space(), d.facts()
	b0 := int32(0)
	if d.Radius() >= 0 {
		b0 = int32(d.searched())
	}
	m := sp.G.M
	cost := func(s, k uint32) int32 {
		if d.Radius() < 0 || sp.PolicyGroup(s) == int32(k) {
			return 0
		}
		return 1
	}
	terminalSafe := cf.terminalSafe
	kind, err := cf.verdict(id)
	if err != nil {
		return err
	}
	switch kind {
	case cert.Safe:
		stack := []uint32{}
		if !terminalSafe(id) && !cf.safeDone(id) {
			stack = append(stack, id)
			cf.markSafe(id)
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			y, k := f.yes[s], f.yesGroup[s]
			if err := cf.emit(cert.Entry{S: sp.State(s), B: int(y), Label: m.Labels[sp.Label(k)].Name}); err != nil {
				return err
			}
			for _, t := range sp.Succ(k) {
				if sp.Status(t) == explicit.Unsafe {
					return vigilerr.Internalf("safety", "%s's safe choice %s leads to the unsafe state %s", sp.Format(s), m.Labels[sp.Label(k)].Name, sp.Format(t))
				}
				if terminalSafe(t) || cf.safeDone(t) {
					continue
				}
				if f.yes[t] > y-cost(s, k) {
					return vigilerr.Internalf("safety", "%s's safe choice %s leads to %s, not known safe with budget %d", sp.Format(s), m.Labels[sp.Label(k)].Name, sp.Format(t), y-cost(s, k))
				}
				cf.markSafe(t)
				stack = append(stack, t)
			}
		}
		return nil
	case cert.Unsafe:
		// proofAt returns the earliest proof of s with budget >= b.
		proofAt := func(s uint32, b int32) int32 {
			best := int32(-1)
			for p := f.head[s]; p >= 0; p = f.proofs[p].next {
				if f.proofs[p].b >= b && (best < 0 || p < best) {
					best = p
				}
			}
			return best
		}
		if sp.Status(id) == explicit.Unsafe {
			return cf.emit(cert.Entry{S: sp.State(id), B: int(b0)})
		}
		done := cf.doneUnsafe
		p0 := proofAt(id, b0)
		if p0 < 0 {
			return vigilerr.Internalf("safety", "no proof that %s is not safe", sp.Format(id))
		}
		// Each entry has the budget it is needed with (b), at most its
		// proof's: a proof with a larger budget may rest on a state that
		// only the larger budget reaches (LRTDP and LAO* poison a state
		// beyond the question's scope, see expandScoped), which the
		// smaller one does not follow.
		type item struct {
			s uint32
			p int32
			b int32
		}
		pkey := func(p, b int32) int64 { return int64(p)<<32 | int64(uint32(b)) }
		var stack []item
		if !done[pkey(p0, b0)] {
			stack = append(stack, item{id, p0, b0})
			done[pkey(p0, b0)] = true
		}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if err := cf.emit(cert.Entry{S: sp.State(it.s), B: int(it.b), Rank: int(it.p) + 1}); err != nil {
				return err
			}
			first, end := sp.Groups(it.s)
			if !sp.IsExpanded(it.s) {
				return vigilerr.Internalf("safety", "%s proven unsafe but never expanded", sp.Format(it.s))
			}
			for k := first; k < end; k++ {
				bp := it.b - cost(it.s, k)
				if bp < 0 {
					continue
				}
				var wit int32 = -1
				found := false
				for _, t := range sp.Succ(k) {
					if sp.Status(t) == explicit.Unsafe {
						found = true
						break
					}
					if q := proofAt(t, bp); q >= 0 && q < it.p {
						wit, found = q, true
						if !done[pkey(q, bp)] {
							done[pkey(q, bp)] = true
							stack = append(stack, item{t, q, bp})
						}
						break
					}
				}
				if !found {
					return vigilerr.Internalf("safety", "%s proven not %d-safe, but label %s has no outcome proven unsafe before", sp.Format(it.s), it.b, m.Labels[sp.Label(k)].Name)
				}
				_ = wit
			}
		}
		return nil
	}
	return fmt.Errorf("safety: %s has not been decided", sp.Format(id))
}
