package trees

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// The reports keep the JSON keys in the order vigil trees prints them,
// with null for infinite bounds, and the exact optimum alone carries a
// value and a witness box.
func TestReports(t *testing.T) {
	exact := Result{Exact: true, Lower: 1.5, Upper: 1.5, Witness: []float64{0}, WitnessBox: Box{{Lo: math.Inf(-1), Hi: 2}}, Stats: Stats{Nodes: 4}}
	b, _ := json.Marshal(NewBoundReport("max", 0, exact))
	if got, want := string(b), `{"class":0,"exact":true,"lower":1.5,"nodes":4,"objective":"max","seconds":0,"upper":1.5,"value":1.5,"witness":[0],"witness_box":[[null,2]]}`; got != want {
		t.Errorf("exact:\n%s\nwant\n%s", got, want)
	}
	open := Result{Lower: math.Inf(-1), Upper: 3, Stats: Stats{Stopped: StopNodes}}
	rep := NewBoundReport("margin", 2, open)
	rep.Why = "raise the budget"
	b, _ = json.Marshal(rep)
	if got, want := string(b), `{"class":2,"exact":false,"lower":null,"nodes":0,"objective":"margin","seconds":0,"stopped":"nodes","upper":3,"witness":null}`; got != want {
		t.Errorf("anytime:\n%s\nwant\n%s", got, want)
	}
	var w bytes.Buffer
	rep.WriteText(&w)
	if got, want := w.String(), "max margin of class 2 in [-Inf, 3] (budget exhausted: raise the budget)\nnodes 0, 0.000 s\n"; got != want {
		t.Errorf("anytime text %q, want %q", got, want)
	}
	d := NewDecideReport(Decision{Verdict: Proved})
	b, _ = json.Marshal(d)
	if got, want := string(b), `{"nodes":0,"seconds":0,"verdict":"excluded"}`; got != want {
		t.Errorf("decide %s, want %s", got, want)
	}
	w.Reset()
	d = NewDecideReport(Decision{Verdict: Unknown})
	d.Why = "the time limit passed"
	d.WriteText(&w)
	if got, want := w.String(), "unknown\nstopped: the time limit passed\nnodes 0, 0.000 s\n"; got != want {
		t.Errorf("decide text %q, want %q", got, want)
	}
	e := &Ensemble{Format: "xgboost", NumClasses: 2, NumFeatures: 1, Base: []float64{0.5, 0.5}}
	b, _ = json.Marshal(e.Info())
	if got, want := string(b), `{"base":[0.5,0.5],"classes":2,"features":1,"format":"xgboost","leaves":0,"trees":0}`; got != want {
		t.Errorf("info %s, want %s", got, want)
	}
}

func TestParseClasses(t *testing.T) {
	for in, want := range map[string]string{"": "[]", " ": "[]", "0,2": "[0 2]", " 1 , 3 ": "[1 3]"} {
		got, err := ParseClasses(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("ParseClasses(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ParseClasses("0,x"); err == nil || err.Error() != `"x" is not a class index` {
		t.Errorf("ParseClasses(0,x): %v", err)
	}
}
