package load_test

import (
	"fmt"
	"path/filepath"

	"vigil/load"
	"vigil/symbolic"
)

// A Go program loads a PlaJA instance (a JANI model with a PA property
// file naming the start and unsafe states and the network) as vigil
// verify counter.jani -D N=3 --start pa.jani --unsafe pa.jani
// --policy-file pa.jani does, and gets the policy bound to the model.
func ExampleLoad() {
	pa := filepath.Join("..", "specs", "plaja", "pa.jani")
	l, err := load.Load(filepath.Join("..", "specs", "plaja", "counter.jani"), load.Options{
		Defines:          map[string]string{"N": "3"},
		Files:            load.Files{Start: pa, Unsafe: pa, PolicyFile: pa},
		PropertyRequired: true,
		PolicyDefault:    load.ThePolicy,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if l.Policy.ArgMaxAll {
		fmt.Println("the policy takes the arg-max over all outputs (its interface has no \"filter\": true)")
	}
	pol, err := symbolic.Instantiate(l.Model, l.Policy)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := l.Model.InitialState()
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := symbolic.Decide(pol, s, func(symbolic.LabelID) bool { return true }, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("model %s, property %s, %s policy %s\n", l.Model.Name, l.Property.Name, l.Policy.Kind, l.Policy.Name)
	fmt.Printf("in %s the policy chooses %s\n", l.Model.FormatState(s), l.Model.Labels[a].Name)
	// Output:
	// the policy takes the arg-max over all outputs (its interface has no "filter": true)
	// model counter, property pa_counter, nn policy counter
	// in x=0 done=false loc_main=0 the policy chooses inc
}
