package batch

import (
	"strings"
	"testing"
)

// A small experiment without a CPU limit, its figures by hand: the
// largest CPU time shown is 2 s, so the limit's stand-in is 4 s and a run
// without a verdict costs 8 s.
//
//	par2  a0: 0.5 + 8 = 8.5          a1: 0.0002 + 2 = 2.0002 (shown "2", 3 digits)
//	ratio a1/a0 on m000, both decided: max(0.0002, 0.001) / 0.5 = 0.002,
//	      (1 both / 1 only a1 / 0 only a0)
//	coverage a0 1, a1 2
//
// runs.csv: each run's PAR-2 score and the time behind the ratio.
func TestReview20yNoLimitByHand(t *testing.T) {
	x := experiment(t, 2, "", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 0.5))
	writeProps(t, x, "a0/d/m001", failed("crash", 0.1))
	writeProps(t, x, "a1/d/m000", solved("safe", 0.0002))
	writeProps(t, x, "a1/d/m001", solved("unsafe", 2))
	o := ReportOptions{Attributes: []string{"coverage", "par2", "ratio"}}
	md := markdown(t, x, o)
	wantLines(t, md, "| d (2) | 1 | **2** |", "| d (2) | 8.5 | **2** |", "when not, 2 x 4 s", "| d | 1 | **0.002 (1/1/0)** |")
	rep, err := x.Fetch(o)
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	if err := rep.CSV(&csv); err != nil {
		t.Fatal(err)
	}
	want := "algorithm,domain,problem,rep,verdict,coverage,par2,time\n" +
		"a0,d,m000,,safe,1,0.5,0.5\na0,d,m001,,,0,8,0.1\na1,d,m000,,safe,1,0.0002,0.0002\na1,d,m001,,unsafe,1,2,2\n"
	if csv.String() != want {
		t.Errorf("runs.csv:\n%s\nwant\n%s", csv.String(), want)
	}
}

// Underscores and tildes in names are emphasis and strike-through in
// Markdown: a family "__init__" showed as a bold "init", "~~old~~" struck
// out. They are escaped like the other marks.
func TestReview20yMarkdownEmphasis(t *testing.T) {
	x := experiment(t, 1, "", "echo", "echo x")
	for _, r := range x.Runs {
		r.Attrs = map[string]any{"family": "__init__ ~~old~~ _a_"}
	}
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", failed("crash", 1))
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage"}, Group: []string{"family"}})
	wantLines(t, md, `| \_\_init\_\_ \~\~old\~\~ \_a\_ (1) | **1** | 0 |`)
}
