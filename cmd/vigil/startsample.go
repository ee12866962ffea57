package main

// Start states without enumeration: the sampler of symbolic/explicit with
// an SMT fallback for start conditions too sparse for rejection sampling.

import (
	"context"

	"vigil/smt"
	"vigil/symbolic/explicit"
)

// newStartSampler prepares to draw start states of g's property uniformly
// without enumerating them (explicit.StartSampler), with Z3 for sparse
// start conditions. It prints what it is doing on the progress line when
// it takes long.
func newStartSampler(ctx context.Context, g *explicit.Generator, seed uint64, prog *progress) (*explicit.StartSampler, error) {
	if prog != nil {
		prog.printf("sampling start states...")
	}
	ss, err := g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: seed, Solve: smt.StartSolver(g.M)})
	if prog != nil {
		prog.clear()
	}
	return ss, err
}
