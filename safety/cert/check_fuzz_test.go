package cert_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/safety"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// FuzzCheck is a semantic fuzz of the certificate checker, the trusted
// part of vigil check --cert: it reads arbitrary certificates about the
// walk model and, for each one Check accepts, asks an independent
// implementation the same question.
// An accepted safe certificate must be about a state the engine finds
// r-safe and an unsafe one about a state it finds not r-safe; for an
// accepted invariant, breadth-first search under the tested policy must
// find no unsafe state.
// Check never panics. Crashers stay in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	head := `{"format":"vigil-safety-certificate","version":1,"model":"walk","property":"p","vars":["x","done"],`
	for _, s := range []string{
		`"kind":"safe","policy":"home","radius":0,"state":[1,0],"entries":[{"s":[1,0],"b":0,"label":"left"},{"s":[0,0],"b":0,"label":"stop"}]}`,
		`"kind":"safe","policy":"rush","radius":2,"state":[1,0],"entries":[{"s":[1,0],"b":2,"label":"left"},{"s":[0,0],"b":1,"label":"stop"}]}`,
		`"kind":"unsafe","policy":"rush","radius":0,"state":[1,0],"entries":[{"s":[1,0],"b":0,"rank":3},{"s":[2,0],"b":0,"rank":2},{"s":[3,0],"b":0,"rank":1},{"s":[4,0],"b":0,"rank":0}]}`,
		`"kind":"safe","radius":"inf","state":[3,0],"entries":[{"s":[3,0],"b":0,"label":"left"},{"s":[2,0],"b":0,"label":"left"},{"s":[1,0],"b":0,"label":"left"},{"s":[0,0],"b":0,"label":"stop"}]}`,
		`"kind":"invariant","policy":"timid","radius":"inf","entries":[{"s":[1,0]},{"s":[2,0]}]}`,
		`"kind":"invariant","policy":"home","radius":"inf","entries":[{"s":[1,0]},{"s":[0,0]},{"s":[0,1]}]}`,
		`"kind":"unsafe","policy":"timid","radius":1,"state":[2,0],"entries":[{"s":[2,0],"b":1,"rank":2},{"s":[3,0],"b":0,"rank":1},{"s":[4,0],"b":0,"rank":0}]}`,
	} {
		f.Add(head + s)
	}
	src, err := os.ReadFile("testdata/walk.spec")
	if err != nil {
		f.Fatal(err)
	}
	m, diags := lang.LoadSource("walk.spec", src, lang.Options{})
	if diags.HasErrors() {
		f.Fatal(diags.Render())
	}
	prop := m.Property("p")
	g, err := explicit.New(m, prop)
	if err != nil {
		f.Fatal(err)
	}
	var starts []symbolic.State
	g.Starts(func(s symbolic.State) bool { starts = append(starts, append(symbolic.State(nil), s...)); return true })
	f.Fuzz(func(t *testing.T, in string) {
		c, err := cert.Read(strings.NewReader(in))
		if err != nil {
			return
		}
		pol := m.Policy(c.Policy)
		if _, err := cert.Check(m, prop, pol, c); err != nil {
			return
		}
		// The engine's question: r-safety of the certificate's state
		// (plain safety at radius inf), or 0-safety of every start
		// state under the invariant's policy (every label without one).
		r := safety.Radius(c.Radius)
		if c.Radius == cert.Inf {
			r = safety.Inf
		}
		var states []symbolic.State
		want := safety.Safe
		switch c.Kind {
		case cert.Safe, cert.Unsafe:
			if pol == nil && r != safety.Inf {
				t.Fatalf("accepted a radius-%d certificate without a policy", c.Radius)
			}
			states = []symbolic.State{append(symbolic.State(nil), c.State...)}
			if c.Kind == cert.Unsafe {
				want = safety.Unsafe
			}
		case cert.Invariant:
			// Breadth-first search under the policy (every label
			// without one) must find no unsafe state.
			var dec explicit.Decider
			if pol != nil {
				if dec, err = explicit.NewDecider(m, pol); err != nil {
					t.Fatal(err)
				}
			}
			res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, MaxStates: 1000})
			if err != nil || res.Verdict != explicit.Safe {
				t.Fatalf("Check accepted an invariant for policy %q, but search finds %v (%v)\n%s", c.Policy, res.Verdict, err, in)
			}
			return
		default:
			return
		}
		if pol == nil {
			pol = m.Policy("home") // at radius inf the policy does not matter
		}
		dec, err := explicit.NewDecider(m, pol)
		if err != nil {
			t.Fatal(err)
		}
		d, err := safety.New("tarjan", safety.NewSpace(g, dec), r, safety.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, s := range states {
			res, err := safety.DecideState(ctx, d, s)
			if err != nil {
				t.Fatalf("the engine cannot decide %v: %v", s, err)
			}
			if got := res.States[0].Verdict; got != want {
				t.Fatalf("Check accepted a %s certificate (radius %d, policy %q) but the engine finds %s %v\n%s",
					c.Kind, c.Radius, c.Policy, m.FormatState(s), got, in)
			}
		}
	})
}
