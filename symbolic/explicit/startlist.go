package explicit

import (
	"context"
	"time"

	"vigil/symbolic"
)

// FewStarts lists the start states of g's property when there are at
// most max of them and listing them takes at most within (a sparse start
// condition over wide ranges may take long); otherwise it returns nil,
// and the caller treats the start states as a set. vigil safe --algo
// propu-bdd answers for the states listed one by one.
func (g *Generator) FewStarts(max int, within time.Duration) ([]symbolic.State, error) {
	var states []symbolic.State
	many := false
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	err := g.StartsContext(ctx, func(s symbolic.State) bool {
		if len(states) == max {
			many = true
			return false
		}
		states = append(states, append(symbolic.State(nil), s...))
		return true
	})
	if err != nil && ctx.Err() != nil {
		err, many = nil, true
	}
	if err != nil || many {
		return nil, err
	}
	return states, nil
}
