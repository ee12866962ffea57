package smtlib

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// bfsVerdict is the explicit engine's answer to q: "sat" (safe: an
// invariant exists), "unsat" (an unsafe state, or a range error, is
// reachable), or "" when the engine cannot answer (no start state, a
// model it rejects).
func bfsVerdict(q Question) (string, error) {
	g, err := explicit.New(q.Model, q.Property)
	if err != nil {
		return "", err
	}
	var dec explicit.Decider
	if q.Policy != nil {
		if dec, err = explicit.NewDecider(q.Model, q.Policy); err != nil {
			return "", err
		}
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	var rerr *explicit.RangeError
	switch {
	case errors.As(err, &rerr):
		return "unsat", nil // a reachable range error is bad
	case err != nil:
		return "", err
	case res.Verdict == explicit.Safe:
		return "sat", nil
	case res.Verdict == explicit.UnsafeVerdict:
		return "unsat", nil
	}
	return "", fmt.Errorf("verdict %v", res.Verdict)
}

// TestCHCMatchesBFS is the differential test: Spacer's answer on WriteCHC
// must be the explicit engine's verdict, for generated models with their
// rules policy and without a policy, with and without range errors.
func TestCHCMatchesBFS(t *testing.T) {
	needZ3(t)
	n, nErr := 300, 100
	if testing.Short() {
		n, nErr = 40, 10
	}
	type question struct {
		q    Question
		want string
	}
	qs := map[string]question{}
	var ps []problem
	counts := map[string]int{}
	add := func(name string, m *symbolic.Model, pol *symbolic.PolicyDecl) {
		q := Question{Model: m, Property: m.Properties[0], Policy: pol}
		want, err := bfsVerdict(q)
		if err != nil {
			counts["skipped"]++
			return
		}
		var b strings.Builder
		if err := WriteCHC(&b, q); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		counts[want]++
		qs[name] = question{q, want}
		ps = append(ps, problem{name, b.String()})
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{})
		add(fmt.Sprintf("gen%d/pi", seed), m, m.Policies[0])
		add(fmt.Sprintf("gen%d/none", seed), m, nil)
		if seed%3 == 0 {
			add(fmt.Sprintf("gen%d/tab", seed), m, randomTable(m, seed))
		}
	}
	for seed := uint64(1000); seed < uint64(1000+nErr); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true})
		add(fmt.Sprintf("rangeerr%d/pi", seed), m, m.Policies[0])
		add(fmt.Sprintf("rangeerr%d/none", seed), m, nil)
	}
	begin := time.Now()
	// -t: a soft timeout per check, so that one hard question answers
	// unknown instead of stalling the batch.
	got := runBatch(t, ps, 2, "-t:10000")
	unknown := 0
	for _, p := range ps {
		lines := got[p.name]
		want := qs[p.name].want
		switch {
		case len(lines) == 1 && lines[0] == want:
		case len(lines) == 1 && lines[0] == "unknown":
			unknown++
			t.Logf("%s: Spacer answers unknown (explicit: %s)", p.name, want)
		default:
			t.Errorf("%s: Spacer printed %q, the explicit engine answers %s\n%s", p.name, lines, want, p.text)
		}
	}
	if unknown*20 > len(ps) {
		t.Errorf("Spacer answered unknown on %d of %d questions", unknown, len(ps))
	}
	t.Logf("%d questions (%d safe, %d unsafe, %d skipped), %d unknown; z3 took %v",
		len(ps), counts["sat"], counts["unsat"], counts["skipped"], unknown, time.Since(begin).Round(time.Millisecond))
}
