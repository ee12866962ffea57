package main

import (
	"encoding/xml"
	"os"
	"strconv"
	"strings"
	"testing"

	"vigil/internal/cli"
)

// A 20,000-step unsafe run made a 5.9 MB safety page (a circle, a line
// and a label per step, and a table row per bug), and a 9,000-step policy
// run a 10 MB goal page. Long runs are now drawn elided: the first and
// last steps and the faults, each stretch left out a grey box that says
// which states it stands for; the tables list their first rows. The
// pages stay small, every state is drawn or counted in a box, and they
// render in a real browser.
func TestS24tTestHTMLLongRuns(t *testing.T) {
	safetyPage := testHTMLPage(t, "long_safety", `model long
const N = 20000
var x : 0 .. N = 0
var y : 0 .. 3 = 0
action inc when x < N -> x' = x + 1, y' = if y == 3 then 0 else y + 1
action stay -> skip
policy rules p { otherwise -> inc }
property q { start x == 0 && y == 0  unsafe x == N }
`, cli.ExitUnsafe, "--runs", "1", "--max-len", "30000")
	runs := elidedRuns(t, safetyPage, 300_000)
	if len(runs) != 1 || runs[0].states != 20001 {
		t.Fatalf("drawn runs %+v; want one of 20001 states", runs)
	}
	r := runs[0]
	if r.circles > 200 || r.last != "state unsafe" || !r.fault[19999] || r.bugRows != maxTableRowsForTest {
		t.Errorf("safety page: %d circles, last %q, fault at 19999 drawn %v, %d bug rows; want at most 200, state unsafe, true, %d", r.circles, r.last, r.fault[19999], r.bugRows, maxTableRowsForTest)
	}
	checkPage(t, safetyPage)

	goalPage := testHTMLPage(t, "long_goal", `model glong
const N = 9000
var x : 0 .. N = 0
action inc when x < N -> x' = x + 1
action jump when x < N - 1 -> x' = x + 2
policy rules p { otherwise -> inc }
property q { start x == 0  unsafe false  goal x == N }
`, cli.ExitUnsafe, "--mode", "goal", "--pool", "2", "--steps", "100000")
	runs = elidedRuns(t, goalPage, 300_000)
	if len(runs) != 4 {
		t.Fatalf("%d drawn runs; want 4 (two bugs, each a policy run and a plan)", len(runs))
	}
	for _, r := range runs {
		if r.states < 8000 || r.circles > 200 || r.last != "state goal" {
			t.Errorf("goal page: a run of %d states with %d circles ending %q; want a long run, at most 200 circles, ending at the goal", r.states, r.circles, r.last)
		}
	}
	if !runs[0].fault[0] {
		t.Error("the fault at the policy run's start (inc where jump is better) is not drawn")
	}
	checkPage(t, goalPage)
}

// maxTableRowsForTest is report.maxTableRows.
const maxTableRowsForTest = 200

type drawnRun struct {
	states, circles, bugRows int
	last                     string
	fault                    map[int]bool
}

// elidedRuns reads the drawn runs of a test page no larger than maxBytes:
// each must cover its states exactly once, by circles (titled "i: ...")
// and elided boxes (data-from, data-states), in order.
func elidedRuns(t *testing.T, page string, maxBytes int) []drawnRun {
	t.Helper()
	st, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > int64(maxBytes) {
		t.Errorf("%s: %d bytes; want at most %d", page, st.Size(), maxBytes)
	}
	// the page's marks in order: a run starts, a circle (its class and
	// title, read after the walk), an elided box
	type mark struct {
		kind, class string
		title       *string
		from, n     int
	}
	var marks []mark
	bugRows := 0
	inCircle := false
	walkPage(t, page, func(el xml.StartElement, attr map[string]string) *string {
		switch {
		case el.Name.Local == "svg" && (attr["class"] == "policy-run" || attr["class"] == "plan"):
			marks = append(marks, mark{kind: "run"})
		case el.Name.Local == "tr" && attr["class"] == "bug-row":
			bugRows++
		case el.Name.Local == "g" && attr["class"] == "elided":
			from, _ := strconv.Atoi(attr["data-from"])
			n, _ := strconv.Atoi(attr["data-states"])
			marks = append(marks, mark{kind: "gap", from: from, n: n})
		case el.Name.Local == "circle" && len(marks) > 0:
			marks = append(marks, mark{kind: "circle", class: attr["class"], title: new(string)})
			inCircle = true
		case inCircle && el.Name.Local == "title":
			inCircle = false
			return marks[len(marks)-1].title
		}
		return nil
	})
	var runs []drawnRun
	for _, k := range marks {
		if k.kind == "run" {
			runs = append(runs, drawnRun{fault: map[int]bool{}, bugRows: bugRows})
			continue
		}
		if len(runs) == 0 {
			continue
		}
		r := &runs[len(runs)-1]
		if k.kind == "gap" {
			if k.from != r.states || k.n <= 0 {
				t.Errorf("an elided box for %d states from %d follows state %d", k.n, k.from, r.states-1)
			}
			r.states += k.n
			continue
		}
		i, err := strconv.Atoi(strings.SplitN(*k.title, ":", 2)[0])
		if err != nil || i != r.states {
			t.Errorf("circle %q follows state %d", *k.title, r.states-1)
		}
		if strings.Contains(k.class, "fault") {
			r.fault[i] = true
		}
		r.states++
		r.circles++
		r.last = k.class
	}
	return runs
}
