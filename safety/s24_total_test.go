package safety

import (
	"path/filepath"
	"testing"

	"vigil/load"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// delegate forwards every method a certifier asks of a policy, as an API
// user's wrapper (a logger, a cache, a remote evaluator) would, without
// promising that its Scores never fails.
type delegate struct{ p symbolic.Certifiable }

func (d delegate) Outputs() []symbolic.LabelID                  { return d.p.Outputs() }
func (d delegate) Scores(s symbolic.State, dst []float64) error { return d.p.Scores(s, dst) }
func (d delegate) Params() symbolic.Params                      { return d.p.Params() }
func (d delegate) Exclude(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	return d.p.Exclude(lo, hi, a, sure)
}

// TestS24TotalIsDeclared: the nn and trees policies of the shipped specs
// are total (the safety deciders may skip the search for policy errors);
// a wrapper that forwards their Params, and so their declaration's kind,
// is not: totality is the policy's own promise (symbolic.TotalScores), not
// inferred from the declaration.
func TestS24TotalIsDeclared(t *testing.T) {
	for _, c := range []struct{ spec, policy, prop string }{
		{"oneway.spec", "driver", "no_overshoot"},
		{"lang_oneway_trees.spec", "forest", "no_overshoot"},
	} {
		l, err := load.Load(filepath.Join("..", "specs", c.spec), load.Options{Policy: c.policy, Property: c.prop})
		if err != nil {
			t.Fatal(err)
		}
		p, err := symbolic.Instantiate(l.Model, l.Policy)
		if err != nil {
			t.Fatal(err)
		}
		d, err := explicit.PolicyDecider(l.Model, p)
		if err != nil {
			t.Fatal(err)
		}
		if !explicit.IsTotal(d) {
			t.Errorf("%s: the %s policy %s is not total", c.spec, l.Policy.Kind, c.policy)
		}
		w, err := explicit.PolicyDecider(l.Model, delegate{p: p.(symbolic.Certifiable)})
		if err != nil {
			t.Fatal(err)
		}
		if explicit.IsTotal(w) {
			t.Errorf("%s: a wrapper of the %s policy %s is taken as total", c.spec, l.Policy.Kind, c.policy)
		}
	}
}
