package nn

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// s25s: vigil's JSON writes an infinite number as the string "inf" or
// "-inf" (vigil prob --json's expected rewards), and a NaN as "nan"; nn's
// --json wrote all three as null, which says not which it was.
func TestS25sJSONNumbers(t *testing.T) {
	b, err := json.Marshal(JSONNumbers([]float64{1.5, math.Inf(1), math.Inf(-1), math.NaN(), 0}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `[1.5,"inf","-inf","nan",0]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if JSONNumbers(nil) != nil {
		t.Errorf("nil: want nil (an omitted field)")
	}
}

// The reports of nn verify and nn bound, on networks whose outputs
// overflow to +Inf, to -Inf, and to +Inf and NaN (Inf - Inf).
func TestS25sReportsInfinite(t *testing.T) {
	lin := func(in, out int, w ...float64) Layer {
		return Layer{In: in, Out: out, W: w, B: make([]float64, out)}
	}
	pos := &Network{Layers: []Layer{lin(1, 1, 1e308)}}
	neg := &Network{Layers: []Layer{lin(1, 1, -1e308)}}
	both := &Network{Layers: []Layer{lin(1, 2, 1e308, 1e308), lin(2, 2, 1, 1, 1, -1)}}
	// W is row-major, Out rows of In: both computes (x+x, x-x) of its
	// hidden (1e308 x, 1e308 x).
	box := "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(assert (>= X_0 2))\n(assert (<= X_0 3))\n"
	for _, tc := range []struct {
		name string
		net  *Network
		post string
		want string
	}{
		{"+inf", pos, "(assert (>= Y_0 5))", `"output":["inf"]`},
		{"-inf", neg, "(assert (<= Y_0 -5))", `"output":["-inf"]`},
		{"nan", both, "(assert (>= Y_0 5))", `"output":["inf","nan"]`},
	} {
		src := box
		if tc.net.Layers[len(tc.net.Layers)-1].Out == 1 {
			src = "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 2))\n(assert (<= X_0 3))\n"
		}
		prop, err := ParseVNNLIB(src + tc.post + "\n")
		if err != nil {
			t.Fatal(err)
		}
		res, err := tc.net.Verify(prop, time.Second, Options{})
		if err != nil || res.Answer != Sat {
			t.Fatalf("%s: %s, %v; want sat", tc.name, res.Answer, err)
		}
		b, err := json.Marshal(res.Report())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %s, want %s", tc.name, b, tc.want)
		}
	}
	b, err := json.Marshal(BoundsReport{Method: "ibp", Lower: []float64{math.Inf(-1), 1}, Upper: []float64{math.Inf(1), math.NaN()}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"lower":["-inf",1],"method":"ibp","upper":["inf","nan"]}`; got != want {
		t.Errorf("bounds: got %s, want %s", got, want)
	}
}
