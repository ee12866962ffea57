package explicit

import (
	"fmt"

	"vigil/symbolic"
)

// Decider chooses a label for an unpacked state given the applicable labels
// (app, indexed by LabelID). It returns symbolic.NoLabel when the policy is
// stuck.
type Decider interface {
	Decide(s symbolic.State, app []bool) (symbolic.LabelID, error)
}

// NewDeciders returns what a parallel search calls for a decider of d of
// each goroutine's own (Options.NewPolicy, BenchOptions.NewPolicy), or nil
// when d is nil (every applicable label).
func NewDeciders(m *symbolic.Model, d *symbolic.PolicyDecl) func() (Decider, error) {
	if d == nil {
		return nil
	}
	return func() (Decider, error) { return NewDecider(m, d) }
}

// NewDecider builds the decider of a policy declaration. Rules policies are
// compiled directly (same semantics as symbolic.RulesPolicy: the first rule
// whose condition holds and whose label is applicable); every other kind is
// built with symbolic.Instantiate and evaluated through symbolic.Decide, so
// kinds registered with symbolic.RegisterKind plug in unchanged.
func NewDecider(m *symbolic.Model, d *symbolic.PolicyDecl) (Decider, error) {
	if d == nil {
		return nil, fmt.Errorf("explicit: no policy")
	}
	check := func(l symbolic.LabelID) error {
		if l < 0 || int(l) >= len(m.Labels) {
			return fmt.Errorf("explicit: %s: policy %s names label %d, which model %s lacks", d.Pos, d.Name, l, m.Name)
		}
		return nil
	}
	if d.Kind == symbolic.KindRules {
		r := &rulesDecider{}
		for _, rule := range d.Rules {
			if err := check(rule.Label); err != nil {
				return nil, err
			}
			if err := validateCond(m, rule.Cond, "policy "+d.Name, nil); err != nil {
				return nil, err
			}
			r.labels = append(r.labels, rule.Label)
			r.conds = append(r.conds, compileCond(m, rule.Cond))
			r.pos = append(r.pos, rule.Pos)
		}
		return r, nil
	}
	p, err := symbolic.Instantiate(m, d)
	if err != nil {
		return nil, fmt.Errorf("explicit: %w", err)
	}
	return PolicyDecider(m, p)
}

// PolicyDecider wraps an executable policy.
func PolicyDecider(m *symbolic.Model, p symbolic.Policy) (Decider, error) {
	for _, l := range p.Outputs() {
		if l < 0 || int(l) >= len(m.Labels) {
			return nil, fmt.Errorf("explicit: the policy names label %d, which model %s lacks", l, m.Name)
		}
	}
	return &policyDecider{p: p, scratch: make([]float64, len(p.Outputs()))}, nil
}

type rulesDecider struct {
	labels []symbolic.LabelID
	conds  []condFn
	pos    []symbolic.Pos
}

func (r *rulesDecider) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	for i, l := range r.labels {
		if app[l] && r.conds[i](s) {
			return l, nil
		}
	}
	return symbolic.NoLabel, nil
}

type policyDecider struct {
	p       symbolic.Policy
	scratch []float64
	app     []bool
}

func (d *policyDecider) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	d.app = app
	return symbolic.Decide(d.p, s, d.isApp, d.scratch)
}

func (d *policyDecider) isApp(l symbolic.LabelID) bool { return d.app[l] }

// Reason is why a decider chose its label in a state: the rule that fired
// (rules policies), or every output's score (networks, tree ensembles and
// other scored policies; Label is NoLabel where a policy read `argmax
// all` is stuck because its arg-max is not applicable).
type Reason struct {
	Label   symbolic.LabelID
	Rule    int          // the rule that fired (0-based); -1 when none did or d has no rules
	RulePos symbolic.Pos // its position
	Outputs []symbolic.LabelID
	Scores  []float64 // one per output; nil when d has no scores
	// All reports that the policy reads `argmax all`: its arg-max over
	// every output is chosen only where it is applicable.
	All bool
	// Table reports a table policy: its scores are 1 for the label of
	// the state's row and -inf elsewhere (all -inf: no row).
	Table bool
}

// Explain returns the Reason of d's decision in s (app as for Decide), or
// nil when d is neither compiled rules nor a scored policy.
func Explain(d Decider, s symbolic.State, app []bool) (*Reason, error) {
	switch d := d.(type) {
	case *rulesDecider:
		r := &Reason{Label: symbolic.NoLabel, Rule: -1}
		for i, l := range d.labels {
			if app[l] && d.conds[i](s) {
				r.Label, r.Rule, r.RulePos = l, i, d.pos[i]
				break
			}
		}
		return r, nil
	case *policyDecider:
		out := d.p.Outputs()
		sc := make([]float64, len(out))
		if err := d.p.Scores(s, sc); err != nil {
			return nil, err
		}
		_, table := d.p.(*symbolic.TablePolicy)
		return &Reason{Label: symbolic.ChooseFor(d.p, sc, func(l symbolic.LabelID) bool { return app[l] }), Rule: -1,
			Outputs: append([]symbolic.LabelID(nil), out...), Scores: sc, All: symbolic.ReadsAll(d.p), Table: table}, nil
	}
	return nil, nil
}

// Total is implemented by deciders that never fail on a state of their
// model: compiled rules, and the policies of the kinds vigil loads (nn,
// trees, rules, table), whose scores are defined on every state (a table
// without the state's row, or rules where none fires, is stuck, not an
// error). A decider that does not implement it, or answers false, may
// fail (a policy error); the safety deciders then search each question's
// scope before they decide (lang/spec.md, "Range errors").
type Total interface{ Total() bool }

// IsTotal reports whether d never fails (Total).
func IsTotal(d Decider) bool {
	t, ok := d.(Total)
	return ok && t.Total()
}

// Total: a Cache never fails when its decider never does.
func (c *Cache) Total() bool { return IsTotal(c.D) }

// Total: compiled rules never fail.
func (r *rulesDecider) Total() bool { return true }

// Total: the policy says so itself (symbolic.TotalScores: tables, rules,
// and the nn and trees policies, whose scores are defined on every state
// of the model's size). Nothing is inferred from the declaration's kind:
// a wrapper of such a policy may fail, and is searched for errors.
func (d *policyDecider) Total() bool {
	t, ok := d.p.(symbolic.TotalScores)
	return ok && t.TotalScores()
}

// Cheap is implemented by deciders that are as fast to re-evaluate as to
// look up (compiled rules); Search does not cache their decisions.
type Cheap interface{ Cheap() bool }

// Cheap reports that compiled rules need no cache.
func (r *rulesDecider) Cheap() bool { return true }

// concurrent is implemented by deciders that are safe for concurrent use:
// a parallel search shares them between its workers.
type concurrent interface{ concurrentSafe() }

// Compiled rules keep no state.
func (r *rulesDecider) concurrentSafe() {}

// Cache remembers a decider's label per state id, so that an expensive
// policy is evaluated once per state however often an algorithm revisits
// it. It costs 2 bytes per state (labels beyond 65532 are not cached).
type Cache struct {
	D     Decider
	label []uint16 // id -> label+2; 0 unknown, 1 stuck
	off   bool     // pass through to D
}

// NewCache wraps d.
func NewCache(d Decider) *Cache { return &Cache{D: d} }

// Decide returns the cached label of state id, evaluating d on s (the
// unpacked state id) the first time.
func (c *Cache) Decide(id uint32, s symbolic.State, app []bool) (symbolic.LabelID, error) {
	if c.off {
		return c.D.Decide(s, app)
	}
	if int(id) < len(c.label) {
		if v := c.label[id]; v != 0 {
			return symbolic.LabelID(v) - 2, nil
		}
	} else {
		n := max(len(c.label)+len(c.label)/4, int(id)+1, 1024)
		c.label = append(c.label, make([]uint16, n-len(c.label))...)
	}
	l, err := c.D.Decide(s, app)
	if err != nil {
		return symbolic.NoLabel, err
	}
	if l+2 <= 0xffff {
		c.label[id] = uint16(l + 2)
	}
	return l, nil
}

// share makes every cache of cs (the workers' caches of one search) hold
// labels for the ids below n in one slice, so that they can write the
// labels of distinct states concurrently.
func share(cs []*Cache, n int) {
	c := cs[0]
	if c == nil || c.off {
		return
	}
	if len(c.label) < n {
		m := max(len(c.label)+len(c.label)/4, n, 1024)
		c.label = append(c.label, make([]uint16, m-len(c.label))...)
	}
	for _, o := range cs[1:] {
		o.label = c.label
	}
}

// Bytes returns the memory the cache holds.
func (c *Cache) Bytes() int { return 2 * cap(c.label) }
