package safety_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// failingPolicy is a tested policy that fails (a policy error) on the
// states fails selects and otherwise answers as d. It is not
// explicit.Total, as a policy given through the API may fail.
type failingPolicy struct {
	d     explicit.Decider
	fails func(symbolic.State) bool
}

func (f failingPolicy) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	if f.fails(s) {
		return symbolic.NoLabel, fmt.Errorf("no choice for %v", []int(s))
	}
	return f.d.Decide(s, app)
}

// TestS23sPolicyErrorsAgree: on generated models that interval reasoning
// proves free of range errors (where the deciders used to skip the scope
// search), with a tested policy that fails on some states, every explicit
// decider answers every question as the rule of lang/spec.md, "Range
// errors", says: the policy error of a state in the question's scope (the
// same error from every decider, asked alone or in turn) when the scope
// holds a state where the policy fails, else the brute-force reference's
// verdict. Before, a decider that settled the question without meeting
// the failing state answered safe or not safe, and another the error, or
// two named different states.
func TestS23sPolicyErrorsAgree(t *testing.T) {
	ctx := context.Background()
	var asked, withErr, models int
	for seed := uint64(1); seed <= 400 && models < 40; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 5})
		if len(m.Properties) == 0 || len(m.Policies) == 0 || !safety.NoRangeErrors(m) {
			continue
		}
		models++
		_, _, g, dec0, ref := scopeSetup(t, m)
		mod := 3 + int(seed%4)
		fails := func(s symbolic.State) bool {
			h := int(seed)
			for _, v := range s {
				h = h*31 + v
			}
			return (h%mod+mod)%mod == 0
		}
		dec := failingPolicy{d: dec0, fails: fails}
		// The reference: a policy error is an error of the state (a
		// non-terminal state with an applicable label, where the
		// policy is evaluated).
		for i, s := range ref.ss {
			if ref.cls[i] == 0 && len(ref.app[i]) > 0 && fails(s) {
				ref.errs[i] = true
			}
		}
		for _, r := range []safety.Radius{0, 1, 2, safety.Inf} {
			safe := ref.safe(r)
			firsts := make([]string, len(ref.ss))
			for _, algo := range safety.Algorithms {
				for _, inTurn := range []bool{false, true} {
					var sp *safety.Space
					var d safety.Decider
					for i, s := range ref.ss {
						if sp == nil || !inTurn {
							sp = safety.NewSpace(g, dec)
							var err error
							if d, err = safety.New(algo, sp, r, safety.Options{Seed: 3}); err != nil {
								t.Fatal(err)
							}
						}
						id, err := sp.Intern(s)
						if err != nil {
							t.Fatal(err)
						}
						asked++
						got, err := d.Decide(ctx, id)
						werr := ref.scopeErrs(i, r)
						where := fmt.Sprintf("seed %d, radius %v, state %s, %s (in turn: %v)", seed, r, m.FormatState(s), algo, inTurn)
						switch {
						case werr && err == nil:
							t.Fatalf("%s: safe=%v, want the policy error of its scope", where, got)
						case !werr && err != nil:
							t.Fatalf("%s: %v; the scope has no error (answer: safe=%v)", where, err, safe[i][max(int(r), 0)])
						case err != nil:
							if !strings.Contains(err.Error(), "the tested policy in") {
								t.Fatalf("%s: %v, want a policy error", where, err)
							}
							withErr++
							if firsts[i] == "" {
								firsts[i] = err.Error()
							} else if err.Error() != firsts[i] {
								t.Fatalf("%s reports %v, another decider %v", where, err, firsts[i])
							}
						case got != safe[i][max(int(r), 0)]:
							t.Fatalf("%s: safe=%v, the reference %v", where, got, !got)
						}
					}
				}
			}
		}
	}
	if models < 10 || withErr == 0 {
		t.Fatalf("only %d models proven free of range errors, %d policy errors", models, withErr)
	}
	t.Logf("%d models, %d questions, %d answered with a policy error", models, asked, withErr)
}

// TestS23sTotalPolicies: the policies vigil loads never fail, so the
// static skip still applies to them; a decider of the API does not.
func TestS23sTotalPolicies(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 2, MaxRange: 4})
		for _, pd := range m.Policies {
			d, err := explicit.NewDecider(m, pd)
			if err != nil {
				t.Fatal(err)
			}
			if !explicit.IsTotal(d) || !explicit.NewCache(d).Total() {
				t.Fatalf("seed %d: the %s policy %s is not total", seed, pd.Kind, pd.Name)
			}
			if explicit.IsTotal(failingPolicy{d: d}) {
				t.Fatal("a failing decider is total")
			}
		}
	}
}
