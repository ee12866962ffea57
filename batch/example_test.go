package batch_test

import (
	"fmt"

	"vigil/batch"
)

// Runs are the product of algorithms, instances and repetitions; each id
// names the run's directory, so ids do not change when runs are added.
func ExampleParse() {
	x, err := batch.Parse("../bench/example.toml", []byte(`
name = "example"
seeds = [1, 2]

[limits]
time = "30s"
memory = "2GiB"

[[algorithms]]
name = "bfs"
args = ["verify", "{model}", "--policy", "{policy}", "--engine", "bfs", "--json"]

[[instances]]
models = ["../specs/tarjansafe.spec"]
policies = ["hasty", "patient"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(x.Limits.CPU, x.Limits.Wall, x.Limits.Memory>>20, "MiB")
	for _, r := range x.Runs {
		fmt.Println(r.ID, r.Args)
	}
	// Output:
	// 30s 55s 2048 MiB
	// bfs/specs/tarjansafe-hasty/seed-1 [verify ../specs/tarjansafe.spec --policy hasty --engine bfs --json]
	// bfs/specs/tarjansafe-hasty/seed-2 [verify ../specs/tarjansafe.spec --policy hasty --engine bfs --json]
	// bfs/specs/tarjansafe-patient/seed-1 [verify ../specs/tarjansafe.spec --policy patient --engine bfs --json]
	// bfs/specs/tarjansafe-patient/seed-2 [verify ../specs/tarjansafe.spec --policy patient --engine bfs --json]
}
