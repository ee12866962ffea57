package verify

// Explore is vigil explore as a library call: the reachable states of a
// model, with or without a policy, by explicit search or with BDDs, as
// the report the command prints.

import (
	"context"
	"io"

	"vigil/bdd"
	"vigil/internal/phrase"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ExploreQuestion is a question of vigil explore.
type ExploreQuestion struct {
	Gen    *explicit.Generator  // the model and property
	Policy *symbolic.PolicyDecl // restricts each state to the label it chooses (nil: all labels)
	// BDD explores with BDDs (bdd.Explore with BDDOptions, whose order
	// Order names for the report); otherwise explicit.Search runs with
	// Search, whose limits, workers and progress the caller sets.
	BDD        bool
	BDDOptions bdd.Options
	Order      string
	// Search's Policy and NewPolicy, when nil, are made from Policy.
	Search explicit.Options
}

// ExploreResult is Explore's report: an *ExploreReport or a
// *BDDExploreReport, whose value is the --json shape.
type ExploreResult interface {
	WriteText(io.Writer) error
}

// Explore counts the reachable states of q. complete is false when a
// limit, ctx or the BDD node budget ended the exploration first.
func Explore(ctx context.Context, q ExploreQuestion) (rep ExploreResult, complete bool, err error) {
	m, prop := q.Gen.M, q.Gen.Prop
	if q.BDD {
		ex, err := bdd.Explore(ctx, m, prop, q.Policy, q.BDDOptions)
		if err != nil {
			return nil, false, err
		}
		r := NewBDDExploreReport(m, prop, q.Policy, ex, q.Order)
		return r, r.Complete, nil
	}
	if q.Policy != nil && q.Search.Policy == nil {
		if q.Search.Policy, err = explicit.NewDecider(m, q.Policy); err != nil {
			return nil, false, err
		}
	}
	if q.Search.Workers > 1 && q.Search.NewPolicy == nil {
		q.Search.NewPolicy = explicit.NewDeciders(m, q.Policy)
	}
	res, err := explicit.Search(ctx, q.Gen, q.Search)
	if err != nil {
		return nil, false, err
	}
	r := NewExploreReport(m, prop, q.Policy, res, phrase.StopReason(ctx))
	return r, r.Complete, nil
}
