package verify

// SafeBDD is vigil safe --algo propu-bdd as a library call: Prop-U with
// BDDs over every state at once (bdd.PropU), then the answers for the
// states asked, as a SafeBDDReport.

import (
	"context"
	"time"

	"vigil/bdd"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// MaxListedStarts bounds the start states SafeBDD answers for one by one;
// beyond it they are answered as a set.
const MaxListedStarts = 1000

// SafeBDDQuestion is a question of vigil safe --algo propu-bdd.
type SafeBDDQuestion struct {
	Gen    *explicit.Generator  // the model and property
	Policy *symbolic.PolicyDecl // the tested policy (nil: none; needed for radius 0)
	Radius safety.Radius        // inf or 0
	// State is the state to answer for; nil answers for the start states
	// (one by one when at most MaxListedStarts are listed within a
	// second, else as a set), or with All for every state.
	State symbolic.State
	All   bool
	Cubes int // All: list at most this many cubes of the unsafe region

	Options bdd.Options
	Order   string // the name of Options.Order, for the report
}

// SafeBDD decides q with Prop-U over BDDs and returns the report of the
// states asked (its verdict not yet set: Report.Finish).
func SafeBDD(ctx context.Context, q SafeBDDQuestion) (*SafeBDDReport, error) {
	scope, states := "all", []symbolic.State(nil)
	switch {
	case q.State != nil:
		scope, states = "state", []symbolic.State{q.State}
	case !q.All:
		scope = "start"
		var err error
		if states, err = q.Gen.FewStarts(MaxListedStarts, time.Second); err != nil {
			return nil, err
		}
	}
	m, prop := q.Gen.M, q.Gen.Prop
	res, err := bdd.PropU(ctx, m, prop, q.Policy, q.Radius, states, q.Options)
	if err != nil {
		return nil, err
	}
	policy := ""
	if q.Policy != nil {
		policy = q.Policy.Name
	}
	return NewSafeBDDReport(m, prop, policy, q.Radius, scope, res, states, q.Cubes, q.Order)
}
