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
		xs := make([]float64, len(at))
		for i, t := range at {
			xs[i] = min(pw, pw*t.Seconds()/total)
		}
		fmt.Fprintf(&b, `<polyline class="%s" fill="none" stroke="%s" points="%s"/>`, class, color, stepCurve(xs, top, pw, ph))
	}
	curve("unsafe-curve", "#888", unsafeAt)
	curve("bug-curve", "#c00", bugAt)
	fmt.Fprintf(&b, `<text x="10" y="12" fill="#c00">bugs</text><text x="60" y="12" fill="#888">unsafe runs</text></svg>`)

	b.WriteString("<h2>Faults</h2><table><tr><th>state</th><th>policy label</th><th>unsafe outcome</th><th>safe alternative</th><th>unsafe run, step</th></tr>")
	for fi, f := range sum.Faults {
		if fi == maxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="5">%d more faults (vigil test --json lists them)</td></tr>`, len(sum.Faults)-fi)
			break
		}
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
	for gi, g := range sum.Bugs {
		if gi == maxTableRows {
			fmt.Fprintf(&b, `<tr><td colspan="2">%d more bugs (vigil test --json lists them)</td></tr>`, len(sum.Bugs)-gi)
			break
		}
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
		for fi, f := range c.Faults {
			if fi == maxTableRows {
				fmt.Fprintf(&b, "<p>%d more faults on this run (vigil test --json lists them).</p>", len(c.Faults)-fi)
				break
			}
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
// states blue. Each circle's title is its step and state. A long run is
// drawn elided (drawRun), its faults kept.
func safetyPathSVG(b *strings.Builder, m *symbolic.Model, c *fuzz.SafetyCase) {
	run := c.Run.Steps
	bug := map[int]bool{}
	for _, i := range c.Bugs {
		bug[i] = true
	}
	fault := map[int]bool{}
	for _, f := range c.Faults {
		fault[f.Step] = true
	}
	drawRun(b, "policy-run", runDrawing{
		n:      len(run),
		label:  func(i int) string { return m.Labels[run[i].Label].Name },
		marked: func(i int) bool { return fault[i] },
		state: func(i int) (string, string, string) {
			class, fill := "state", "#36c"
			switch {
			case i == len(run)-1:
				class, fill = "state unsafe", "#000"
			case fault[i]:
				class, fill = "state bug fault", "#c00"
			case bug[i]:
				class, fill = "state bug", "#e90"
			}
			return class, fill, m.FormatState(run[i].State)
		},
		gap: func(from, to int) string {
			nb, nf := 0, 0
			for i := from; i < to; i++ {
				if bug[i] {
					nb++
				}
				if fault[i] {
					nf++
				}
			}
			return countsPhrase(plural(nb, "bug"), nb, plural(nf, "fault"), nf)
		},
	})
}

// countsPhrase joins the phrases whose counts are not zero.
func countsPhrase(a string, na int, b string, nb int) string {
	var out []string
	if na > 0 {
		out = append(out, a)
	}
	if nb > 0 {
		out = append(out, b)
	}
	return strings.Join(out, ", ")
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
