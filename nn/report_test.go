package nn

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The reports keep the JSON keys in the order vigil nn prints them, and
// a sat answer alone carries its counterexample.
func TestReports(t *testing.T) {
	sat := VerifyResult{Answer: Sat, Input: []float64{0.5, -1}, Output: []float64{2}, Nodes: 3}
	b, _ := json.Marshal(sat.Report())
	if got, want := string(b), `{"input":[0.5,-1],"nodes":3,"output":[2],"seconds":0,"verdict":"sat"}`; got != want {
		t.Errorf("sat: %s, want %s", got, want)
	}
	unsat := VerifyResult{Answer: Unsat, Input: []float64{1}, Nodes: 1}
	b, _ = json.Marshal(unsat.Report())
	if got, want := string(b), `{"nodes":1,"seconds":0,"verdict":"unsat"}`; got != want {
		t.Errorf("unsat: %s, want %s", got, want)
	}
	var w bytes.Buffer
	sat.WriteText(&w)
	if got, want := w.String(), "sat\ninput  0.5,-1\noutput 2\n"; got != want {
		t.Errorf("sat text %q, want %q", got, want)
	}
	w.Reset()
	BoundsReport{Method: "ibp", Lower: []float64{-1.123456789}, Upper: []float64{2}}.WriteText(&w)
	if got, want := w.String(), "y0 in [-1.1234568, 2]\n"; got != want {
		t.Errorf("bounds %q, want %q", got, want)
	}
	var sum CorpusSummary
	sum.Limit = time.Minute
	sum.Add(CorpusCorrect, time.Second)
	sum.Add(CorpusWrong, time.Second)
	sum.Add(CorpusUnknown, 2*time.Second)
	b, _ = json.Marshal(&sum)
	if got, want := string(b), `{"correct":1,"seconds":4,"unknown":1,"wrong":1}`; got != want {
		t.Errorf("summary %s, want %s", got, want)
	}
	w.Reset()
	sum.WriteText(&w)
	if got, want := w.String(), "3 instances: 1 correct, 1 wrong, 1 unknown; 4.00s total, 1.333s mean (limit 1m0s)\n"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// ParseBox reads LOWER:UPPER per input and refuses the rest with the
// syntax to use.
func TestParseBox(t *testing.T) {
	box, err := ParseBox("0:1, -1:1")
	if err != nil || len(box.Lo) != 2 || box.Lo[1] != -1 || box.Hi[0] != 1 {
		t.Fatalf("%v %v", box, err)
	}
	for _, bad := range []string{"0", "1:0", "0:inf", "a:1", "NaN:1"} {
		if _, err := ParseBox(bad); err == nil || !strings.Contains(err.Error(), "LOWER") && !strings.Contains(err.Error(), "lower <= upper") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// ParseVector reads finite comma-separated numbers and says what to give
// instead of anything else.
func TestParseVector(t *testing.T) {
	x, err := ParseVector("1, -0.5,2e-3")
	if err != nil || len(x) != 3 || x[1] != -0.5 || x[2] != 2e-3 {
		t.Fatalf("%v %v", x, err)
	}
	for bad, want := range map[string]string{"1,a": "not a number", "1,,2": "not a number", "NaN": "not a finite number", "1,+Inf": "not a finite number"} {
		if _, err := ParseVector(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}
