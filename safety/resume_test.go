package safety_test

import (
	"context"
	"errors"
	"testing"

	"vigil/safety"
	"vigil/safety/cert"
)

// stopAfter is a context whose Err reports a deadline from its n-th call
// on: deciders poll it every 1024 expansions, so it interrupts a search
// after about n*1024 of them.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestDecideResumes: vigil safe --starts under --timeout decides the start
// states in turns, interrupting a decider's search and calling Decide on
// other states and then on the same state again. Every decider must then
// give the answers it gives without interruptions, and its certificate for
// all the start states must check. (On this model tarjan, npi, vi and lrtdp
// are interrupted; ipi, propu and lao decide each state within one poll.)
func TestDecideResumes(t *testing.T) {
	in := load(t, "flappy.spec", "steer", "W=70", "S=6")
	interrupted := map[string]bool{}
	for _, r := range []safety.Radius{safety.Inf, 1} {
		for _, algo := range safety.Algorithms {
			if algo == "tarjan-path" { // exponential on purpose (paper 002's variant)
				continue
			}
			want := map[int]bool{}
			sp := safety.NewSpace(in.g, in.dec)
			d, err := safety.New(algo, sp, r, safety.Options{Order: safety.OrderApp, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range in.starts {
				id, _ := sp.Intern(s)
				if want[i], err = d.Decide(context.Background(), id); err != nil {
					t.Fatal(err)
				}
			}

			sp = safety.NewSpace(in.g, in.dec)
			d, _ = safety.New(algo, sp, r, safety.Options{Order: safety.OrderApp, Seed: 1})
			var ids []uint32
			for _, s := range in.starts {
				id, _ := sp.Intern(s)
				ids = append(ids, id)
			}
			pending, budget, stops := ids, 0, 0
			got := map[uint32]bool{}
			for len(pending) > 0 {
				var next []uint32
				for _, id := range pending {
					ans, err := d.Decide(&stopAfter{Context: context.Background(), n: budget}, id)
					switch {
					case errors.Is(err, context.DeadlineExceeded):
						next = append(next, id)
						stops++
					case err != nil:
						t.Fatalf("%s r=%v: %v", algo, r, err)
					default:
						got[id] = ans
					}
				}
				pending, budget = next, 2*budget+1
			}
			for i, id := range ids {
				if got[id] != want[i] {
					t.Errorf("%s r=%v: start state %s: %v after %d interruptions, %v without", algo, r, sp.Format(id), got[id], stops, want[i])
				}
			}
			if stops > 0 {
				interrupted[algo] = true
			}
			c, err := safety.CertifyStarts(d, ids)
			if err != nil {
				t.Fatalf("%s r=%v: %v", algo, r, err)
			}
			prop := in.m.Property("")
			c.Property, c.Policy = prop.Name, "steer"
			if _, err := cert.Check(in.m, prop, in.m.Policy("steer"), c); err != nil {
				t.Errorf("%s r=%v: the certificate after interruptions: %v", algo, r, err)
			}
		}
	}
	for _, algo := range []string{"tarjan", "npi", "vi"} {
		if !interrupted[algo] {
			t.Errorf("%s was never interrupted; the test needs a larger model", algo)
		}
	}
	t.Logf("interrupted: %v", interrupted)
}
