package safety

import (
	"context"

	"vigil/symbolic"
)

// DecideState decides one state s of d's space (interned first), as
// DecideStarts decides the start states: the result has s alone.
func DecideState(ctx context.Context, d Decider, s symbolic.State) (*Starts, error) {
	id, err := d.Space().Intern(s)
	if err != nil {
		return nil, err
	}
	res := &Starts{States: []StateDecision{{ID: id}}}
	if err := DecideStates(ctx, d, res.States); err != nil {
		return nil, err
	}
	return res, nil
}
