package cert_test

import (
	"fmt"
	"strings"

	"vigil/lang"
	"vigil/safety/cert"
)

// A walker on 0..4 must not reach 4; the policy rush always steps right (and
// may slip). Two deviations — left, then stop — keep x=1 safe: it is 2-safe.
func ExampleCheck() {
	m, diags := lang.LoadSource("walk.spec", []byte(`model walk
var x    : 0 .. 4 = 1
var done : bool = false
action left  when x > 0 && !done -> x' = x - 1
action right when x < 4 && !done -> x' = x + 1 | skip
action stop  when x == 0 && !done -> done' = true
policy rules rush { otherwise -> right }
property p { unsafe x == 4  goal done }
`), lang.Options{})
	if diags.HasErrors() {
		panic(diags.Render())
	}
	c, err := cert.Read(strings.NewReader(`{
  "format": "vigil-safety-certificate", "version": 1, "kind": "safe",
  "spec": "walk.spec", "model": "walk", "property": "p", "policy": "rush", "radius": 2,
  "vars": ["x", "done"], "state": [1, 0],
  "entries": [
    {"s": [1, 0], "b": 2, "label": "left"},
    {"s": [0, 0], "b": 1, "label": "stop"}
  ]
}`))
	if err != nil {
		panic(err)
	}
	rep, err := cert.Check(m, m.Property("p"), m.Policy("rush"), c)
	fmt.Println(rep, err)

	c.Radius, c.Entries[0].B, c.Entries[1].B = 1, 1, 0 // one deviation is not enough
	_, err = cert.Check(m, m.Property("p"), m.Policy("rush"), c)
	fmt.Println(err)
	// Output:
	// safe certificate, radius 2: 2 entries, 2 states, 2 successors checked <nil>
	// cert: entries[1] (x=0 done=false): budget 0 runs out: label stop deviates (policy rush chooses right)
}
