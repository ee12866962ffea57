package prob

import (
	"context"
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ShowProgress sets the callbacks of o to report SolveProperty's work as
// vigil prob does: line is shown a status line (the states built,
// with the memory they take; the iterations of each query) and "" when
// a build or solve ends; note is told, before a model that may be large
// is built, the most states it can have and the memory that many would
// take (EstimateMemory).
func (o *PropertyOptions) ShowProgress(line, note func(string)) {
	what := map[string]string{PhaseModel: "the model", PhaseBlame: "the MDP for --blame"}
	o.BeforeBuild = func(g *explicit.Generator, phase string, opt Options) {
		if n := EstimateMemory(g, opt).Note(opt.MaxStates); n != "" {
			note(fmt.Sprintf("building %s: %s", what[phase], n))
		}
	}
	o.Build = func(phase string, expanded, stored, bytes int) {
		if phase == PhaseBlame {
			line(fmt.Sprintf("prob: building the MDP for --blame: %d states expanded, %d stored", expanded, stored))
			return
		}
		// Memory grows with the states stored: estimate it for all of them.
		est := float64(bytes) / float64(max(expanded, 1)) * float64(stored)
		line(fmt.Sprintf("prob: building the model: %d states expanded, %d stored, about %.0f MiB", expanded, stored, est/(1<<20)))
	}
	o.Solve = func(q Query, it int, gap float64) { line(fmt.Sprintf("prob: %s: iteration %d, gap %.3g", q, it, gap)) }
	o.Done = func() { line("") }
}

// SolveProperties is SolveProperty for each of props of g's model in
// turn (on g for g's property, on a generator of its own for any other),
// passing each result to each. It stops at the first error, its own or
// each's.
func SolveProperties(ctx context.Context, g *explicit.Generator, props []*symbolic.Property, opt PropertyOptions, each func(*PropertyResult) error) error {
	for _, p := range props {
		pg := g
		if p != g.Prop {
			var err error
			if pg, err = explicit.NewContext(ctx, g.M, p); err != nil {
				return err
			}
		}
		res, err := SolveProperty(ctx, pg, p, opt)
		if err == nil {
			err = each(res)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
