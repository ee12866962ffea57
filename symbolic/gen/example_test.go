package gen_test

import (
	"fmt"

	"vigil/symbolic/gen"
)

// Models are deterministic in their seed: engines can name a failing
// model by its seed alone.
func ExampleModel() {
	m := gen.Model(42, gen.Options{MaxVars: 3})
	fmt.Println(m.Name, len(m.Vars) <= 3, len(m.Policies), len(m.Properties))
	// Output:
	// gen42 true 1 1
}
