// Package conformance is the test suite every safety decider runs: on
// generated models (the explicit engine's random model generator), every
// state reachable from the start states is asked for r-safety, r in {0, 1,
// 2, inf}, and the answer is compared with a reference that decides it
// differently: the greatest fixpoint of "has an action within the budget
// whose outcomes all stay in the set", computed naively over (state,
// budget) pairs on the whole reachable graph (explicit.BuildGraph). Where
// the suite is given a certificate checker, every answer's certificate
// must pass it.
//
// Use it from a decider's tests:
//
//	conformance.Run(t, func(sp *safety.Space, r safety.Radius) safety.Decider {
//		return safety.NewTarjan(sp, r)
//	}, conformance.Options{})
package conformance

import (
	"context"
	"fmt"
	"testing"

	"vigil/safety"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	vconf "vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// Factory makes a decider for radius r over sp.
type Factory func(sp *safety.Space, r safety.Radius) safety.Decider

// CertChecker checks a certificate against the model, property and tested
// policy it was made for.
type CertChecker func(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, c *cert.Certificate) error

// Options select the models and what to check.
type Options struct {
	Models    int    // generated models (default 250)
	FirstSeed uint64 // seed of the first (default 1)
	Gen       gen.Options
	Radii     []safety.Radius // default 0, 1, 2, inf
	Check     CertChecker     // nil: certificates are built but not checked
	CertEvery int             // check the certificate of every k-th state (default 1)
	// MinQuestions is the fewest questions (state, radius) that must be
	// asked and compared with the reference; default: one per model and
	// radius (every model has a start state, and each state is asked for
	// every radius), so a suite that silently asks nothing fails.
	MinQuestions int
	// Policy, when set, replaces each model's rules policy by the
	// declaration it returns (a learned policy whose file it wrote, so
	// that the certificate checker can load it too).
	Policy func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error)
}

// Reference decides r-safety of every state of gr by the greatest fixpoint
// over (state, budget) pairs. pi[s] is the tested policy's group in state
// s (-1: stuck). It returns safe[s].
func Reference(gr *explicit.Graph, pi []int32, r safety.Radius) []bool {
	n := gr.NumStates()
	L := 1
	if r >= 0 {
		L = int(r) + 1
	}
	in := make([]bool, n*L)
	for s := 0; s < n; s++ {
		for b := 0; b < L; b++ {
			in[s*L+b] = gr.Status[s] != explicit.Unsafe
		}
	}
	cost := func(s int, k uint32) int {
		if r < 0 || pi[s] == int32(k) {
			return 0
		}
		return 1
	}
	for changed := true; changed; {
		changed = false
		for s := 0; s < n; s++ {
			from, to := gr.Groups(uint32(s))
			if gr.Status[s] != explicit.Open || from == to {
				continue // terminal or deadlock: fixed
			}
			for b := 0; b < L; b++ {
				if !in[s*L+b] {
					continue
				}
				ok := false
				for k := from; k < to && !ok; k++ {
					bp := b - cost(s, k)
					if bp < 0 {
						continue
					}
					all := true
					for _, t := range gr.Successors(k) {
						if !in[int(t)*L+bp] {
							all = false
							break
						}
					}
					ok = all
				}
				if !ok {
					in[s*L+b] = false
					changed = true
				}
			}
		}
	}
	safe := make([]bool, n)
	for s := range safe {
		safe[s] = in[s*L+L-1]
	}
	return safe
}

// Model is one generated test case: the model, its reachable graph and
// the tested policy's group per state.
type Model struct {
	Seed uint64
	M    *symbolic.Model
	Prop *symbolic.Property
	Pol  *symbolic.PolicyDecl
	G    *explicit.Generator
	Dec  explicit.Decider
	Gr   *explicit.Graph
	Pi   []int32
}

// Generate builds test case seed (nil when the model has no start state).
func Generate(seed uint64, opt gen.Options) (*Model, error) {
	return GenerateWith(seed, opt, nil)
}

// GenerateWith is Generate with the model's rules policy replaced by the
// declaration policy returns (when it is not nil).
func GenerateWith(seed uint64, opt gen.Options, policy func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error)) (*Model, error) {
	opt.RangeErrors = false
	m := gen.Model(seed, opt)
	if policy != nil {
		d, err := policy(m, seed)
		if err != nil {
			return nil, err
		}
		m.Policies[0] = d
	}
	prop, pol := m.Properties[0], m.Policies[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, err
	}
	dec, err := explicit.NewDecider(m, pol)
	if err != nil {
		return nil, err
	}
	gr, err := explicit.BuildGraph(context.Background(), g, explicit.Options{})
	if err != nil {
		return nil, nil // e.g. no start state
	}
	pi := make([]int32, gr.NumStates())
	s := make(symbolic.State, len(m.Vars))
	app := make([]bool, len(m.Labels))
	for id := range pi {
		pi[id] = -1
		from, to := gr.Groups(uint32(id))
		if from == to {
			continue
		}
		clear(app)
		for k := from; k < to; k++ {
			app[gr.GroupLabel[k]] = true
		}
		g.L.Unpack(gr.Store.Get(uint32(id)), s)
		l, err := dec.Decide(s, app)
		if err != nil {
			return nil, err
		}
		for k := from; k < to; k++ {
			if gr.GroupLabel[k] == l {
				pi[id] = int32(k)
			}
		}
	}
	return &Model{Seed: seed, M: m, Prop: prop, Pol: pol, G: g, Dec: dec, Gr: gr, Pi: pi}, nil
}

// Stats summarise a run of the suite.
type Stats struct {
	Models, Questions, Safe, Certs, Faults int
	// Uncertified counts the answers of deciders that keep no
	// certificates (tarjan-path).
	Uncertified int
}

// Run runs the suite for the deciders f makes.
func Run(t *testing.T, f Factory, opt Options) Stats {
	t.Helper()
	if opt.Models <= 0 {
		opt.Models = 250
	}
	if opt.FirstSeed == 0 {
		opt.FirstSeed = 1
	}
	opt.FirstSeed, opt.Models = vconf.Campaign(opt.FirstSeed, opt.Models)
	if opt.Radii == nil {
		opt.Radii = []safety.Radius{0, 1, 2, safety.Inf}
	}
	if opt.CertEvery <= 0 {
		opt.CertEvery = 1
	}
	var st Stats
	// Seeds whose model has no start state do not count: run until
	// opt.Models models were checked.
	for seed := opt.FirstSeed; st.Models < opt.Models && seed < opt.FirstSeed+4*uint64(opt.Models); seed++ {
		tc, err := GenerateWith(seed, opt.Gen, opt.Policy)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if tc == nil {
			continue
		}
		st.Models++
		if err := Check(tc, f, opt, &st); err != nil {
			t.Errorf("seed %d (%s): %v", seed, tc.M.Name, err)
			if t.Failed() && st.Models > 0 && testing.Short() {
				return st
			}
		}
	}
	t.Logf("conformance: %d models, %d questions (%d safe), %d certificates checked, %d faults found on unsafe runs", st.Models, st.Questions, st.Safe, st.Certs, st.Faults)
	need := opt.MinQuestions
	if need <= 0 {
		need = opt.Models * len(opt.Radii)
	}
	switch {
	case st.Models < opt.Models:
		t.Errorf("conformance: only %d of the %d models asked for have a start state (seeds %d..%d): the suite tests less than it says", st.Models, opt.Models, opt.FirstSeed, opt.FirstSeed+4*uint64(opt.Models)-1)
	case st.Questions < need:
		t.Errorf("conformance: %d questions compared with the reference, fewer than the %d required: the suite would test too little", st.Questions, need)
	case st.Safe == 0 || st.Safe == st.Questions:
		t.Errorf("conformance: every one of the %d answers is safe=%v: the suite does not test both answers", st.Questions, st.Safe > 0)
	case opt.Check != nil && st.Certs == 0 && st.Uncertified < st.Questions:
		t.Error("conformance: no certificate was checked")
	}
	return st
}

// CheckFaults runs fault analysis with a fresh decider on the shortest
// unsafe run of the tested policy (if any) and compares the faults and bugs
// with those the reference implies.
func CheckFaults(tc *Model, f Factory, r safety.Radius) (int, error) {
	ctx := context.Background()
	res, err := explicit.Search(ctx, tc.G, explicit.Options{Policy: tc.Dec, StopAtUnsafe: true})
	if err != nil || res.Verdict != explicit.UnsafeVerdict {
		return 0, nil
	}
	want := Reference(tc.Gr, tc.Pi, r)
	sp := safety.NewSpace(tc.G, tc.Dec)
	d := f(sp, r)
	run, err := safety.RunStates(sp, res.Trace)
	if err != nil {
		return 0, err
	}
	rep, err := safety.Faults(ctx, d, run)
	if err != nil {
		return 0, err
	}
	gid := func(s symbolic.State) uint32 {
		buf := make([]uint64, tc.G.L.W)
		tc.G.L.Pack(s, buf)
		id, ok := tc.Gr.Store.Lookup(buf)
		if !ok {
			panic("conformance: state not in the graph")
		}
		return id
	}
	var wantFaults []int
	var wantBugs []int
	for i, st := range res.Trace {
		g := gid(st.State)
		if rep.Safe[i] != want[g] {
			return 0, fmt.Errorf("%s, radius %v: fault analysis says step %d is safe=%v, the reference says %v", d.Name(), r, i, rep.Safe[i], want[g])
		}
		if i == len(res.Trace)-1 || !want[g] {
			continue
		}
		wantBugs = append(wantBugs, i)
		if tc.Pi[g] < 0 {
			continue
		}
		for _, t := range tc.Gr.Successors(uint32(tc.Pi[g])) {
			if !want[t] {
				wantFaults = append(wantFaults, i)
				break
			}
		}
	}
	if fmt.Sprint(wantBugs) != fmt.Sprint(rep.Bugs) {
		return 0, fmt.Errorf("%s, radius %v: bugs at steps %v, the reference says %v", d.Name(), r, rep.Bugs, wantBugs)
	}
	// The alternative label, a deviation, must keep the state r-safe: its
	// outcomes are (r-1)-safe (safe, for radius inf).
	after := want
	if r > 0 {
		after = Reference(tc.Gr, tc.Pi, r-1)
	}
	var got []int
	for _, fl := range rep.Faults {
		got = append(got, fl.Step)
		if fl.Alt == symbolic.NoLabel || fl.Alt == fl.Label || r == 0 {
			return 0, fmt.Errorf("%s, radius %v: fault at step %d without a safe alternative label", d.Name(), r, fl.Step)
		}
		g := gid(sp.State(fl.State))
		from, to := tc.Gr.Groups(g)
		found := false
		for k := from; k < to; k++ {
			if tc.Gr.GroupLabel[k] != fl.Alt {
				continue
			}
			found = true
			for _, t := range tc.Gr.Successors(k) {
				if !after[t] {
					return 0, fmt.Errorf("%s, radius %v: fault at step %d names alternative %s, whose outcome (graph state %d) is not safe with the budget left", d.Name(), r, fl.Step, tc.M.Labels[fl.Alt].Name, t)
				}
			}
		}
		if !found {
			return 0, fmt.Errorf("%s, radius %v: fault at step %d names alternative %s, not applicable there", d.Name(), r, fl.Step, tc.M.Labels[fl.Alt].Name)
		}
		if want[gid(sp.State(fl.Outcome))] {
			return 0, fmt.Errorf("%s, radius %v: fault at step %d names an outcome that is safe", d.Name(), r, fl.Step)
		}
	}
	if fmt.Sprint(wantFaults) != fmt.Sprint(got) {
		return 0, fmt.Errorf("%s, radius %v: faults at steps %v, the reference says %v", d.Name(), r, got, wantFaults)
	}
	// The run cut before its unsafe state ends in an open state, whose
	// decision is the run's too: the same faults, no bugs.
	if n := len(run); n >= 2 {
		d2 := f(sp, r)
		rep2, err := safety.Faults(ctx, d2, run[:n-1])
		if err != nil {
			return 0, err
		}
		var got2 []int
		for _, fl := range rep2.Faults {
			got2 = append(got2, fl.Step)
		}
		if fmt.Sprint(wantFaults) != fmt.Sprint(got2) || len(rep2.Bugs) != 0 {
			return 0, fmt.Errorf("%s, radius %v: on the run cut before its unsafe state, faults at steps %v and bugs %v, the reference says faults %v and no bugs", d.Name(), r, got2, rep2.Bugs, wantFaults)
		}
	}
	return len(got), nil
}

// Check asks every state of tc for every radius of opt and compares.
func Check(tc *Model, f Factory, opt Options, st *Stats) error {
	ctx := context.Background()
	s := make(symbolic.State, len(tc.M.Vars))
	for _, r := range opt.Radii {
		nf, err := CheckFaults(tc, f, r)
		if err != nil {
			return err
		}
		st.Faults += nf
		want := Reference(tc.Gr, tc.Pi, r)
		sp := safety.NewSpace(tc.G, tc.Dec)
		d := f(sp, r)
		// Ask the states in reverse discovery order and then forwards, so
		// that answers come both from fresh searches and from the caches.
		n := tc.Gr.NumStates()
		for i := 0; i < n; i++ {
			gid := uint32(n - 1 - i)
			if i%2 == 1 {
				gid = uint32(i / 2)
			}
			tc.G.L.Unpack(tc.Gr.Store.Get(gid), s)
			id, err := sp.Intern(s)
			if err != nil {
				return err
			}
			got, err := d.Decide(ctx, id)
			if err != nil {
				return fmt.Errorf("%s, radius %v, state %s: %v", d.Name(), r, tc.M.FormatState(s), err)
			}
			st.Questions++
			if got {
				st.Safe++
			}
			if got != want[gid] {
				return fmt.Errorf("%s, radius %v, state %s: decider says safe=%v, the reference says %v", d.Name(), r, tc.M.FormatState(s), got, want[gid])
			}
			if d.Name() == "tarjan-path" {
				st.Uncertified++
				continue // keeps no certificates
			}
			c, err := safety.Certify(d, id)
			if err != nil {
				return fmt.Errorf("%s, radius %v, state %s: %v", d.Name(), r, tc.M.FormatState(s), err)
			}
			if (c.Kind == cert.Safe) != got {
				return fmt.Errorf("%s, radius %v, state %s: certificate of kind %s for answer safe=%v", d.Name(), r, tc.M.FormatState(s), c.Kind, got)
			}
			if opt.Check != nil && i%opt.CertEvery == 0 {
				c.Property, c.Policy = tc.Prop.Name, tc.Pol.Name
				if err := opt.Check(tc.M, tc.Prop, tc.Pol, c); err != nil {
					return fmt.Errorf("%s, radius %v, state %s: the certificate does not check: %v", d.Name(), r, tc.M.FormatState(s), err)
				}
				st.Certs++
			}
		}
	}
	return nil
}
