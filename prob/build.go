package prob

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Model is the reachable part of a model as a Markov decision process in
// sparse rows (see the package comment). State ids are those of Store, in
// breadth-first order; the start states are 0 .. Starts-1.
type Model struct {
	G      *explicit.Generator
	Store  *explicit.Store
	Status []explicit.Status // per state
	Starts int
	// Chosen is, under a policy, the label it takes in each state
	// (NoLabel where it is stuck, and in terminal states and deadlocks);
	// nil without a policy.
	Chosen []symbolic.LabelID
	// Stuck counts the states where the policy is stuck (some label is
	// applicable, but not the one it chooses, or it chooses none): runs
	// end there, reaching nothing more. FirstStuck is the first of them
	// (valid when Stuck > 0).
	Stuck      int
	FirstStuck uint32
	// Uneven counts the states where the state-dependent probabilities of
	// some expanded command (a JANI edge's, such as x/4 and x/4) sum to
	// other than 1: Build reads them as weights, divided by their sum, as
	// it reads constant ones (the import notes those), where Storm takes
	// them as they are. FirstUneven names the first such command, state
	// and sum.
	Uneven      int
	FirstUneven string
	RowStart    []uint32 // per state, plus a sentinel: its choices
	Label       []symbolic.LabelID
	Cmd         []int32  // per choice: the command (index into Model.Commands)
	EntryStart  []uint32 // per choice, plus a sentinel: its entries
	To          []uint32 // per entry: the successor
	P           []float64
	// Exact holds the entries' probabilities as rationals when Build was
	// asked for them (Options.Exact); nil otherwise.
	Exact []*big.Rat
	// Elapsed is the time Build took.
	Elapsed time.Duration
}

// NumStates returns the number of reachable states.
func (m *Model) NumStates() int { return len(m.Status) }

// NumChoices returns the number of choices.
func (m *Model) NumChoices() int { return len(m.Cmd) }

// Choices returns the choice range of state s.
func (m *Model) Choices(s uint32) (from, to uint32) { return m.RowStart[s], m.RowStart[s+1] }

// Entries returns the entry range of choice c.
func (m *Model) Entries(c uint32) (from, to uint32) { return m.EntryStart[c], m.EntryStart[c+1] }

// IsChain reports whether every state has at most one choice.
func (m *Model) IsChain() bool {
	for s := 0; s < m.NumStates(); s++ {
		if m.RowStart[s+1]-m.RowStart[s] > 1 {
			return false
		}
	}
	return true
}

// Bytes estimates the memory the model holds.
func (m *Model) Bytes() int {
	b := m.Store.Bytes() + len(m.Status) + 4*len(m.RowStart) + 8*len(m.Label) + 4*len(m.EntryStart) + 12*len(m.To)
	if m.Exact != nil {
		b += 64 * len(m.Exact)
	}
	return b
}

// LimitError is Build's error when the model has more states than
// Options.MaxStates (start states, or reachable ones): no answer, rather
// than an error in the input.
type LimitError struct{ msg string }

func (e *LimitError) Error() string { return e.msg }

// Options configure Build.
type Options struct {
	// Policy restricts every state to the commands of the label it
	// chooses; nil keeps every applicable command (the MDP).
	Policy explicit.Decider
	// MaxStates makes Build fail once more states are reached (0: no
	// limit).
	MaxStates int
	// Exact keeps every probability as a rational (Model.Exact), for the
	// exact method.
	Exact bool
	// Progress, if set, is called about every 65536 states with the states
	// expanded and stored so far and the bytes the model holds.
	Progress func(expanded, stored, bytes int)
	// Full also explores past the terminal (goal and unsafe) states, for
	// a JANI filter over a state formula (Query.FilterStates): Storm
	// builds the whole reachable model then (it makes no state terminal
	// when it respects the filter's formula beside the property's), so
	// the states reachable only through a goal state are among the
	// filter's. Their successors are stored, but a terminal state keeps
	// no choices: the values of the states are those of the model
	// without Full.
	Full bool
	// Through keeps the choices of the goal states (not of the unsafe
	// ones), for a query whose lower bound makes runs go past them
	// (Query.NeedsThrough).
	Through bool
}

// Build explores the states reachable from the start states of g's
// property and builds the model. Cancellation of ctx, the state limit, a
// range error, a probability outside [0, 1] and weights that do not sum to
// a positive number are errors.
func Build(ctx context.Context, g *explicit.Generator, opt Options) (*Model, error) {
	t0 := time.Now()
	dists, err := newDists(g.M)
	if err != nil {
		return nil, err
	}
	st := explicit.NewStoreFor(g.L, 0)
	m := &Model{G: g, Store: st, RowStart: []uint32{0}, EntryStart: []uint32{0}}
	buf := make([]uint64, g.L.W)
	var ierr error
	err = g.StartsContext(ctx, func(s symbolic.State) bool {
		g.L.Pack(s, buf)
		_, _, ierr = st.Intern(buf)
		if n := st.Len(); ierr == nil && n&0xfff == 0 {
			switch {
			case ctx.Err() != nil:
				ierr = fmt.Errorf("prob: enumerating the start states: %w", context.Cause(ctx))
			case opt.MaxStates > 0 && n > opt.MaxStates:
				ierr = &LimitError{fmt.Sprintf("prob: more than %d start states (raise --max-states)", opt.MaxStates)}
			}
		}
		return ierr == nil
	})
	if err != nil && ctx.Err() != nil {
		// StartsContext polls ctx between candidate states: a sparse
		// start condition over large ranges finds few of them
		err = fmt.Errorf("prob: enumerating the start states: %w", context.Cause(ctx))
	}
	if err == nil {
		err = ierr
	}
	if err != nil {
		return nil, err
	}
	m.Starts = st.Len()
	if opt.Exact {
		m.Exact = []*big.Rat{}
	}
	if opt.Policy != nil {
		m.Chosen = []symbolic.LabelID{}
	}
	s := make(symbolic.State, len(g.M.Vars))
	x := &explicit.Expansion{}
	var ps []*big.Rat
	var row []entry
	rowAt := map[uint32]int{} // successor -> its entry in row, for wide rows
	for id := uint32(0); id < uint32(st.Len()); id++ {
		if id&0xfff == 0xfff {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("prob: building the model: %w", context.Cause(ctx))
			}
			if opt.Progress != nil && id&0xffff == 0xffff {
				opt.Progress(int(id), st.Len(), m.Bytes())
			}
		}
		src := st.Get(id)
		g.L.Unpack(src, s)
		status := g.Status(s)
		m.Status = append(m.Status, status)
		chosen := symbolic.NoLabel
		uneven := dists.uneven
		// record: the state's choices are kept (a terminal state is
		// expanded only under Full, to find the states past it)
		record := status == explicit.Open || opt.Through && status == explicit.Goal
		if record || opt.Full {
			g.Applicable(s, x)
			keep := symbolic.NoLabel
			if opt.Policy != nil && len(x.Labels) > 0 {
				if keep, err = opt.Policy.Decide(s, x.App); err != nil {
					return nil, err
				}
				chosen = keep
			}
			if opt.Policy == nil || keep != symbolic.NoLabel {
				en := x.Enabled()
				// A JANI dtmc fuses the enabled commands into one choice,
				// each taken with probability 1/len(en), as Storm's
				// JaniNextStateGenerator does (fuse.go).
				fuse := fuseChoices(g.M, opt, len(en))
				row = row[:0]
				clear(rowAt)
				for i, ci := range en {
					c := &g.M.Commands[ci]
					if opt.Policy != nil && c.Label != keep {
						continue
					}
					if ps, err = dists.at(int(ci), s, ps[:0]); err != nil {
						return nil, err
					}
					if !fuse {
						row = row[:0]
						clear(rowAt)
					}
					for oi, p := range ps {
						if oi&0xfff == 0xfff && ctx.Err() != nil {
							return nil, fmt.Errorf("prob: building the model: %w", context.Cause(ctx))
						}
						if p.Sign() == 0 {
							continue
						}
						t, err := g.Apply(s, int(ci), oi)
						if err != nil {
							return nil, err
						}
						g.L.Pack(t, buf)
						tid, _, err := st.Intern(buf)
						if err != nil {
							return nil, err
						}
						if fuse {
							p = new(big.Rat).Quo(p, big.NewRat(int64(len(en)), 1))
						}
						row = addEntry(row, rowAt, tid, p)
					}
					if fuse && i < len(en)-1 {
						continue // one choice, written after the last command
					}
					if !record {
						continue
					}
					if fuse {
						c, ci = &g.M.Commands[en[0]], en[0] // the fused choice is named by its first command
					}
					m.Label = append(m.Label, c.Label)
					m.Cmd = append(m.Cmd, ci)
					for _, e := range row {
						m.To = append(m.To, e.to)
						f, _ := e.p.Float64()
						m.P = append(m.P, f)
						if opt.Exact {
							m.Exact = append(m.Exact, e.p)
						}
					}
					m.EntryStart = append(m.EntryStart, uint32(len(m.To)))
				}
			}
		}
		if !record {
			// a terminal state expanded under Full: nothing of it counts
			dists.uneven = uneven
		} else if dists.uneven > uneven {
			if m.Uneven == 0 {
				m.FirstUneven = dists.firstUneven
			}
			m.Uneven++
		}
		if m.Chosen != nil {
			if !record {
				chosen = symbolic.NoLabel
			}
			m.Chosen = append(m.Chosen, chosen)
		}
		if opt.Policy != nil && record && len(x.Labels) > 0 && uint32(len(m.Cmd)) == m.RowStart[len(m.RowStart)-1] {
			if m.Stuck == 0 {
				m.FirstStuck = id
			}
			m.Stuck++
		}
		m.RowStart = append(m.RowStart, uint32(len(m.Cmd)))
		if opt.MaxStates > 0 && st.Len() > opt.MaxStates {
			return nil, &LimitError{fmt.Sprintf("prob: more than %d reachable states (raise --max-states)", opt.MaxStates)}
		}
	}
	m.Elapsed = time.Since(t0)
	return m, nil
}

type entry struct {
	to uint32
	p  *big.Rat
}

// addEntry adds probability p of reaching t to row, merging outcomes that
// lead to the same state. A row of more than 16 entries is indexed by at
// (its successors' positions, cleared by the caller for each row): a
// synchronised JANI command may have 65536 outcomes, which a search of
// the row made quadratic (seconds per state, deaf to cancellation).
func addEntry(row []entry, at map[uint32]int, t uint32, p *big.Rat) []entry {
	i, ok := -1, false
	if len(row) > 16 {
		if len(at) == 0 {
			for j, e := range row {
				at[e.to] = j
			}
		}
		i, ok = at[t]
	} else {
		for j := range row {
			if row[j].to == t {
				i, ok = j, true
				break
			}
		}
	}
	if ok {
		row[i].p = new(big.Rat).Add(row[i].p, p)
		return row
	}
	if len(at) > 0 {
		at[t] = len(row)
	}
	return append(row, entry{to: t, p: p})
}

// dists gives each command's outcome distribution: fixed for commands
// whose weights are constants, computed per state for JANI's
// state-dependent probabilities.
type dists struct {
	m     *symbolic.Model
	fixed [][]*big.Rat // per command; nil when state-dependent
	// uneven counts the state-dependent distributions at has normalised
	// because they did not sum to 1; firstUneven describes the first.
	uneven      int
	firstUneven string
}

func newDists(m *symbolic.Model) (*dists, error) {
	d := &dists{m: m, fixed: make([][]*big.Rat, len(m.Commands))}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		dep := false
		for _, o := range c.Outcomes {
			dep = dep || o.StateProb()
		}
		if dep {
			for oi, o := range c.Outcomes {
				if !o.StateProb() && !o.Weight.IsSet() {
					return nil, fmt.Errorf("prob: %s: outcome %d of action %s has no probability beside outcomes whose probability reads the state", o.Pos, oi+1, m.Labels[c.Label].Name)
				}
			}
			continue
		}
		ws, err := fixedDist(m, ci)
		if err != nil {
			return nil, err
		}
		d.fixed[ci] = ws
	}
	return d, nil
}

// fixedDist normalises the constant weights of command ci as lang/spec.md
// says: no weights, equal shares; all weights, proportional; some, the
// written ones are probabilities and the others share what is left.
func fixedDist(m *symbolic.Model, ci int) ([]*big.Rat, error) {
	c := &m.Commands[ci]
	n := len(c.Outcomes)
	ws := make([]*big.Rat, n)
	given, missing := new(big.Rat), 0
	for i, o := range c.Outcomes {
		if !o.Weight.IsSet() {
			missing++
			continue
		}
		if o.Weight.Num < 0 || o.Weight.Den <= 0 {
			return nil, fmt.Errorf("prob: %s: outcome %d of action %s has the negative weight %s; weights are non-negative", o.Pos, i+1, m.Labels[c.Label].Name, o.Weight)
		}
		ws[i] = big.NewRat(o.Weight.Num, o.Weight.Den)
		given.Add(given, ws[i])
	}
	if missing > 0 {
		rest := big.NewRat(1, 1)
		if missing < n {
			rest.Sub(rest, given)
			if rest.Sign() < 0 {
				rest.SetInt64(0)
			}
		}
		rest.Quo(rest, big.NewRat(int64(missing), 1))
		for i := range ws {
			if ws[i] == nil {
				ws[i] = rest
			}
		}
	}
	return normalise(m, ci, ws, nil)
}

// ratSum is the sum of ws.
func ratSum(ws []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, w := range ws {
		sum.Add(sum, w)
	}
	return sum
}

// normalise divides ws by their sum, or reports that the sum is not
// positive (in state s when s is not nil).
func normalise(m *symbolic.Model, ci int, ws []*big.Rat, s symbolic.State) ([]*big.Rat, error) {
	sum := new(big.Rat)
	for _, w := range ws {
		sum.Add(sum, w)
	}
	if sum.Sign() <= 0 {
		c := &m.Commands[ci]
		where := ""
		if s != nil {
			where = " in state " + m.FormatState(s)
		}
		return nil, fmt.Errorf("prob: %s: the outcome weights of action %s sum to %s%s; give at least one outcome a positive weight", c.Pos, m.Labels[c.Label].Name, sum.RatString(), where)
	}
	if sum.Cmp(big.NewRat(1, 1)) == 0 {
		return ws, nil
	}
	out := make([]*big.Rat, len(ws))
	for i, w := range ws {
		out[i] = new(big.Rat).Quo(w, sum)
	}
	return out, nil
}

// at appends to dst the outcome probabilities of command ci in state s.
func (d *dists) at(ci int, s symbolic.State, dst []*big.Rat) ([]*big.Rat, error) {
	if f := d.fixed[ci]; f != nil {
		return append(dst, f...), nil
	}
	c := &d.m.Commands[ci]
	start := len(dst)
	for oi, o := range c.Outcomes {
		if !o.StateProb() {
			dst = append(dst, big.NewRat(o.Weight.Num, o.Weight.Den))
			continue
		}
		// the exact product of its factors, each in [0, 1]
		p, bad := o.ProbAt(s)
		if bad >= 0 && o.ProbFactors[bad].ZeroSum {
			return nil, fmt.Errorf("prob: %s: the probabilities of all destinations of action %s are 0 in state %s, where it is enabled: they sum to 0, not 1 (JANI requires a distribution)", o.Pos, d.m.Labels[c.Label].Name, d.m.FormatState(s))
		}
		if bad >= 0 {
			val := symbolic.ProbString(o.ProbFactors[bad].At(s))
			if len(o.ProbFactors) > 1 {
				val = fmt.Sprintf("%s in its factor %d (%s)", val, bad+1, o.ProbFactors[bad].Pos)
			}
			return nil, fmt.Errorf("prob: %s: outcome %d of action %s has the probability %s in state %s, outside [0, 1]", o.Pos, oi+1, d.m.Labels[c.Label].Name, val, d.m.FormatState(s))
		}
		dst = append(dst, p)
	}
	sum := ratSum(dst[start:])
	if sum.Sign() == 0 {
		// every destination has probability 0 here: an edge kept unsplit
		// (more than 8 state-dependent destinations) meets its sum 0
		// before the command for it (lang/jani's zeroSum) does; the
		// same error as that command's
		return nil, fmt.Errorf("prob: %s: the probabilities of all destinations of action %s are 0 in state %s, where it is enabled: they sum to 0, not 1 (JANI requires a distribution)", c.Pos, d.m.Labels[c.Label].Name, d.m.FormatState(s))
	}
	if sum.Sign() > 0 && sum.Cmp(big.NewRat(1, 1)) != 0 {
		// JANI requires a distribution; read as weights, as the
		// import reads constant probabilities that do not sum to 1
		if d.uneven == 0 {
			d.firstUneven = fmt.Sprintf("action %s (%s) in state %s, where they sum to %s", d.m.Labels[c.Label].Name, c.Pos, d.m.FormatState(s), sum.RatString())
		}
		d.uneven++
	}
	ws, err := normalise(d.m, ci, dst[start:], s)
	if err != nil {
		return nil, err
	}
	copy(dst[start:], ws)
	return dst, nil
}

// Weights gives the outcome probabilities of commands as Build uses them,
// for samplers (vigil env): the command's weights normalised, or its
// state-dependent probabilities in a state.
type Weights struct {
	d     *dists
	fixed [][]float64 // per command; nil when state-dependent
	tmp   []*big.Rat
}

// NewWeights checks m's weights (a command whose constant weights do not
// sum to a positive number is a positioned error) and prepares them.
func NewWeights(m *symbolic.Model) (*Weights, error) {
	d, err := newDists(m)
	if err != nil {
		return nil, err
	}
	w := &Weights{d: d, fixed: make([][]float64, len(m.Commands))}
	for ci, f := range d.fixed {
		if f == nil {
			continue
		}
		w.fixed[ci] = make([]float64, len(f))
		for i, p := range f {
			w.fixed[ci][i], _ = p.Float64()
		}
	}
	return w, nil
}

// At appends to dst the probabilities of command ci's outcomes in state
// s; an error names a probability outside [0, 1] or weights that sum to
// 0 there.
func (w *Weights) At(ci int, s symbolic.State, dst []float64) ([]float64, error) {
	if f := w.fixed[ci]; f != nil {
		return append(dst, f...), nil
	}
	ps, err := w.d.at(ci, s, w.tmp[:0])
	if err != nil {
		return nil, err
	}
	w.tmp = ps
	for _, p := range ps {
		f, _ := p.Float64()
		dst = append(dst, f)
	}
	return dst, nil
}
