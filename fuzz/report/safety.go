package report

// The HTML report of vigil test --mode safety: one self-contained page
// (no scripts, no external files) with the summary, the bugs and faults as
// tables, each unsafe run drawn as a path of states (bugs orange, faults
// red, the unsafe end black; a run without a bug says why it has none), and the numbers of unsafe
// runs and of bugs over time as a plot. It is well-formed XML (XHTML) so
// that tests can parse it with encoding/xml.

import (
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/safety"
	"vigil/symbolic"
)

// maxDrawnRuns bounds the unsafe runs the page draws.
const maxDrawnRuns = 20

// Safety is a safety test to report: its setup and what it found.
type Safety struct {
	Model            *symbolic.Model
	Property, Policy string
	Config           string // the fuzzing configuration's name
	Seed             uint64
	Oracles          []string
	Radius           safety.Radius
	Result           *fuzz.SafetyResult
	Elapsed          time.Duration // the whole test's time
	Stopped          string        // why an incomplete test ended, or ""
	// The text and JSON reports only (SafetyHTML does not show them):
	Runs   int      // the runs asked for
	Starts string   // how start states were drawn, when not enumerated
	Files  []string // the recorded unsafe runs (RecordSafety), or nil
}

// SafetyHTML writes the report page of a safety test.
func SafetyHTML(w io.Writer, t *Safety) error {
	m, res, elapsed, why := t.Model, t.Result, t.Elapsed, t.Stopped
	sum := res.Distinct()
	var bugAt []time.Duration
	for _, g := range sum.Bugs {
		bugAt = append(bugAt, g.At)
	}
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/>")
	fmt.Fprintf(&b, "<title>vigil test: %s, policy %s</title>", esc(m.Name), esc(t.Policy))
	b.WriteString(`<style>body{font-family:sans-serif;margin:2em}svg{display:block;margin:.5em 0}text{font-size:11px}table{border-collapse:collapse}td,th{padding:2px 8px;border:1px solid #ccc}</style></head><body>`)
	fmt.Fprintf(&b, "<h1>Safety test of policy %s on %s</h1>", esc(t.Policy), esc(m.Name))
	fmt.Fprintf(&b, "<table><tr><th>property</th><td>%s</td></tr><tr><th>configuration</th><td>%s</td></tr><tr><th>seed</th><td>%d</td></tr>", esc(t.Property), esc(t.Config), t.Seed)
	fmt.Fprintf(&b, "<tr><th>oracles</th><td>%s</td></tr><tr><th>radius</th><td>%s</td></tr>", esc(strings.Join(t.Oracles, ", ")), esc(t.Radius.String()))
	fmt.Fprintf(&b, "<tr><th>runs</th><td>%d</td></tr><tr><th>unsafe runs</th><td id=\"unsafe-count\">%d</td></tr><tr><th>distinct unsafe runs</th><td>%d</td></tr>", res.Runs, res.Unsafe(), len(res.Cases))
	fmt.Fprintf(&b, "<tr><th>bugs</th><td id=\"bug-count\">%d</td></tr><tr><th>faults</th><td id=\"fault-count\">%d</td></tr>", len(sum.Bugs), len(sum.Faults))
	fmt.Fprintf(&b, "<tr><th>time</th><td id=\"time\">%s</td></tr>", esc(safetyTime(res, elapsed)))
	if why != "" {
		fmt.Fprintf(&b, "<tr><th>stopped</th><td>%s</td></tr>", esc(why))
	}
	b.WriteString("</table>")

	// Unsafe runs and distinct bugs over time: step plots of the
	// cumulative counts against the time since testing began.
	b.WriteString("<h2>Unsafe runs and bugs over time</h2>")
	total := elapsed.Seconds()
	if total <= 0 {
		total = 1e-3
	}
	var unsafeAt []time.Duration
	for _, c := range res.Cases {
		unsafeAt = append(unsafeAt, c.Run.At)
	}
	const pw, ph = 600.0, 200.0
	top := max(1, len(unsafeAt), len(bugAt))
	fmt.Fprintf(&b, `<svg id="bugs-over-time" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-40 -10 %d %d">`, int(pw)+60, int(ph)+40, int(pw)+60, int(ph)+40)
	fmt.Fprintf(&b, `<line x1="0" y1="%g" x2="%g" y2="%g" stroke="#000"/><line x1="0" y1="0" x2="0" y2="%g" stroke="#000"/>`, ph, pw, ph, ph)
	fmt.Fprintf(&b, `<text x="-35" y="10">%d</text><text x="-35" y="%g">0</text><text x="%g" y="%g">%.3gs</text>`, top, ph, pw-30, ph+20, total)
	curve := func(class, color string, at []time.Duration) {
		pts := []string{fmt.Sprintf("0,%g", ph)}
		for i, t := range at {
			x := min(pw, pw*t.Seconds()/total)
			y0 := ph - ph*float64(i)/float64(top)
			y1 := ph - ph*float64(i+1)/float64(top)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y0), fmt.Sprintf("%.1f,%.1f", x, y1))
		}
		pts = append(pts, fmt.Sprintf("%g,%.1f", pw, ph-ph*float64(len(at))/float64(top)))
		fmt.Fprintf(&b, `<polyline class="%s" fill="none" stroke="%s" points="%s"/>`, class, color, strings.Join(pts, " "))
	}
	curve("unsafe-curve", "#888", unsafeAt)
	curve("bug-curve", "#c00", bugAt)
	fmt.Fprintf(&b, `<text x="10" y="12" fill="#c00">bugs</text><text x="60" y="12" fill="#888">unsafe runs</text></svg>`)

	b.WriteString("<h2>Faults</h2><table><tr><th>state</th><th>policy label</th><th>unsafe outcome</th><th>safe alternative</th><th>unsafe run, step</th></tr>")
	for _, f := range sum.Faults {
		alt := "none"
		if f.Alt != symbolic.NoLabel {
			alt = m.Labels[f.Alt].Name
		}
		fmt.Fprintf(&b, `<tr class="fault-row"><td><code>%s</code></td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%d, %d</td></tr>`,
			esc(m.FormatState(f.State)), esc(m.Labels[f.Label].Name), esc(m.FormatState(f.Outcome)), esc(alt), f.Case+1, f.Step)
	}
	if len(sum.Faults) == 0 {
		b.WriteString(`<tr><td colspan="5">none</td></tr>`)
	}
	b.WriteString("</table><h2>Bugs</h2><table><tr><th>state</th><th>unsafe run, step</th></tr>")
	for _, g := range sum.Bugs {
		fmt.Fprintf(&b, `<tr class="bug-row"><td><code>%s</code></td><td>%d, %d</td></tr>`, esc(m.FormatState(g.State)), g.Case+1, g.Step)
	}
	if len(sum.Bugs) == 0 {
		b.WriteString(`<tr><td colspan="2">none</td></tr>`)
	}
	b.WriteString("</table>")

	// Every distinct unsafe run is drawn, those without a bug too, each
	// saying why it has none.
	what := radiusWords(t.Radius)
	for ci, c := range res.Cases {
		if ci == maxDrawnRuns {
			fmt.Fprintf(&b, "<p>%d more unsafe runs are not drawn (vigil test --json lists them).</p>", len(res.Cases)-ci)
			break
		}
		class := "unsafe-run"
		switch {
		case !c.Analysed:
			class += " unanalysed"
		case len(c.Bugs) == 0:
			class += " no-bug"
		}
		fmt.Fprintf(&b, `<section class="%s" id="unsafe-run-%d"><h2>Unsafe run %d (fuzzing run %d): %s, %s, %s</h2>`,
			class, ci+1, ci+1, c.Run.Index, plural(len(c.Run.Steps)-1, "step"), plural(len(c.Bugs), "bug"), plural(len(c.Faults), "fault"))
		switch {
		case !c.Analysed:
			b.WriteString(`<p class="why-no-bug">Not analysed: testing stopped before this run was confirmed and searched for bugs.</p>`)
		case len(c.Bugs) == 0:
			if t.Radius == safety.Inf {
				fmt.Fprintf(&b, `<p class="why-no-bug">No bug: no state on this run is %s, so the unsafety is unavoidable from the start state: no choice of labels avoids it.</p>`, esc(what))
			} else {
				fmt.Fprintf(&b, `<p class="why-no-bug">No bug: no state on this run is %s: %s.</p>`, esc(what), esc(unavoidable(t.Radius, t.Policy, "its states")))
			}
		}
		safetyPathSVG(&b, m, c)
		for _, f := range c.Faults {
			alt := ""
			if f.Alt != symbolic.NoLabel {
				alt = "; " + m.Labels[f.Alt].Name + " keeps it safe"
			}
			fmt.Fprintf(&b, "<p>fault at step %d: <code>%s</code>: %s may lead to <code>%s</code>%s</p>", f.Step, esc(m.FormatState(f.State)), esc(m.Labels[f.Label].Name), esc(m.FormatState(f.Outcome)), esc(alt))
		}
		b.WriteString("</section>")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// safetyPathSVG draws an unsafe run as a snake of circles joined by
// labelled lines: bugs orange, faults red, the unsafe end black, other
// states blue. Each circle's title is its step and state.
func safetyPathSVG(b *strings.Builder, m *symbolic.Model, c *fuzz.SafetyCase) {
	run := c.Run.Steps
	const perRow, dx, dy = 12, 70, 60
	rows := (len(run) + perRow - 1) / perRow
	fmt.Fprintf(b, `<svg class="policy-run" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`, perRow*dx+20, rows*dy+10)
	pos := func(i int) (float64, float64) { return snakePos(i, perRow, dx, dy) }
	for i := 0; i+1 < len(run); i++ {
		x0, y0 := pos(i)
		x1, y1 := pos(i + 1)
		fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#888"/>`, x0, y0, x1, y1)
		tx, ty := (x0+x1)/2-20, (y0+y1)/2-8
		if y0 != y1 {
			tx, ty = x0+12, (y0+y1)/2+4
		}
		fmt.Fprintf(b, `<text x="%g" y="%g">%s</text>`, tx, ty, html.EscapeString(m.Labels[run[i].Label].Name))
	}
	bug := map[int]bool{}
	for _, i := range c.Bugs {
		bug[i] = true
	}
	fault := map[int]bool{}
	for _, f := range c.Faults {
		fault[f.Step] = true
	}
	for i, st := range run {
		x, y := pos(i)
		class, fill := "state", "#36c"
		switch {
		case i == len(run)-1:
			class, fill = "state unsafe", "#000"
		case fault[i]:
			class, fill = "state bug fault", "#c00"
		case bug[i]:
			class, fill = "state bug", "#e90"
		}
		fmt.Fprintf(b, `<circle class="%s" fill="%s" cx="%g" cy="%g" r="8"><title>%d: %s</title></circle>`, class, fill, x, y, i, html.EscapeString(m.FormatState(st.State)))
	}
	b.WriteString("</svg>")
}

// radiusWords is "safe" for radius inf, else "r-safe".
func radiusWords(r safety.Radius) string {
	if r == safety.Inf {
		return "safe"
	}
	return r.String() + "-safe"
}

// unavoidable says what a run without an r-safe state means: for radius
// inf that no choice of labels avoids the unsafe states, for a finite
// radius only that no policy within r deviations of the tested one does
// (a state that is not r-safe may be safe).
func unavoidable(r safety.Radius, policy, from string) string {
	if r == safety.Inf {
		return "the unsafety is unavoidable"
	}
	return fmt.Sprintf("no policy within %s of %s avoids the unsafe states from %s (a larger radius may)", plural(int(r), "deviation"), policy, from)
}

// plural is "1 step" or "n steps".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
