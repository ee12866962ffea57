package jsonerr

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestWant(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"", "a string"},
		{1.5, "a number"},
		{[]int{}, "an array of integers"},
		{[][]float64{}, "an array of arrays of numbers"},
		{[]*struct{}{}, "an array of objects"},
		{[]bool{}, "an array of Booleans (true or false)"},
	} {
		if got := Want(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("Want(%T) = %q, want %q", c.v, got, c.want)
		}
	}
	var x struct {
		W [][]float64 `json:"weights"`
	}
	data := []byte(`{"weights": "x"}`)
	err := json.Unmarshal(data, &x)
	if got := Describe(data, err); got != `line 1, column 16: field weights: got a string, want an array of arrays of numbers` {
		t.Errorf("Describe: %s", got)
	}
}
