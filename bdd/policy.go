package bdd

// Policy regions. A policy is, for the BDD engine, one set per label: the
// states where it chooses that label. For rules policies these sets are
// built from the rules' conditions with first-applicable-rule semantics
// (symbolic.RulesPolicy): rule i fires where its condition holds, its label
// is applicable, and no earlier rule fired. For table policies they are the
// rows' states, the last row of a state winning as in symbolic.TablePolicy,
// where the row's label is applicable. Other kinds (networks, tree
// ensembles) are evaluated state by state through the explicit engine's
// decider, only on the states a computation reaches, at most
// Options.PolicyStates of them.

import (
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

type policyEnc struct {
	decl   *symbolic.PolicyDecl
	choose []Node // per label: dom states where the policy chooses it (on known states)
	any    Node   // ∨ choose
	// Lazily evaluated policies: known is the set of states evaluated so
	// far; choose and any hold only on known.
	lazy  bool
	dec   explicit.Decider
	known Node
	evals int
	limit int
}

// policy encodes d (nil: no policy).
func (sp *space) policy(d *symbolic.PolicyDecl, opt Options) (*policyEnc, error) {
	if d == nil {
		return nil, nil
	}
	m := sp.m
	p := &policyEnc{decl: d, choose: make([]Node, len(sp.M.Labels))}
	for l := range p.choose {
		p.choose[l] = m.fls()
	}
	switch d.Kind {
	case symbolic.KindRules:
		rem := sp.dom // states where no earlier rule fired
		for i, r := range d.Rules {
			if r.Label < 0 || int(r.Label) >= len(sp.M.Labels) {
				return nil, fmt.Errorf("bdd: %s: policy %s names label %d, which model %s lacks", r.Pos, d.Name, r.Label, sp.M.Name)
			}
			c, err := sp.cond(r.Cond, fmt.Sprintf("rule %d of policy %s (%s)", i+1, d.Name, r.Pos))
			if err != nil {
				return nil, err
			}
			fires := m.and(c, sp.app[r.Label])
			p.choose[r.Label] = m.or(p.choose[r.Label], m.and(rem, fires))
			rem = m.diff(rem, fires)
		}
	case symbolic.KindTable:
		last := map[string]int{}
		if d.Table != nil {
			for i, row := range d.Table.Rows {
				last[fmt.Sprint(row)] = i
			}
			for i, row := range d.Table.Rows {
				if last[fmt.Sprint(row)] != i || len(row) != len(sp.M.Vars) || sp.M.InRange(row) >= 0 {
					continue // overridden by a later row, or never a state
				}
				l := d.Table.Labels[i]
				if l < 0 || int(l) >= len(sp.M.Labels) {
					return nil, fmt.Errorf("bdd: %s: policy %s names label %d, which model %s lacks", d.Pos, d.Name, l, sp.M.Name)
				}
				p.choose[l] = m.or(p.choose[l], sp.cube(row))
			}
		}
		for l := range p.choose {
			p.choose[l] = m.and(p.choose[l], sp.app[l])
		}
	default:
		var dec explicit.Decider
		var err error
		if opt.Executable != nil {
			dec, err = explicit.PolicyDecider(sp.M, opt.Executable)
		} else {
			dec, err = explicit.NewDecider(sp.M, d)
		}
		if err != nil {
			return nil, err
		}
		p.lazy, p.dec, p.known = true, dec, m.fls()
		p.limit = opt.PolicyStates
		if p.limit <= 0 {
			p.limit = DefaultPolicyStates
		}
	}
	p.any = m.orAll(p.choose...)
	return p, nil
}

// policyCheckEvery is how many policy evaluations ensure makes between
// two looks at the context.
const policyCheckEvery = 256

// DefaultPolicyStates bounds how many states a network or tree-ensemble
// policy is evaluated on.
const DefaultPolicyStates = 1_000_000

// ensure evaluates a lazy policy on the states of x (⊆ dom) it has not seen.
func (sp *space) ensure(p *policyEnc, x Node) {
	if p == nil || !p.lazy {
		return
	}
	m := sp.m
	todo := m.diff(m.and(x, m.and(sp.open, sp.hasApp)), p.known)
	if m.isFalse(todo) {
		return
	}
	n := sp.count(todo)
	if !n.IsInt64() || int(n.Int64()) > p.limit-p.evals {
		panic(&stop{reason: fmt.Sprintf("policy evaluation limit: policy %s (%s) is evaluated state by state, and %d more states would pass the limit of %d", p.decl.Name, p.decl.Kind, n, p.limit)})
	}
	byLabel := make([][]symbolic.State, len(sp.M.Labels))
	app := make([]bool, len(sp.M.Labels))
	var ferr error
	seen := 0
	sp.forEach(todo, func(s symbolic.State) bool {
		// The evaluation holds the manager's lock outside rudd: the
		// caller of run cannot abandon it, so it stops on its own
		// (it went on over up to p.limit states, seconds).
		if seen++; seen%policyCheckEvery == 0 && m.ctx.Err() != nil {
			panic(&stop{reason: ctxReason(m.ctx)})
		}
		sp.M.Applicable(s, app)
		l, err := p.dec.Decide(s, app)
		if err != nil {
			ferr = fmt.Errorf("bdd: policy %s in %s: %w", p.decl.Name, sp.M.FormatState(s), err)
			return false
		}
		p.evals++
		if l != symbolic.NoLabel {
			byLabel[l] = append(byLabel[l], append(symbolic.State(nil), s...))
		}
		return true
	})
	if ferr != nil {
		panic(&stop{reason: "policy error", err: ferr})
	}
	for l, ss := range byLabel {
		if len(ss) > 0 {
			c := sp.states(ss)
			p.choose[l] = m.or(p.choose[l], c)
			p.any = m.or(p.any, c)
		}
	}
	p.known = m.or(p.known, todo)
}

// chosen returns the states of x where the policy chooses label l (x
// itself when there is no policy).
func (sp *space) chosen(p *policyEnc, l int, x Node) Node {
	if p == nil {
		return x
	}
	return sp.m.and(x, p.choose[l])
}

// stuck returns the open states of x with an applicable label where the
// policy chooses none.
func (sp *space) stuck(p *policyEnc, x Node) Node {
	if p == nil {
		return sp.m.fls()
	}
	sp.ensure(p, x)
	return sp.m.diff(sp.m.and(x, sp.m.and(sp.open, sp.hasApp)), p.any)
}
