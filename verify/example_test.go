package verify_test

import (
	"context"
	"fmt"
	"log"

	"vigil/lang"
	"vigil/verify"
)

// Verify a network policy of a shipped spec: the truck of specs/oneway.spec
// driven by the 32x32 network "driver". The verdict comes checked: the
// counterexample has replayed in the explicit semantics.
func Example() {
	m, diags := lang.Load("../specs/oneway.spec", lang.Options{})
	if diags.HasErrors() {
		log.Fatal(diags.Render())
	}
	q := &verify.Question{Model: m, Property: m.Properties[0], Engine: "bfs"}
	for _, p := range m.Policies {
		if p.Name == "driver" {
			q.Policy = p
		}
	}
	v, err := verify.Decide(context.Background(), q)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s by %s: %d steps from %s\n", v.Answer, v.Engine, len(v.Trace)-1, m.FormatState(v.Trace[0].State))
	// Output: unsafe by bfs: 5 steps from pos=1 speed=0 load=3 parked=false
}
