package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"vigil/lang"
	"vigil/verify"
)

// A Go program gets vigil verify's reports without the command line: the
// --json report, and the text with the counterexample and the reason of
// each of the policy's choices.
func ExampleNewReport() {
	m, diags := lang.Load("../specs/oneway.spec", lang.Options{})
	if diags.HasErrors() {
		log.Fatal(diags.Render())
	}
	q := &verify.Question{Model: m, Property: m.Properties[0], Engine: "bfs"}
	for _, p := range m.Policies {
		if p.Name == "careful" {
			q.Policy = p
		}
	}
	v, err := verify.Decide(context.Background(), q)
	if err != nil {
		log.Fatal(err)
	}
	rep := verify.NewReport(q, v)
	b, _ := json.Marshal(rep)
	var back struct{ Verdict, Policy string }
	json.Unmarshal(b, &back)
	fmt.Println(back.Verdict, back.Policy, rep.States, "states")
	var text strings.Builder
	rep.WriteText(&text, verify.TextOptions{Rerun: "vigil run specs/oneway.spec"})
	lines := strings.Split(text.String(), "\n")
	fmt.Println(strings.Join(lines[:6], "\n")) // the rest: 4 steps, the replay command, the engine's figures
	// Output:
	// unsafe careful 33 states
	// unsafe: policy careful reaches an unsafe state of property no_overshoot in 5 steps (a shortest counterexample)
	// counterexample (each state after the first lists the variables that changed; --full lists all):
	//    0  pos=1 speed=0 load=3 parked=false
	//       -> accelerate  (../specs/oneway.spec:16:8, outcome 1 of 2)
	//          policy careful: rule 3 fired (../specs/oneway.spec:39:5)
	//    1  pos=2 speed=1
}
