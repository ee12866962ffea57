package verify_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/verify"
)

// autoVerifier runs the auto portfolio as a conformance engine with bfs's
// state budget set to maxStates; an unknown answer is an error (every
// generated model is decided by bfs, and by ic3 when bfs gives way).
func autoVerifier(maxStates int, pols map[*symbolic.PolicyDecl]symbolic.Policy, won map[string]int) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: pols[pd],
			Engine: "auto", Limits: verify.Limits{MaxStates: maxStates, Timeout: time.Minute}})
		if err != nil {
			return conformance.Answer{}, err
		}
		if v.Auto == nil {
			return conformance.Answer{}, fmt.Errorf("auto reports no portfolio")
		}
		if v.Answer == explicit.Unknown {
			return conformance.Answer{}, fmt.Errorf("auto did not decide: %s", v.Reason)
		}
		won[v.Auto.Winner]++
		return conformance.Answer{Verdict: v.Answer, Trace: v.Trace}, nil
	}
}

// TestAutoConformance: auto decides every generated question that the
// single engines decide, and agrees with BFS; once with bfs's default
// budget (bfs wins), once with a budget of one state, so that IC3 or the
// hunter must answer wherever bfs needs more than one state, for rules
// policies, none, and random networks (those run bfs, then IC3: an
// in-memory policy is not shared between goroutines).
func TestAutoConformance(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 50
	}
	for _, budget := range []int{0, 1} {
		won := map[string]int{}
		conformance.Verify(t, autoVerifier(budget, nil, won), conformance.Options{Models: n, NoPolicy: true, FirstSeed: 7000})
		pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
		conformance.Verify(t, autoVerifier(budget, pols, won), conformance.Options{Models: n / 3, FirstSeed: 7500,
			Policy: func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
				outs := make([]symbolic.LabelID, len(m.Labels))
				for i := range outs {
					outs[i] = symbolic.LabelID(i)
				}
				p, d, err := nn.Random(m, outs, seed, []int{6})
				if err == nil {
					pols[d] = p
				}
				return p, d, err
			}})
		t.Logf("bfs budget %d: winners %v", budget, won)
		if budget == 1 && won["ic3"]+won["polic3"]+won["hunt"] == 0 {
			t.Errorf("with a budget of one state for bfs, neither ic3 nor the hunter won a question: %v", won)
		}
	}
}

// transport5 loads bench/polic3's tr5 instance (L=1000, P=60, VMAX=5,
// CAP=5) with its safe-trained 16x16 network.
func transport5(t *testing.T) (*symbolic.Model, *symbolic.Property, *symbolic.PolicyDecl) {
	t.Helper()
	m, diags := lang.Load("../bench/polic3/transport.spec", lang.Options{Defines: map[string]string{"L": "1000", "P": "60", "VMAX": "5", "CAP": "5"}})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	for _, p := range m.Policies {
		if p.Name == "tr5_16x16_safe" {
			return m, m.Properties[0], p
		}
	}
	t.Fatal("no policy tr5_16x16_safe")
	return nil, nil, nil
}

// TestAutoDeepCounterexample: tr5 of bench/polic3 is unsafe at depth 88
// (BFS needs 8.5 million states to show it; PolIC3 reaches frame 8 in 600
// s). The portfolio's hunter finds a counterexample at once, and it
// replays like every engine's.
func TestAutoDeepCounterexample(t *testing.T) {
	m, prop, d := transport5(t)
	start := time.Now()
	v, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: prop, Policy: d, Engine: "auto", Limits: verify.Limits{Timeout: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if v.Answer != explicit.UnsafeVerdict {
		t.Fatalf("auto: %v (%s), want unsafe; members %+v", v.Answer, v.Reason, v.Auto.Members)
	}
	if len(v.Trace)-1 < 88 {
		t.Errorf("a counterexample of %d steps, shorter than the shortest (88)", len(v.Trace)-1)
	}
	t.Logf("auto: unsafe in %d steps by %s in %v; members %+v", len(v.Trace)-1, v.Engine, took, v.Auto.Members)
	for _, mb := range v.Auto.Members {
		if mb.StopSeconds > 1.5 {
			t.Errorf("%s took %.1fs to stop after the winner's verdict", mb.Engine, mb.StopSeconds)
		}
	}
	// PolIC3 alone, for comparison (logged, not asserted: it is a time).
	p, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: prop, Policy: d, Engine: "polic3", Limits: verify.Limits{Timeout: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("polic3 alone in 3s: %v (%s), frame %d", p.Answer, p.Reason, p.IC3.Stats.Frames)
	if p.Answer == explicit.Safe {
		t.Errorf("polic3 says safe where a counterexample replayed")
	}
}
