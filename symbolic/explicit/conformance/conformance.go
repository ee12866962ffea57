// Package conformance is the test suite every verification engine runs:
// vigil verify's question, asked once on generated models and answered by
// the explicit engine's BFS as the reference (gonum's testgraph pattern).
// An engine passes when it agrees with BFS wherever it gives a verdict and
// its counterexamples replay in the explicit semantics. Explore asks vigil
// explore's question the same way: how many states, transitions and
// terminal states are reachable.
//
// Use it from an engine's tests:
//
//	func TestConformance(t *testing.T) {
//		conformance.Verify(t, myEngine, conformance.Options{})
//	}
package conformance

import (
	"context"
	"os"
	"strconv"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// Answer is an engine's answer to a verification question.
type Answer struct {
	Verdict explicit.Verdict // Unknown is allowed and skips the comparison
	// Trace is the counterexample when Verdict is UnsafeVerdict.
	Trace []explicit.Step
}

// Verifier answers: can some run of policy (nil: any labels) from a start
// state of prop reach an unsafe state?
type Verifier func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) (Answer, error)

// Options select the models.
type Options struct {
	Models    int         // number of generated models (default 200)
	FirstSeed uint64      // seed of the first model (default 1)
	Gen       gen.Options // generator options (models must stay small: BFS is the reference)
	NoPolicy  bool        // also ask the question over all labels (policy nil)
	// Shortest requires counterexamples of minimal length (BFS-like engines).
	Shortest bool
	// MinDecided is the fewest verdicts (safe or unsafe, not unknown) the
	// engine must give, so that an engine answering unknown, which is
	// never wrong, cannot pass by saying nothing. 0 means nine in ten of
	// the questions asked (those where BFS has a verdict), and at least
	// one.
	MinDecided int
	// Policy, when set, replaces each model's rules policy: it returns an
	// executable policy (a random network or ensemble, say) and the
	// declaration the engine receives. BFS evaluates the policy itself.
	Policy func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)
}

// Verify runs v on generated models and fails t where v disagrees with
// BFS, returns a counterexample that does not replay, errs on a model BFS
// handles (range errors are skipped: the generator is asked to stay in
// range), or gives fewer verdicts than opt.MinDecided. It logs how many
// models and questions it asked and how many verdicts it compared, and
// returns these counts.
func Verify(t *testing.T, v Verifier, opt Options) Tally {
	t.Helper()
	if opt.Models <= 0 {
		opt.Models = 200
	}
	if opt.FirstSeed == 0 {
		opt.FirstSeed = 1
	}
	opt.FirstSeed, opt.Models = Campaign(opt.FirstSeed, opt.Models)
	opt.Gen.RangeErrors = false
	ctx := context.Background()
	var n Tally
	for seed := opt.FirstSeed; seed < opt.FirstSeed+uint64(opt.Models); seed++ {
		n.Models++
		m := gen.Model(seed, opt.Gen)
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		policies := []*symbolic.PolicyDecl{m.Policies[0]}
		var exec symbolic.Policy
		if opt.Policy != nil {
			if exec, policies[0], err = opt.Policy(m, seed); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		if opt.NoPolicy {
			policies = append(policies, nil)
		}
		for _, pd := range policies {
			var dec explicit.Decider
			switch {
			case pd != nil && exec != nil:
				if dec, err = explicit.PolicyDecider(m, exec); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			case pd != nil:
				if dec, err = explicit.NewDecider(m, pd); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
			want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			if err != nil {
				n.Skipped++
				continue // no start state: nothing to ask
			}
			n.Questions++
			got, err := v(ctx, m, prop, pd)
			if err != nil {
				n.Errors++
				t.Errorf("seed %d (%s): engine error: %v", seed, m.Name, err)
				continue
			}
			if got.Verdict == explicit.Unknown {
				n.Unknown++
				continue
			}
			n.Decided++
			if got.Verdict != want.Verdict {
				t.Errorf("seed %d (%s, policy %v): engine says %v, BFS says %v", seed, m.Name, pd != nil, got.Verdict, want.Verdict)
				continue
			}
			if got.Verdict != explicit.UnsafeVerdict {
				continue
			}
			n.Unsafe++
			if err := g.CheckCounterexample(dec, got.Trace); err != nil {
				t.Errorf("seed %d (%s): %v", seed, m.Name, err)
			}
			if opt.Shortest && len(got.Trace) != len(want.Trace) {
				t.Errorf("seed %d (%s): counterexample of %d steps, the shortest has %d", seed, m.Name, len(got.Trace)-1, len(want.Trace)-1)
			}
		}
	}
	t.Logf("conformance: %d models, %d questions (%d more without a start state), %d verdicts compared (%d unsafe), %d unknown, %d errors", n.Models, n.Questions, n.Skipped, n.Decided, n.Unsafe, n.Unknown, n.Errors)
	need := opt.MinDecided
	if need <= 0 {
		need = max(1, (9*n.Questions+9)/10)
	}
	if n.Decided < need {
		t.Errorf("conformance: the engine decided %d of %d questions (%d unknown, %d errors), fewer than the %d required: an engine that answers unknown is never wrong, so the suite would test nothing", n.Decided, n.Questions, n.Unknown, n.Errors, need)
	}
	return n
}

// Tally counts what Verify asked and compared.
type Tally struct {
	Models    int // generated models
	Questions int // questions asked: (model, policy or none) pairs where BFS has a verdict
	Skipped   int // pairs without a start state, not asked
	Decided   int // verdicts the engine gave and Verify compared with BFS
	Unsafe    int // of them unsafe (their counterexamples replayed)
	Unknown   int // questions the engine answered unknown
	Errors    int // questions the engine answered with an error (each fails t)
}

// Counts are an exploration's figures; a negative field is one the engine
// does not report and is not compared.
type Counts struct {
	States, Transitions, Depth, Unsafe, Goal, Deadlocks, Stuck int
}

// CountsOf returns the figures of an explicit search.
func CountsOf(s explicit.Stats) Counts {
	return Counts{States: s.States, Transitions: s.Transitions, Depth: s.Depth, Unsafe: s.Unsafe, Goal: s.Goal, Deadlocks: s.Deadlocks, Stuck: s.Stuck}
}

// Explorer explores everything reachable under policy (nil: any labels)
// from the start states of prop, unsafe and goal states being terminal.
type Explorer func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) (Counts, error)

// Explore runs e on generated models and fails t where its figures differ
// from BFS's, or it errs on a model BFS explores.
func Explore(t *testing.T, e Explorer, opt Options) {
	t.Helper()
	if opt.Models <= 0 {
		opt.Models = 200
	}
	if opt.FirstSeed == 0 {
		opt.FirstSeed = 1
	}
	opt.FirstSeed, opt.Models = Campaign(opt.FirstSeed, opt.Models)
	opt.Gen.RangeErrors = false
	ctx := context.Background()
	compared := 0
	for seed := opt.FirstSeed; seed < opt.FirstSeed+uint64(opt.Models); seed++ {
		m := gen.Model(seed, opt.Gen)
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		policies := []*symbolic.PolicyDecl{m.Policies[0]}
		if opt.NoPolicy {
			policies = append(policies, nil)
		}
		for _, pd := range policies {
			var dec explicit.Decider
			if pd != nil {
				if dec, err = explicit.NewDecider(m, pd); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
			want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec})
			if err != nil {
				continue
			}
			got, err := e(ctx, m, prop, pd)
			if err != nil {
				t.Errorf("seed %d (%s): engine error: %v", seed, m.Name, err)
				continue
			}
			compared++
			w := CountsOf(want.Stats)
			for _, f := range []struct {
				name      string
				got, want int
			}{
				{"states", got.States, w.States}, {"transitions", got.Transitions, w.Transitions}, {"depth", got.Depth, w.Depth},
				{"unsafe", got.Unsafe, w.Unsafe}, {"goal", got.Goal, w.Goal}, {"deadlocks", got.Deadlocks, w.Deadlocks}, {"stuck", got.Stuck, w.Stuck},
			} {
				if f.got >= 0 && f.got != f.want {
					t.Errorf("seed %d (%s, policy %v): %s %d, BFS says %d", seed, m.Name, pd != nil, f.name, f.got, f.want)
				}
			}
		}
	}
	t.Logf("conformance: %d explorations compared", compared)
	if compared == 0 {
		t.Errorf("conformance: no exploration compared on %d models: the suite would test nothing", opt.Models)
	}
}

// Campaign widens a suite for a longer run away from CI's seeds:
// VIGIL_CONFORMANCE_SHIFT=N starts every suite N seeds later, and
// VIGIL_CONFORMANCE_SCALE=K asks K times as many models (e.g.
// VIGIL_CONFORMANCE_SHIFT=1000000 VIGIL_CONFORMANCE_SCALE=5 go test ./ic3
// -run Conformance).
func Campaign(first uint64, models int) (uint64, int) {
	if k, err := strconv.ParseUint(os.Getenv("VIGIL_CONFORMANCE_SHIFT"), 10, 64); err == nil {
		first += k
	}
	if k, err := strconv.Atoi(os.Getenv("VIGIL_CONFORMANCE_SCALE")); err == nil && k > 0 {
		models *= k
	}
	return first, models
}
