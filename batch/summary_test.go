package batch

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A Go program gets vigil batch status's and run's reports without the
// command line, in the shape --json prints.
func TestStatusReport(t *testing.T) {
	x := &Experiment{Name: "e", Data: "data/e"}
	st := &Status{Total: 3, Finished: 1, Errors: map[string]int{"success": 1}, Missing: []string{"a/d/p1", "a/d/p2"}, Running: []string{"a/d/p2"}}
	rep := x.StatusReport(st)
	b, _ := json.Marshal(rep)
	want := `{"errors":{"success":1},"experiment":"e","failed":[],"finished":1,"missing":["a/d/p1","a/d/p2"],"running":["a/d/p2"],"stale":[],"total":3}`
	if string(b) != want {
		t.Errorf("status JSON\n%s\nwant\n%s", b, want)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if want := "batch e: 1/3 runs finished (1 success), 2 missing, 1 of them running now\nmissing  a/d/p1\nrunning  a/d/p2\n"; text.String() != want {
		t.Errorf("status text\n%s\nwant\n%s", text.String(), want)
	}
	run := x.RunReport(Summary{Progress: Progress{Done: 2, Total: 3, Skipped: 1, Errors: map[string]int{"timeout": 1, "success": 1}}, Interrupted: true})
	text.Reset()
	run.WriteText(&text)
	if want := "batch e: 2/3 runs done (1 already), 0 failed; outcomes: 1 success, 1 timeout\nresults in data/e\n"; text.String() != want {
		t.Errorf("run text\n%s\nwant\n%s", text.String(), want)
	}
	b, _ = json.Marshal(run)
	if want := `{"data":"data/e","done":2,"errors":{"success":1,"timeout":1},"experiment":"e","failed":0,"interrupted":true,"skipped":1,"total":3}`; string(b) != want {
		t.Errorf("run JSON\n%s\nwant\n%s", b, want)
	}
}
