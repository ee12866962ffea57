package main

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"vigil/internal/cli"
)

// The safety-mode HTML report is tested by parsing it: well-formed XML,
// one section per unsafe run with a bug, each drawing the run with its
// bugs and its fault marked and ending unsafe, the fault table, and the
// bugs-over-time curve with a step per bug.
func TestSafetyHTML(t *testing.T) {
	page := testHTMLPage(t, "cliff", `model cliff
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
`, cli.ExitUnsafe, "--runs", "50", "--config", "1-sampling")
	sections, runs, faults, bugs, ends, faultRows := 0, 0, 0, 0, 0, 0
	var curve, bugCount, faultCount string
	walkPage(t, page, func(el xml.StartElement, attr map[string]string) *string {
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
			return &bugCount
		case el.Name.Local == "td" && attr["id"] == "fault-count":
			return &faultCount
		}
		return nil
	})
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
	checkStepCurve(t, curve, 5)
}

// checkStepCurve checks a bugs-over-time curve that reaches the top of
// the plot: from 0,200 to the right edge at height 0, rising by steps
// (a vertical line per time at which bugs were found: bugs found at the
// same time share one) of at most steps rises, never falling.
func checkStepCurve(t *testing.T, curve string, steps int) {
	t.Helper()
	pts := strings.Fields(curve)
	if len(pts) < 4 || len(pts) > 2+2*steps || len(pts)%2 != 0 || pts[0] != "0,200" || !strings.HasPrefix(pts[len(pts)-1], "600,") {
		t.Errorf("bug curve %q: want 0,200, then two points per time bugs were found (%d at most), then 600,0", curve, steps)
		return
	}
	prev := 200.0
	for _, p := range pts {
		var x, y float64
		if _, err := fmt.Sscanf(p, "%g,%g", &x, &y); err != nil || y > prev {
			t.Errorf("bug curve %q: point %q falls or does not read", curve, p)
			return
		}
		prev = y
	}
	if prev != 0 {
		t.Errorf("bug curve %q ends at height %g, want 0 (every bug counted)", curve, prev)
	}
}
