package main

import (
	"encoding/xml"
	"strings"
	"testing"

	"vigil/internal/cli"
)

// The goal-mode HTML report is tested by parsing it: well-formed XML, one
// section per bug, each policy run with its fault marked, and the
// bugs-over-time curve with a step per bug.
func TestGoalHTML(t *testing.T) {
	page := testHTMLPage(t, "line", goalLineSpec, cli.ExitUnsafe, "--mode", "goal")
	sections, faults, policyRuns, plans := 0, 0, 0, 0
	var curve, bugCount string
	walkPage(t, page, func(el xml.StartElement, attr map[string]string) *string {
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
			return &bugCount
		}
		return nil
	})
	// pi loops between x=0 and x=1: both are bugs, and each policy run
	// passes the fault x=1 (left where right reaches the goal).
	if sections != 2 || policyRuns != 2 || plans != 2 || bugCount != "2" {
		t.Errorf("%d bug sections, %d policy runs, %d plans, bug count %q; want 2 of each", sections, policyRuns, plans, bugCount)
	}
	if faults < 2 {
		t.Errorf("%d fault marks, want one per bug at least", faults)
	}
	checkStepCurve(t, curve, 2)
}
