package fuzz_test

import (
	"context"
	"fmt"
	"strings"

	"vigil/fuzz"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// Safety testing on a walk towards a cliff edge: a step may slip one cell
// further, waiting is always safe, and the policy steps on from x = 5.
func ExampleSafetyTest() {
	m, _ := lang.LoadSource("cliff.spec", []byte(`
model cliff
var x : 0 .. 6 = 0
action step when x < 6 -> x' = x + 1 | x' = min(x + 2, 6)
action wait -> x' = x
policy rules pi {
    when x == 4 -> wait
    otherwise -> step
}
property p { start x <= 1 unsafe x == 6 }
`), lang.Options{})
	pol, _ := explicit.NewDecider(m, m.Policies[0])
	task, _ := fuzz.NewSafetyTask(m, m.Properties[0], pol, "pi")
	cfg, _ := fuzz.ParseSafetyConfig("inf-greedy")
	res, err := fuzz.SafetyTest(context.Background(), []*fuzz.SafetyTask{task}, fuzz.SafetyOptions{Config: cfg, Runs: 100, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d of %d runs unsafe, %d distinct\n", res.Unsafe(), res.Runs, len(res.Cases))
	c := res.Cases[0]
	var path []string
	for _, st := range c.Run.Steps {
		path = append(path, m.FormatState(st.State))
	}
	fmt.Println(strings.Join(path, " -> "))
	fmt.Println("bug steps:", c.Bugs)
	for _, f := range c.Faults {
		fmt.Printf("fault at %s: %s may lead to %s; %s is safe\n", m.FormatState(f.State), m.Labels[f.Label].Name, m.FormatState(f.Outcome), m.Labels[f.Alt].Name)
	}
	// Output:
	// 51 of 100 runs unsafe, 1 distinct
	// x=1 -> x=3 -> x=5 -> x=6
	// bug steps: [0 1 2]
	// fault at x=5: step may lead to x=6; wait is safe
}
