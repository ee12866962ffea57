package bdd_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"vigil/bdd"
	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// checkPropU compares BDD Prop-U with explicit Prop-U and TarjanSafe on
// every state of tc's model, and with the safety suite's reference on the
// reachable states, for r = inf and r = 0.
func checkPropU(tc *conformance.Model, o bdd.Order) (int, error) {
	ctx := context.Background()
	all := gen.States(tc.M)
	asked := 0
	for _, r := range []safety.Radius{safety.Inf, 0} {
		res, err := bdd.PropU(ctx, tc.M, tc.Prop, tc.Pol, r, nil, bdd.Options{Order: o})
		if err != nil {
			return asked, err
		}
		if !res.Complete {
			return asked, fmt.Errorf("radius %v: incomplete: %s", r, res.Reason)
		}
		got, err := res.Decide(all)
		if err != nil {
			return asked, err
		}
		unsafe := 0
		for _, a := range got {
			if a == bdd.AnswerUnsafe {
				unsafe++
			}
		}
		if res.Unsafe.Int64() != int64(unsafe) || res.Total.Int64() != int64(len(all)) {
			return asked, fmt.Errorf("radius %v: counts %v unsafe of %v, but %d of %d states answered unsafe", r, res.Unsafe, res.Total, unsafe, len(all))
		}
		// The cover of cubes is the region.
		cubes, total := res.Cubes(1 << 20)
		if float64(len(cubes)) != total {
			return asked, fmt.Errorf("radius %v: %d cubes listed of a cover of %v", r, len(cubes), total)
		}
		for i, s := range all {
			in := false
			for _, c := range cubes {
				if inCube(tc.M, c, s) {
					in = true
					break
				}
			}
			if in != (got[i] == bdd.AnswerUnsafe) {
				return asked, fmt.Errorf("radius %v, state %s: in the cover %v, unsafe %v", r, tc.M.FormatState(s), in, got[i])
			}
		}
		for _, algo := range []string{"propu", "tarjan"} {
			sp := safety.NewSpace(tc.G, tc.Dec)
			d, err := safety.New(algo, sp, r, safety.Options{})
			if err != nil {
				return asked, err
			}
			for i, s := range all {
				id, err := sp.Intern(s)
				if err != nil {
					return asked, err
				}
				want, err := d.Decide(ctx, id)
				if err != nil {
					return asked, err
				}
				if (got[i] == bdd.AnswerSafe) != want || got[i] == bdd.AnswerUnknown {
					return asked, fmt.Errorf("radius %v, state %s: BDD Prop-U says %v, %s says safe=%v", r, tc.M.FormatState(s), got[i], algo, want)
				}
				asked++
			}
		}
		// The suite's reference on the reachable states.
		ref := conformance.Reference(tc.Gr, tc.Pi, r)
		s := make(symbolic.State, len(tc.M.Vars))
		var reach []symbolic.State
		for id := 0; id < tc.Gr.NumStates(); id++ {
			tc.G.L.Unpack(tc.Gr.Store.Get(uint32(id)), s)
			reach = append(reach, append(symbolic.State(nil), s...))
		}
		ans, err := res.Decide(reach)
		if err != nil {
			return asked, err
		}
		for id, a := range ans {
			if (a == bdd.AnswerSafe) != ref[id] || a == bdd.AnswerUnknown {
				return asked, fmt.Errorf("radius %v, state %s: BDD Prop-U says %v, the reference says safe=%v", r, tc.M.FormatState(reach[id]), a, ref[id])
			}
			asked++
		}
	}
	return asked, nil
}

// TestPropUConforms: on 1000 generated models (the safety suite's), every
// state's verdict, r = inf and r = 0, equals explicit Prop-U's and
// TarjanSafe's, and the reference's on the reachable states.
func TestPropUConforms(t *testing.T) {
	n := models(t)
	t.Run("small", func(t *testing.T) { conformPropU(t, 1, n, gen.Options{}, nil) })
	t.Run("larger", func(t *testing.T) {
		conformPropU(t, 100000, n/10, gen.Options{MaxVars: 5, MaxRange: 7, MaxLabels: 4, MaxCommands: 7, MaxOutcomes: 3}, nil)
	})
}

// conformPropU runs checkPropU on n models of the safety suite generated
// from seed first on with g (conformance.GenerateWith: policy, when not
// nil, gives each model's tested policy), and fails when it compares
// fewer answers than that.
func conformPropU(t *testing.T, first uint64, n int, g gen.Options, policy func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error)) {
	t.Helper()
	done, asked := 0, 0
	for seed := first; done < n && seed < first+4*uint64(n); seed++ {
		tc, err := conformance.GenerateWith(seed, g, policy)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if tc == nil {
			continue
		}
		done++
		k, err := checkPropU(tc, bdd.Order(seed%3))
		asked += k
		if err != nil {
			t.Errorf("seed %d (%s): %v", seed, tc.M.Name, err)
		}
	}
	t.Logf("%d models, %d answers compared (with explicit Prop-U, TarjanSafe and the reference)", done, asked)
	// Each model has a reachable state, asked at two radii: a suite
	// that compares less has silently skipped models.
	if done < n || asked < 2*done {
		t.Errorf("%d of %d models, %d answers compared: the suite tests too little", done, n, asked)
	}
}

// TestPropURangeErrors: on models with out-of-range outcomes, Decide fails
// for a state exactly when a fresh explicit Prop-U fails on it (its region
// reaches a state where an enabled command leaves a range), with the same
// error (the explicit pass of the range-error search names the same
// state), and otherwise agrees; the symbolic search alone gives a range
// error too.
func TestPropURangeErrors(t *testing.T) {
	ctx := context.Background()
	errs, asked := 0, 0
	defer func(n int) { *bdd.ExplicitRegionStates = n }(*bdd.ExplicitRegionStates)
	explicitPass := *bdd.ExplicitRegionStates
	for seed := uint64(1); seed <= uint64(models(t)/5); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 3, MaxRange: 5})
		prop, pd := m.Properties[0], m.Policies[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		dec, _ := explicit.NewDecider(m, pd)
		for _, r := range []safety.Radius{safety.Inf, 0} {
			res, err := bdd.PropU(ctx, m, prop, pd, r, nil, bdd.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range gen.States(m) {
				sp := safety.NewSpace(g, dec)
				d := safety.NewPropU(sp, r)
				id, _ := sp.Intern(s)
				want, werr := d.Decide(ctx, id)
				got, gerr := res.Decide([]symbolic.State{s})
				*bdd.ExplicitRegionStates = 0
				got0, gerr0 := res.Decide([]symbolic.State{s})
				*bdd.ExplicitRegionStates = explicitPass
				// The explicit pass names the state the explicit deciders
				// name; the symbolic search alone a state of the same
				// layer (the BDD order's first), so only the kind agrees.
				var re0 *explicit.RangeError
				if (gerr == nil) != (gerr0 == nil) || gerr0 != nil && !errors.As(gerr0, &re0) || gerr == nil && got[0] != got0[0] {
					t.Fatalf("seed %d, radius %v, state %s: with the explicit pass %v (%v), symbolic only %v (%v)", seed, r, m.FormatState(s), got, gerr, got0, gerr0)
				}
				if werr != nil && fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Fatalf("seed %d, radius %v, state %s: the explicit pass reports %v, explicit Prop-U %v", seed, r, m.FormatState(s), gerr, werr)
				}
				asked++
				var re *explicit.RangeError
				switch {
				case werr != nil:
					errs++
					if gerr == nil || !errors.As(gerr, &re) {
						t.Fatalf("seed %d, radius %v, state %s: explicit fails (%v), BDD says %v (%v)", seed, r, m.FormatState(s), werr, got, gerr)
					}
				case gerr != nil:
					t.Fatalf("seed %d, radius %v, state %s: explicit says safe=%v, BDD fails: %v", seed, r, m.FormatState(s), want, gerr)
				case (got[0] == bdd.AnswerSafe) != want:
					t.Fatalf("seed %d, radius %v, state %s: explicit says safe=%v, BDD %v", seed, r, m.FormatState(s), want, got[0])
				}
			}
		}
	}
	t.Logf("%d states asked, %d range errors in both", asked, errs)
}

// inCube reports whether state s lies in cube c.
func inCube(m *symbolic.Model, c bdd.Cube, s symbolic.State) bool {
	for _, vs := range c {
		x := s[m.VarIndex(vs.Var)]
		if vs.Ranges == nil {
			if uint64(x-vs.Offset)&vs.Mask != vs.Bits {
				return false
			}
			continue
		}
		ok := false
		for _, r := range vs.Ranges {
			if x >= r.Lo && x <= r.Hi {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
