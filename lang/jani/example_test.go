package jani_test

import (
	"fmt"
	"os"

	"vigil/lang/jani"
	"vigil/symbolic"
)

func ExampleDecode() {
	src := []byte(`{
	  "jani-version": 1, "type": "mdp", "actions": [{"name": "flip"}],
	  "variables": [{"name": "heads", "type": "bool", "initial-value": false}],
	  "automata": [{"name": "coin", "locations": [{"name": "l"}], "initial-locations": ["l"],
	    "edges": [{"location": "l", "action": "flip", "destinations": [
	      {"location": "l", "probability": {"exp": 0.5}, "assignments": [{"ref": "heads", "value": true}]},
	      {"location": "l", "probability": {"exp": 0.5}, "assignments": [{"ref": "heads", "value": false}]}]}]}],
	  "system": {"elements": [{"automaton": "coin"}]}}`)
	m, _, err := jani.Decode("coin.jani", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	symbolic.Print(os.Stdout, m)
	fmt.Println(m.Commands[0].Pos)
	// Output:
	// model coin
	//
	// var heads : bool = false
	//
	// action flip
	//     -> 1/2: heads' = true
	//      | 1/2: heads' = false
	// coin.jani#automata[0].edges[0]:5:16
}

func ExampleDecode_error() {
	src := []byte(`{"jani-version": 1, "type": "lts",
	  "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
	    "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 1}}, "destinations": [{"location": "l"}]}]}],
	  "system": {"elements": [{"automaton": "a"}]}}`)
	_, _, err := jani.Decode("bad.jani", src, nil)
	fmt.Println(err)
	// Output:
	// jani: bad.jani#automata[0].edges[0].guard.exp.left:3:71: undeclared identifier "x"
}
