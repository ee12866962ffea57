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

// The safety-mode HTML report is tested by parsing it: well-formed XML,
// one section per unsafe run with a bug, each drawing the run with its
// bugs and its fault marked and ending unsafe, the fault table, and the
// bugs-over-time curve with a step per bug.
func TestSafetyHTML(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "cliff.spec")
	src := `model cliff
var x : 0 .. 6 = 0
action step when x < 6 -> x' = x + 1 | x' = min(x + 2, 6)
action wait -> x' = x
policy rules pi {
    when x == 4 -> wait
    otherwise -> step
}
property p {
    start x <= 1
    unsafe x == 6
}
`
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"test", spec, "--runs", "50", "--config", "1-sampling", "--html", page}, &cli.Env{Stdout: &out, Stderr: &errb})
	if code != cli.ExitUnsafe {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	sections, runs, faults, bugs, ends, faultRows := 0, 0, 0, 0, 0, 0
	var curve, bugCount, faultCount string
	var in *string
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
			class := attr["class"]
			switch {
			case el.Name.Local == "section" && strings.HasPrefix(class, "unsafe-run"):
				sections++
			case el.Name.Local == "svg" && class == "policy-run":
				runs++
			case el.Name.Local == "circle" && strings.Contains(class, "fault"):
				faults++
			case el.Name.Local == "circle" && strings.Contains(class, "bug"):
				bugs++
			case el.Name.Local == "circle" && class == "state unsafe":
				ends++
			case el.Name.Local == "tr" && class == "fault-row":
				faultRows++
			case el.Name.Local == "polyline" && class == "bug-curve":
				curve = attr["points"]
			case el.Name.Local == "td" && attr["id"] == "bug-count":
				in = &bugCount
			case el.Name.Local == "td" && attr["id"] == "fault-count":
				in = &faultCount
			}
		case xml.CharData:
			if in != nil {
				*in, in = string(el), nil
			}
		}
	}
	// Seed 1 finds five distinct unsafe runs, each passing the fault
	// x=5 (step, where wait is safe); the bugs are x=0..3 and x=5.
	if sections != 5 || runs != 5 || ends != 5 {
		t.Errorf("%d sections, %d drawn runs, %d unsafe ends; want 5 of each", sections, runs, ends)
	}
	if faults != 5 || faultRows != 1 || faultCount != "1" {
		t.Errorf("%d fault marks, %d fault rows, fault count %q; want 5, 1, 1", faults, faultRows, faultCount)
	}
	if bugs < 15 || bugCount != "5" {
		t.Errorf("%d bug marks, bug count %q; want at least 15 and 5", bugs, bugCount)
	}
	if n := len(strings.Fields(curve)); n != 2+2*5 {
		t.Errorf("bug curve %q has %d points, want 12", curve, n)
	}
}
