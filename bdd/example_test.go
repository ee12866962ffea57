package bdd_test

import (
	"context"
	"fmt"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
)

// Prop-U with BDDs decides every state of paper 002's Fig. 1 family at
// once, at a size no explicit decider can store.
func ExamplePropU() {
	m, diags := lang.Load("../specs/tarjansafe.spec", lang.Options{Defines: map[string]string{"D": "1000000000000"}})
	if diags.HasErrors() {
		panic(diags.Render())
	}
	res, err := bdd.PropU(context.Background(), m, m.Properties[0], nil, safety.Inf, nil, bdd.Options{})
	if err != nil {
		panic(err)
	}
	cubes, _ := res.Cubes(10)
	fmt.Println(res.Unsafe, "of", res.Total, "states are not safe:", cubes)
	// Output: 2000000000004 of 4000000000008 states are not safe: [crashed=1]
}

// Forward reachability counts the states of a model far beyond what an
// explicit search can store.
func ExampleExplore() {
	m, diags := lang.Load("../specs/rover.spec", lang.Options{})
	if diags.HasErrors() {
		panic(diags.Render())
	}
	ex, err := bdd.Explore(context.Background(), m, m.Properties[0], m.Policy("careful"), bdd.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(ex.States, "states reached from", ex.Starts, "start states; unsafe:", ex.Unsafe)
	// Output: 9427609200000 states reached from 9009100100000 start states; unsafe: 0
}
