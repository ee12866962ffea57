package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
)

// The goal-mode HTML report is tested by parsing it: well-formed XML, one
// section per bug, each policy run with its fault marked, and the
// bugs-over-time curve with a step per bug.
func TestGoalHTML(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "line.spec")
	src := `model line
var x : 0 .. 9 = 0
action right when x < 9 -> x' = x + 1
action left  when x > 0 -> x' = x - 1
policy rules pi {
    when x == 1 -> left
    otherwise -> right
}
property p {
    start x <= 2
    unsafe false
    goal x == 5
}
`
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"test", spec, "--mode", "goal", "--html", page}, &cli.Env{Stdout: &out, Stderr: &errb})
	if code != cli.ExitUnsafe {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	sections, faults, policyRuns, plans := 0, 0, 0, 0
	var curve, bugCount string
	inCount := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch {
			case el.Name.Local == "section" && attr["class"] == "bug":
				sections++
			case el.Name.Local == "circle" && strings.Contains(attr["class"], "fault"):
				faults++
			case el.Name.Local == "svg" && attr["class"] == "policy-run":
				policyRuns++
			case el.Name.Local == "svg" && attr["class"] == "plan":
				plans++
			case el.Name.Local == "polyline" && attr["class"] == "bug-curve":
				curve = attr["points"]
			case el.Name.Local == "td" && attr["id"] == "bug-count":
				inCount = true
			}
		case xml.CharData:
			if inCount {
				bugCount, inCount = string(el), false
			}
		}
	}
	// pi loops between x=0 and x=1: both are bugs, and each policy run
	// passes the fault x=1 (left where right reaches the goal).
	if sections != 2 || policyRuns != 2 || plans != 2 || bugCount != "2" {
		t.Errorf("%d bug sections, %d policy runs, %d plans, bug count %q; want 2 of each", sections, policyRuns, plans, bugCount)
	}
	if faults < 2 {
		t.Errorf("%d fault marks, want one per bug at least", faults)
	}
	if n := len(strings.Fields(curve)); n != 2+2*2 {
		t.Errorf("bug curve %q has %d points, want 6", curve, n)
	}
}
