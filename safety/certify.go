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
// entries, each entry written once.
func CertifyStarts(d Decider, ids []uint32) (*cert.Certificate, error) {
	if c, ok := d.(interface{ certifiable() bool }); ok && !c.certifiable() {
		return nil, fmt.Errorf("safety: %s keeps no certificates; use tarjan", d.Name())
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("safety: no decided state to certify")
	}
	sp := d.Space()
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Model: sp.G.M.Name, Radius: cert.Inf}
	if d.Radius() >= 0 {
		c.Radius = int(d.Radius())
	}
	for _, v := range sp.G.M.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	cf := &certifier{d: d, c: c, doneSafe: map[uint32]bool{}, doneUnsafe: map[int64]bool{}}
	for _, id := range ids {
		kind, err := cf.add(id)
		if err != nil {
			return nil, err
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
	return c, nil
}

// certifier collects the entries of one certificate over several roots.
type certifier struct {
	d          Decider
	c          *cert.Certificate
	doneSafe   map[uint32]bool // states whose safe entry is written
	doneUnsafe map[int64]bool  // (proof, budget) pairs whose unsafe entry is written
}

// add writes the entries that prove d's answer for id and returns it.
func (cf *certifier) add(id uint32) (cert.Kind, error) {
	d, c := cf.d, cf.c
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
	terminalSafe := func(s uint32) bool {
		return sp.Status(s) == explicit.Goal || (sp.IsExpanded(s) && sp.Deadlock(s))
	}
	safe := sp.Status(id) != explicit.Unsafe && (terminalSafe(id) || f.yes[id] <= b0)
	unsafe := sp.Status(id) == explicit.Unsafe || f.no[id] >= b0
	switch {
	case safe:
		done := cf.doneSafe
		stack := []uint32{}
		if !terminalSafe(id) && !done[id] {
			stack = append(stack, id)
			done[id] = true
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			y, k := f.yes[s], f.yesGroup[s]
			c.Entries = append(c.Entries, cert.Entry{S: sp.State(s), B: int(y), Label: m.Labels[sp.Label(k)].Name})
			for _, t := range sp.Succ(k) {
				if sp.Status(t) == explicit.Unsafe {
					return "", vigilerr.Internalf("safety", "%s's safe choice %s leads to the unsafe state %s", sp.Format(s), m.Labels[sp.Label(k)].Name, sp.Format(t))
				}
				if terminalSafe(t) || done[t] {
					continue
				}
				if f.yes[t] > y-cost(s, k) {
					return "", vigilerr.Internalf("safety", "%s's safe choice %s leads to %s, not known safe with budget %d", sp.Format(s), m.Labels[sp.Label(k)].Name, sp.Format(t), y-cost(s, k))
				}
				done[t] = true
				stack = append(stack, t)
			}
		}
		return cert.Safe, nil
	case unsafe:
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
			c.Entries = append(c.Entries, cert.Entry{S: sp.State(id), B: int(b0)})
			return cert.Unsafe, nil
		}
		done := cf.doneUnsafe
		p0 := proofAt(id, b0)
		if p0 < 0 {
			return "", vigilerr.Internalf("safety", "no proof that %s is not safe", sp.Format(id))
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
			c.Entries = append(c.Entries, cert.Entry{S: sp.State(it.s), B: int(it.b), Rank: int(it.p) + 1})
			first, end := sp.Groups(it.s)
			if !sp.IsExpanded(it.s) {
				return "", vigilerr.Internalf("safety", "%s proven unsafe but never expanded", sp.Format(it.s))
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
					return "", vigilerr.Internalf("safety", "%s proven not %d-safe, but label %s has no outcome proven unsafe before", sp.Format(it.s), it.b, m.Labels[sp.Label(k)].Name)
				}
				_ = wit
			}
		}
		return cert.Unsafe, nil
	}
	return "", fmt.Errorf("safety: %s has not been decided", sp.Format(id))
}
