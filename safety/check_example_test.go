package safety_test

import (
	"context"
	"fmt"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/safety"
)

// A Go program asks whether the start state of tarjansafe.spec is safe
// (some policy avoids the crash) and whether it is 1-safe for policy
// hasty (one that deviates from hasty at most once does), as vigil safe
// --starts --radius inf and --radius 1 do. hasty may crash on every lap
// of the loop, and one deviation saves only the first: not 1-safe.
func ExampleCheck() {
	m, diags := lang.LoadFile("../specs/tarjansafe.spec", lang.Options{})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	hasty := m.Policy("hasty")
	for _, r := range []safety.Radius{safety.Inf, 1} {
		g, dec, err := testutil.Explicit(m, m.Property(""), hasty)
		if err != nil {
			fmt.Println(err)
			return
		}
		d, err := safety.New("tarjan", safety.NewSpace(g, dec), r, safety.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		rep, err := safety.Check(context.Background(), d, r, safety.CheckOptions{Policy: hasty.Name})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("radius %s: %s (%d of %d start states safe)\n", rep.Radius, rep.Verdict, rep.Safe, len(rep.States))
	}
	// Output:
	// radius inf: safe (1 of 1 start states safe)
	// radius 1: unsafe (0 of 1 start states safe)
}
