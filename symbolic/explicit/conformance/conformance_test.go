package conformance_test

import (
	"context"

	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// search runs the explicit engine with workers goroutines (every one of
// them busy even on the tiny layers of generated models).
func search(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, workers int, stop bool) (*explicit.Result, error) {
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, err
	}
	opt := explicit.Options{StopAtUnsafe: stop, Workers: workers, Block: 1}
	if workers == 2 {
		// Layers in chunks of 3 states: a chunk's commit runs during the
		// next chunk's expand phase (with 4 workers, a layer is one chunk).
		opt.Chunk = 3
	}
	if pd != nil {
		if opt.Policy, err = explicit.NewDecider(m, pd); err != nil {
			return nil, err
		}
	}
	return explicit.Search(ctx, g, opt)
}

// bfs is the explicit engine on workers goroutines seen as a Verifier.
func bfs(workers int) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		r, err := search(ctx, m, prop, pd, workers, true)
		if err != nil {
			return conformance.Answer{}, err
		}
		return conformance.Answer{Verdict: r.Verdict, Trace: r.Trace}, nil
	}
}

// explore is the explicit engine on workers goroutines seen as an Explorer.
func explore(workers int) conformance.Explorer {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Counts, error) {
		r, err := search(ctx, m, prop, pd, workers, false)
		if err != nil {
			return conformance.Counts{}, err
		}
		return conformance.CountsOf(r.Stats), nil
	}
}

func TestBFSConforms(t *testing.T) {
	conformance.Verify(t, bfs(1), conformance.Options{NoPolicy: true, Shortest: true})
}

// TestParallelBFSConforms: the parallel search (2 and 4 workers) gives
// sequential BFS's verdicts, shortest counterexamples and exploration
// figures on thousands of generated models.
func TestParallelBFSConforms(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	for _, w := range []int{2, 4} {
		opt := conformance.Options{Models: n, NoPolicy: true, Shortest: true}
		conformance.Verify(t, bfs(w), opt)
		conformance.Explore(t, explore(w), opt)
		opt.FirstSeed, opt.Gen = 100000, gen.Options{MaxVars: 6, MaxRange: 8, MaxCommands: 8}
		opt.Models = n / 3
		conformance.Verify(t, bfs(w), opt)
		conformance.Explore(t, explore(w), opt)
	}
}
