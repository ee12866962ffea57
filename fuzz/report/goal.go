package report

// The HTML report of vigil test --mode goal: one self-contained page (no
// scripts, no external files) that draws each bug's policy run as a path
// of states with the faults marked and the better plan beneath it, and
// the number of confirmed bugs over time as a plot. It is well-formed XML
// (XHTML) so that tests can parse it with encoding/xml.

import (
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Goal is a goal-reaching test to report: its setup and what it found.
type Goal struct {
	Task     *fuzz.GoalTask // the model, property, policy (and fairness) tested
	Outcomes string         // adversarial or fair
	Seed     uint64
	Biases   []string
	Pool     *fuzz.Pool
	Result   *fuzz.GoalResult
	// FuzzTime and ConfirmTime are wall-clock time in which some worker
	// fuzzed or confirmed (with several workers they overlap), Elapsed
	// the whole test's; FuzzWork and ConfirmWork sum the workers' time.
	FuzzTime, ConfirmTime, Elapsed time.Duration
	FuzzWork, ConfirmWork          time.Duration
	Workers                        int
	Complete                       bool // every pool state checked
	// The text and JSON reports only (GoalHTML does not show them):
	Oracles []string // the oracles that ran
	Stopped string   // why an incomplete test ended
	Starts  string   // how start states were drawn, when not enumerated
}

// GoalHTML writes the report page of a goal-reaching test.
func GoalHTML(w io.Writer, t *Goal) error {
	task, pool, res, fuzzTime, confirmTime, complete := t.Task, t.Pool, t.Result, t.FuzzTime, t.ConfirmTime, t.Complete
	m := task.M
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/>")
	fmt.Fprintf(&b, "<title>vigil test: %s, policy %s</title>", esc(m.Name), esc(task.PolicyName))
	b.WriteString(`<style>body{font-family:sans-serif;margin:2em}svg{display:block;margin:.5em 0}text{font-size:11px}table{border-collapse:collapse}td,th{padding:2px 8px;border:1px solid #ccc}</style></head><body>`)
	fmt.Fprintf(&b, "<h1>Goal-reaching test of policy %s on %s</h1>", esc(task.PolicyName), esc(m.Name))
	fmt.Fprintf(&b, "<table><tr><th>property</th><td>%s</td></tr><tr><th>outcomes</th><td>%s</td></tr><tr><th>seed</th><td>%d</td></tr>", esc(task.Prop.Name), esc(t.Outcomes), t.Seed)
	fmt.Fprintf(&b, "<tr><th>biases</th><td>%s</td></tr><tr><th>pool</th><td>%d states (%s)</td></tr>", esc(orNone(strings.Join(t.Biases, ", "))), len(pool.Entries), esc(pool.Stop))
	fmt.Fprintf(&b, "<tr><th>bugs</th><td id=\"bug-count\">%d</td></tr><tr><th>time</th><td id=\"time\">%s</td></tr>", len(res.Bugs), esc(t.timeLine()))
	if !complete {
		b.WriteString("<tr><th>stopped</th><td>before every pool state was checked</td></tr>")
	}
	if n := len(res.Undecided); n > 0 {
		fmt.Fprintf(&b, "<tr><th>undecided</th><td id=\"undecided\">%s</td></tr>", esc(undecidedPhrase(n, len(pool.Entries))))
	}
	b.WriteString("</table>")

	// Bugs over time: a step plot of the cumulative count against the
	// time since testing began (bugs are confirmed while fuzzing goes on).
	b.WriteString("<h2>Bugs over time</h2>")
	total := t.Elapsed.Seconds()
	if t.Elapsed == 0 {
		total = (fuzzTime + confirmTime).Seconds()
	}
	if total <= 0 {
		total = 1e-3
	}
	const pw, ph = 600.0, 200.0
	maxBugs := max(1, len(res.Bugs))
	fmt.Fprintf(&b, `<svg id="bugs-over-time" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-40 -10 %d %d">`, int(pw)+60, int(ph)+40, int(pw)+60, int(ph)+40)
	fmt.Fprintf(&b, `<line x1="0" y1="%g" x2="%g" y2="%g" stroke="#000"/><line x1="0" y1="0" x2="0" y2="%g" stroke="#000"/>`, ph, pw, ph, ph)
	fmt.Fprintf(&b, `<text x="-35" y="10">%d</text><text x="-35" y="%g">0</text><text x="%g" y="%g">%.3gs</text>`, maxBugs, ph, pw-30, ph+20, total)
	xs := make([]float64, len(res.Bugs))
	for i, bug := range res.Bugs {
		xs[i] = min(pw, pw*bug.At.Seconds()/total)
	}
	fmt.Fprintf(&b, `<polyline class="bug-curve" fill="none" stroke="#c00" points="%s"/></svg>`, stepCurve(xs, maxBugs, pw, ph))

	for i, bug := range res.Bugs {
		if i == maxDrawnRuns {
			fmt.Fprintf(&b, "<p>%d more bugs are not drawn (vigil test --json lists them).</p>", len(res.Bugs)-i)
			break
		}
		faults, err := task.Faults(bug)
		if err != nil {
			return err
		}
		fault := map[string]string{}
		for _, f := range faults {
			fault[m.FormatState(f.State)] = m.Labels[f.Better].Name
		}
		kind := "costs more than a plan"
		if bug.Qualitative {
			kind = "fails where a plan reaches the goal"
		}
		fmt.Fprintf(&b, `<section class="bug" id="bug-%d"><h2>Bug %d (%s): %s</h2>`, i+1, i+1, esc(bug.Oracle), kind)
		why, err := task.StuckWhy(bug.Policy)
		if err != nil {
			return err
		}
		if why != "" {
			why = "<br/>why: " + esc(why)
		}
		// as the text report says it: "a plan of 4 steps" was the cost of
		// a plan of 2 steps at cost 4, and a fair bug's plan has a shortest
		// run, not a length
		better := "reaches the goal " + fuzz.CostPhrase(bug.Cost, bug.Plan) + " on every run"
		if task.Fair {
			better = "reaches the goal with probability 1; a shortest run is drawn"
		}
		fmt.Fprintf(&b, "<p>state: <code>%s</code><br/>policy %s: %s%s<br/>better: %s</p>", esc(m.FormatState(bug.State)), esc(task.PolicyName), esc(bug.Policy.String()), why, esc(better))
		b.WriteString("<h3>Policy run (faults in red: the decisions the better plan changes)</h3>")
		goalPathSVG(&b, m, bug.Policy.Run, fault, "policy-run", bug.Policy.Outcome == fuzz.GoalFails)
		b.WriteString("<h3>Better plan</h3>")
		goalPathSVG(&b, m, bug.Plan, nil, "plan", false)
		b.WriteString("<table><tr><th>fault state</th><th>policy</th><th>better</th></tr>")
		for fi, f := range faults {
			if fi == maxTableRows {
				fmt.Fprintf(&b, `<tr><td colspan="3">%d more (vigil test --json lists them)</td></tr>`, len(faults)-fi)
				break
			}
			pl := "(stuck)"
			if f.Policy != symbolic.NoLabel {
				pl = m.Labels[f.Policy].Name
			}
			fmt.Fprintf(&b, `<tr class="fault-row"><td><code>%s</code></td><td>%s</td><td>%s</td></tr>`, esc(m.FormatState(f.State)), esc(pl), esc(m.Labels[f.Better].Name))
		}
		b.WriteString("</table></section>")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// goalPathSVG draws a run as a snake of circles joined by labelled lines;
// states in fault are red, the last state green (goal) or black (failure).
// Each circle's title is its state. A long run is drawn elided (drawRun),
// its faults kept.
func goalPathSVG(b *strings.Builder, m *symbolic.Model, run []explicit.Step, fault map[string]string, class string, failed bool) {
	isFault := func(i int) bool {
		return len(fault) > 0 && run[i].Label != symbolic.NoLabel && fault[m.FormatState(run[i].State)] != ""
	}
	drawRun(b, class, runDrawing{
		n: len(run),
		label: func(i int) string {
			if run[i].Label == symbolic.NoLabel {
				return ""
			}
			return m.Labels[run[i].Label].Name
		},
		marked: isFault,
		state: func(i int) (string, string, string) {
			c, fill := "state", "#36c"
			switch {
			case isFault(i):
				c, fill = "state fault", "#c00"
			case i == len(run)-1 && failed:
				c, fill = "state fail", "#000"
			case i == len(run)-1:
				c, fill = "state goal", "#2a2"
			}
			return c, fill, m.FormatState(run[i].State)
		},
		gap: func(from, to int) string {
			n := 0
			for i := from; i < to; i++ {
				if isFault(i) {
					n++
				}
			}
			if n == 0 {
				return ""
			}
			return plural(n, "fault")
		},
	})
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// snakePos is where step i of a drawn run goes: perRow steps to a row, dx
// and dy apart, rows left to right and then right to left (a snake), so
// that each step is a short line.
func snakePos(i, perRow, dx, dy int) (float64, float64) {
	col := i % perRow
	if (i/perRow)%2 == 1 {
		col = perRow - 1 - col
	}
	return float64(20 + col*dx), float64(25 + (i/perRow)*dy)
}
