package batch

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestS31jTieMarksNone: a row whose compared values are all equal (both
// algorithms solved every instance, in the same time) emphasized every
// cell as the best; it now emphasizes none, in the coverage, PAR-2 and
// ratio tables alike. A row with a better value still emphasizes it.
func TestS31jTieMarksNone(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo", "echo x", "echo y")
	for _, a := range []string{"a0", "a1", "a2"} {
		writeProps(t, x, a+"/d/m000", solved("safe", 1))
		writeProps(t, x, a+"/d/m001", solved("safe", 2))
	}
	o := ReportOptions{Attributes: []string{"coverage", "par2", "ratio"}}
	md := markdown(t, x, o)
	wantLines(t, md, "| d (2) | 2 | 2 | 2 |", "| d (2) | 3 | 3 | 3 |", "| d | 1 | 1 (2/0/0) | 1 (2/0/0) |")
	if strings.Contains(md, "| **2** |") || strings.Contains(md, "**1 (2/0/0)**") {
		t.Errorf("a tie is emphasized:\n%s", md)
	}
	// a2 slower on one instance: a0 and a1 share the best PAR-2 (both
	// emphasized), and a1's ratio is the best of a1 and a2
	writeProps(t, x, "a2/d/m001", solved("safe", 4))
	md = markdown(t, x, o)
	wantLines(t, md, "| d (2) | **3** | **3** | 5 |", "| d | 1 | **1 (2/0/0)** | 1.5 (2/0/0) |")
}

// TestS31jCSVFormulas: runs.csv wrote a text cell starting with =, +, -
// or @ as it is, which LibreOffice Calc and Excel evaluate as a formula
// on opening (a problem file named "=HYPERLINK(...)"); such a cell now
// starts with ', as does one that started with ' already (so that
// dropping one leading ' gives every value back), while numbers, negative
// ones too, stay numbers. Read back with encoding/csv (as pandas reads
// it), every cell is the value or the value behind one '.
func TestS31jCSVFormulas(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1,1)", "'@SUM(1,1)"},
		{"\t=1", "'\t=1"},
		{"'quoted", "''quoted"},
		{"-1.5", "-1.5"}, {"+3", "+3"}, {"-2e-07", "-2e-07"}, {"1e+09", "1e+09"},
		{"-Inf", "'-Inf"}, {"-", "'-"}, {"safe", "safe"}, {"", ""}, {"a=b", "a=b"},
	} {
		got := csvCells([]string{tc.in})[0]
		if got != tc.out {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.out)
		}
	}
	x := experiment(t, 1, "", "echo")
	writeProps(t, x, "a0/d/m000", map[string]any{"error": "success", "coverage": 1, "verdict": "safe", "time": 1.0,
		"note": "=1+1", "delta": -0.5})
	rep, err := x.Fetch(ReportOptions{Attributes: []string{"coverage", "note", "delta"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.CSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"algorithm", "domain", "problem", "rep", "verdict", "coverage", "note", "delta"},
		{"a0", "d", "m000", "", "safe", "1", "'=1+1", "-0.5"}}
	if len(rows) != 2 || strings.Join(rows[0], ",") != strings.Join(want[0], ",") || strings.Join(rows[1], "|") != strings.Join(want[1], "|") {
		t.Errorf("runs.csv:\n%s\nwant rows %q", b.String(), want)
	}
}
