package safety

import (
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

const notExpanded = ^uint32(0)

// Space is the explicit state registry the deciders share: packed states
// with dense ids (explicit.Store), each state's terminal status, and, once a
// decider asks for it, the state's label groups and successors and the
// tested policy's label, computed once and kept (anchors: "cache a state's
// transitions in CSR form when an algorithm revisits states"). A Space is
// not safe for concurrent use.
type Space struct {
	G   *explicit.Generator
	St  *explicit.Store
	pol *explicit.Cache // nil: no tested policy

	status   []explicit.Status
	first    []uint32 // per state: first group, or notExpanded
	end      []uint32 // per state: end of its groups
	pi       []int32  // per state: the tested policy's group index, -1 when stuck (or no policy)
	gLabel   []symbolic.LabelID
	gStart   []uint32 // per group plus a sentinel: its successors in succ
	succ     []uint32
	expanded int

	s, t symbolic.State
	x    explicit.Expansion
	buf  []uint64

	errFree int8 // NoRangeErrors of the model: 0 not known yet, 1 true, -1 false
}

// rangeErrorFree reports whether no state can fail to expand: interval
// reasoning proves that the model has no range error in any state
// (NoRangeErrors), and the tested policy, if any, never fails
// (explicit.IsTotal: every kind vigil loads; a policy error is the answer
// like a range error, lang/spec.md "Range errors"). Computed once.
func (sp *Space) rangeErrorFree() bool {
	if sp.errFree == 0 {
		sp.errFree = -1
		if (sp.pol == nil || sp.pol.Total()) && NoRangeErrors(sp.G.M) {
			sp.errFree = 1
		}
	}
	return sp.errFree > 0
}

// NewSpace makes an empty registry for g (the model and property) and the
// tested policy d (nil: none; then every label counts as a deviation when
// the radius is finite).
func NewSpace(g *explicit.Generator, d explicit.Decider) *Space {
	sp := &Space{G: g, St: explicit.NewStoreFor(g.L, 1024), gStart: []uint32{0}}
	if d != nil {
		sp.pol = explicit.NewCache(d)
	}
	n := len(g.M.Vars)
	sp.s, sp.t = make(symbolic.State, n), make(symbolic.State, n)
	sp.buf = make([]uint64, g.L.W)
	return sp
}

// Len returns the number of states registered so far.
func (sp *Space) Len() int { return len(sp.status) }

// Expanded returns the number of states whose successors were computed.
func (sp *Space) Expanded() int { return sp.expanded }

// Intern registers the unpacked state s and returns its id. It checks the
// state against the variables' ranges.
func (sp *Space) Intern(s symbolic.State) (uint32, error) {
	m := sp.G.M
	if len(s) != len(m.Vars) {
		return 0, fmt.Errorf("safety: state has %d values, the model has %d variables", len(s), len(m.Vars))
	}
	for i, v := range m.Vars {
		if s[i] < v.Lo || s[i] > v.Hi {
			return 0, fmt.Errorf("safety: %s = %d is outside its range %d..%d", v.Name, s[i], v.Lo, v.Hi)
		}
	}
	sp.G.L.Pack(s, sp.buf)
	return sp.intern(sp.buf)
}

func (sp *Space) intern(packed []uint64) (uint32, error) {
	id, added, err := sp.St.Intern(packed)
	if err != nil {
		return 0, err
	}
	if added {
		sp.G.L.Unpack(packed, sp.t)
		sp.status = append(sp.status, sp.G.Status(sp.t))
		sp.first = append(sp.first, notExpanded)
		sp.end = append(sp.end, 0)
		sp.pi = append(sp.pi, -1)
	}
	return id, nil
}

// State returns the unpacked state id (a fresh slice).
func (sp *Space) State(id uint32) symbolic.State {
	s := make(symbolic.State, len(sp.G.M.Vars))
	sp.G.L.Unpack(sp.St.Get(id), s)
	return s
}

// Status returns the terminal status of state id.
func (sp *Space) Status(id uint32) explicit.Status { return sp.status[id] }

// IsExpanded reports whether the successors of id are known.
func (sp *Space) IsExpanded(id uint32) bool { return sp.first[id] != notExpanded }

// Expand computes the label groups of state id (once). Terminal states get
// no groups. Range errors and policy errors are returned.
func (sp *Space) Expand(id uint32) error {
	if sp.first[id] != notExpanded {
		return nil
	}
	first := uint32(len(sp.gLabel))
	if sp.status[id] == explicit.Open {
		src := append([]uint64(nil), sp.St.Get(id)...)
		sp.G.L.Unpack(src, sp.s)
		x := &sp.x
		if err := sp.G.Expand(src, sp.s, x); err != nil {
			return err
		}
		pil := symbolic.NoLabel
		if sp.pol != nil && len(x.Labels) > 0 {
			l, err := sp.pol.Decide(id, sp.s, x.App)
			if err != nil {
				return &PolicyError{State: append(symbolic.State(nil), sp.s...), Text: sp.G.M.FormatState(sp.s), Err: err}
			}
			pil = l
		}
		for _, grp := range x.Groups {
			if grp.Label == pil {
				sp.pi[id] = int32(len(sp.gLabel)) - int32(first)
			}
			sp.gLabel = append(sp.gLabel, grp.Label)
			for i := grp.From; i < grp.To; i++ {
				t, err := sp.intern(x.Target(i))
				if err != nil {
					return err
				}
				sp.succ = append(sp.succ, t)
			}
			sp.gStart = append(sp.gStart, uint32(len(sp.succ)))
		}
	}
	sp.first[id] = first
	sp.end[id] = uint32(len(sp.gLabel))
	sp.expanded++
	return nil
}

// PolicyError is the tested policy failing in a state of the model (a
// policy error): like a range error, it is the answer to every question
// whose scope holds the state (lang/spec.md, "Range errors").
type PolicyError struct {
	State symbolic.State
	Text  string // the state as vigil prints it
	Err   error
}

func (e *PolicyError) Error() string {
	return fmt.Sprintf("safety: the tested policy in %s: %v", e.Text, e.Err)
}

func (e *PolicyError) Unwrap() error { return e.Err }

// Groups returns the group range of an expanded state: groups first..end-1.
func (sp *Space) Groups(id uint32) (first, end uint32) { return sp.first[id], sp.end[id] }

// Label returns the label of group k.
func (sp *Space) Label(k uint32) symbolic.LabelID { return sp.gLabel[k] }

// Succ returns the distinct successors of group k.
func (sp *Space) Succ(k uint32) []uint32 { return sp.succ[sp.gStart[k]:sp.gStart[k+1]] }

// PolicyGroup returns the group of the tested policy's label in an expanded
// state, or -1 when the policy is stuck there (or there is no policy).
func (sp *Space) PolicyGroup(id uint32) int32 {
	if sp.pi[id] < 0 {
		return -1
	}
	return int32(sp.first[id]) + sp.pi[id]
}

// Deadlock reports whether an expanded state is a non-terminal state
// without applicable labels (safe: a run ends there without failure).
func (sp *Space) Deadlock(id uint32) bool {
	return sp.status[id] == explicit.Open && sp.first[id] == sp.end[id]
}

// Format prints state id as vigil prints states.
func (sp *Space) Format(id uint32) string { return sp.G.M.FormatState(sp.State(id)) }
