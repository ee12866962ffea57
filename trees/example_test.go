package trees_test

import (
	"fmt"
	"math"

	"vigil/trees"
)

// A two-class Veritas ensemble: tree 0 votes by x0, tree 1 by x1.
const exampleModel = `{"at_type":"CLF_MEAN","base_scores":[0,0],"trees":[
{"num_leaf_values":2,"split_type":"LtSplit","structure":{"feat_id":0,"split_value":5,"left":{"leaf_value":[1,0]},"right":{"leaf_value":[0,1]}}},
{"num_leaf_values":2,"split_type":"LtSplit","structure":{"feat_id":1,"split_value":2,"left":{"leaf_value":[0.5,0]},"right":{"leaf_value":[0,0.75]}}}]}`

func ExampleEnsemble_Max() {
	e, err := trees.Parse([]byte(exampleModel))
	if err != nil {
		fmt.Println(err)
		return
	}
	box := trees.Box{{Lo: 0, Hi: 10}, {Lo: math.Inf(-1), Hi: math.Inf(1)}}
	r, _ := e.Max(box, 1, trees.Options{})
	fmt.Println(r.Exact, r.Lower, r.Witness)
	// Output: true 1.75 [5 2]
}

func ExampleEnsemble_Excludes() {
	e, _ := trees.Parse([]byte(exampleModel))
	// For x0 < 5, class 0 gets at least 1 and class 1 at most 0.75.
	d, _ := e.Excludes(trees.Box{{Lo: 0, Hi: 4}, {Lo: 0, Hi: 9}}, 1, []int{0}, trees.Options{})
	fmt.Println(d.Verdict)
	d, _ = e.Excludes(trees.Box{{Lo: 0, Hi: 9}, {Lo: 0, Hi: 9}}, 1, []int{0}, trees.Options{})
	fmt.Println(d.Verdict, d.Witness)
	// Output:
	// excluded
	// possible [5 0]
}
