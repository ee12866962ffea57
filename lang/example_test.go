package lang_test

import (
	"fmt"
	"os"

	"vigil/lang"
	"vigil/symbolic"
)

func ExampleLoadSource() {
	src := []byte(`
model counter
const N = 3
var x : 0 .. N = 0
action inc when x < N -> x' = x + 1
action reset -> 1/4: x' = 0 | skip
property full { unsafe x == N }
`)
	m, diags := lang.LoadSource("counter.spec", src, lang.Options{Defines: map[string]string{"N": "5"}})
	if diags.HasErrors() {
		fmt.Print(diags.Render())
		return
	}
	fmt.Println(len(m.Vars), "variable,", len(m.Commands), "commands")
	symbolic.Print(os.Stdout, m)
	// Output:
	// 1 variable, 2 commands
	// model counter
	//
	// const N = 5
	//
	// var x : 0 .. 5 = 0
	//
	// action inc when x < 5 -> x' = x + 1
	// action reset
	//     -> 1/4: x' = 0
	//      | skip
	//
	// property full {
	//     unsafe x == 5
	// }
}

func ExampleLoadSource_errors() {
	src := []byte("var speed : 0 .. 3\nvar pos : 0 .. 9\naction a -> pos' = speed * pos\n")
	_, diags := lang.LoadSource("bad.spec", src, lang.Options{})
	fmt.Print(diags.Render())
	// Output:
	// bad.spec:3:20: error[E0204]: product of two variables: speed * pos is not linear
	//  3 | action a -> pos' = speed * pos
	//    |                    ^^^^^^^^^^^
}
