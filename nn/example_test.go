package nn_test

import (
	"fmt"

	"vigil/nn"
)

// auto_LiRPA's toy network: y = relu(x0 - x1) - relu(2 x0 - x1).
func toyNet() *nn.Network {
	n, err := nn.ParseJSON([]byte(`{"format": "vigil-nn", "version": 1, "layers": [
		{"weights": [[1, -1], [2, -1]], "bias": [0, 0], "activation": "relu"},
		{"weights": [[1, -1]], "bias": [0]}]}`))
	if err != nil {
		panic(err)
	}
	return n
}

func ExampleNetwork_Bounds() {
	n := toyNet()
	box := nn.Box{Lo: []float64{-1, -2}, Hi: []float64{2, 1}}
	for _, m := range []nn.Method{nn.IBP, nn.CROWN} {
		lo, hi, _ := n.Bounds(box, nil, m)
		fmt.Printf("%s: [%.4g, %.4g]\n", m, lo[0], hi[0])
	}
	// Output:
	// ibp: [-6, 4]
	// crown: [-3, 3]
}

func ExampleNetwork_Excludes() {
	// Two outputs: x and 1 - x. Over x in [0, 0.4] output 0 always
	// loses to output 1; over [0, 0.6] it wins somewhere.
	n, _ := nn.ParseJSON([]byte(`{"format": "vigil-nn", "version": 1, "layers": [
		{"weights": [[1], [-1]], "bias": [0, 1]}]}`))
	for _, hi := range []float64{0.4, 0.6} {
		res, _ := n.Excludes(nn.Box{Lo: []float64{0}, Hi: []float64{hi}}, 0, []int{1}, nn.Options{})
		fmt.Println(hi, res.Verdict, res.Witness != nil)
	}
	// Output:
	// 0.4 proved false
	// 0.6 refuted true
}
