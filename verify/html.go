package verify

// The HTML page of a verdict (vigil verify --html): one self-contained
// page (no scripts, no external files; well-formed XHTML so tests can
// parse it) with the verdict and, for unsafe, the counterexample drawn
// twice: as a table of states, one row per step, whose changed cells are
// highlighted, and as one small SVG plot per chosen numeric variable of
// its value over the steps.

import (
	"fmt"
	"html"
	"io"
	"strings"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// MaxPlotted is how many variables the page plots when WriteHTML is not
// told which.
const MaxPlotted = 8

// MaxTableRows bounds the rows of the state table: a longer run lists its
// first fifth and its last four fifths of that (the plots show it all).
const MaxTableRows = 1000

// WriteHTML writes the verdict as vigil verify --html does: one
// self-contained page with, for unsafe, the counterexample as a table of
// states and as plots of the variables plot (nil: the numeric variables
// that change along it, at most 8).
func (rep *Report) WriteHTML(w io.Writer, plot []symbolic.VarID) error {
	m, v, trace := rep.q.Model, rep.v.Answer, rep.v.Trace
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/>")
	fmt.Fprintf(&b, "<title>vigil verify: %s, property %s</title>", esc(m.Name), esc(rep.Property))
	b.WriteString(`<style>body{font-family:sans-serif;margin:2em}svg{margin:.3em 1em .3em 0}text{font-size:11px}` +
		`table{border-collapse:collapse}td,th{padding:2px 8px;border:1px solid #ccc;text-align:left}` +
		`td.changed{background:#ffe08a;font-weight:bold}tr.unsafe td{border-bottom:2px solid #c00}.why{color:#555;font-size:90%}` +
		`.plots{display:flex;flex-wrap:wrap}</style></head><body>`)
	who := "policy " + rep.Policy
	if rep.Policy == "" {
		who = "all labels"
	}
	fmt.Fprintf(&b, "<h1>Verification of %s on %s</h1>", esc(who), esc(m.Name))
	fmt.Fprintf(&b, `<table><tr><th>verdict</th><td id="verdict">%s</td></tr><tr><th>property</th><td>%s</td></tr><tr><th>engine</th><td>%s</td></tr>`,
		esc(v.String()), esc(rep.Property), esc(rep.Engine))
	if rep.Reason != "" {
		fmt.Fprintf(&b, "<tr><th>stopped</th><td>%s</td></tr>", esc(rep.Reason))
	}
	if rep.States > 0 {
		fmt.Fprintf(&b, "<tr><th>states</th><td>%d</td></tr>", rep.States)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "<tr><th>note</th><td>%s</td></tr>", esc(n))
	}
	fmt.Fprintf(&b, "<tr><th>time</th><td>%.3f s</td></tr></table>", rep.Seconds)
	if v != explicit.UnsafeVerdict || len(trace) == 0 {
		b.WriteString("<p>No counterexample: the verdict is not unsafe.</p></body></html>\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "<h2>Counterexample: %s</h2>", esc(Plural(len(trace)-1, "step")))
	b.WriteString("<p>Each row is the state before the step's label is taken; highlighted cells changed in that step. The last row is the unsafe state.</p>")
	plotted := plot
	if plotted == nil {
		plotted = changingNumeric(m, trace, MaxPlotted)
	}
	if len(plotted) > 0 {
		b.WriteString(`<h3>Numeric variables over the steps</h3><div class="plots">`)
		for _, x := range plotted {
			plotVar(&b, m, x, trace)
		}
		b.WriteString("</div>")
	}
	b.WriteString(`<table id="cex-table"><tr><th>step</th>`)
	for i := range m.Vars {
		fmt.Fprintf(&b, "<th>%s</th>", esc(m.Vars[i].Name))
	}
	b.WriteString("<th>label taken</th><th>why</th></tr>")
	var x explicit.Expansion
	for i, st := range trace {
		if len(trace) > MaxTableRows && i >= MaxTableRows/5 && i < len(trace)-MaxTableRows*4/5 {
			if i == MaxTableRows/5 {
				fmt.Fprintf(&b, `<tr class="omitted"><td colspan="%d">... steps %d to %d are not listed (verify --record writes every step)</td></tr>`,
					len(m.Vars)+3, i, len(trace)-MaxTableRows*4/5-1)
			}
			continue
		}
		class := "step"
		if i == len(trace)-1 {
			class = "step unsafe"
		}
		fmt.Fprintf(&b, `<tr class="%s"><td>%d</td>`, class, i)
		for j := range m.Vars {
			cell := ""
			if i > 0 && trace[i-1].State[j] != st.State[j] {
				cell = ` class="changed"`
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", cell, esc(explicit.FormatValue(&m.Vars[j], st.State[j])))
		}
		label, why := "", ""
		if st.Cmd >= 0 {
			c := &m.Commands[st.Cmd]
			label = fmt.Sprintf(`<b>%s</b> <span class="why">%s, outcome %d of %d</span>`, esc(m.Labels[st.Label].Name), esc(c.Pos.String()), st.Outcome+1, len(c.Outcomes))
			why = rep.why(st, &x)
		} else if i == len(trace)-1 {
			label = "<b>unsafe</b>"
		}
		fmt.Fprintf(&b, `<td>%s</td><td class="why">%s</td></tr>`, label, esc(why))
	}
	b.WriteString("</table>")
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// plotW and plotH are a plot's size in pixels.
const plotW, plotH = 260.0, 110.0

// MaxPlotMarks bounds the steps a plot marks one by one (a dot with its
// value); a longer counterexample is drawn as a line only.
const MaxPlotMarks = 500

// plotPoints returns the step line of variable v along trace: a point
// where each step starts and one where it ends. A run of more steps than
// the plot has half-pixel columns is drawn per column, by the first, the
// least, the greatest and the last value in it (in the order they occur):
// the same picture at the plot's resolution, in at most four points a
// column, where one point per step made a 20,000-step counterexample a
// 4.7 MB page.
func plotPoints(trace []explicit.Step, v symbolic.VarID, x func(int) float64, y func(int) float64) []string {
	pt := func(i, k int) string { return fmt.Sprintf("%.1f,%.1f", x(i), y(k)) }
	var pts []string
	if len(trace) == 1 {
		return []string{pt(0, trace[0].State[v]), fmt.Sprintf("%.1f,%.1f", plotW, y(trace[0].State[v]))}
	}
	const columns = 2 * plotW
	if len(trace) <= columns {
		for i, st := range trace {
			if i > 0 {
				pts = append(pts, pt(i, trace[i-1].State[v]))
			}
			pts = append(pts, pt(i, st.State[v]))
		}
		return pts
	}
	col := func(i int) int { return int(x(i) * 2) }
	for i := 0; i < len(trace); {
		j, c := i, col(i)
		lo, hi := i, i
		for j < len(trace) && col(j) == c {
			if trace[j].State[v] < trace[lo].State[v] {
				lo = j
			}
			if trace[j].State[v] > trace[hi].State[v] {
				hi = j
			}
			j++
		}
		idx := []int{i, lo, hi, j - 1}
		if hi < lo {
			idx[1], idx[2] = hi, lo
		}
		prev := -1
		for _, k := range idx {
			if k != prev {
				pts = append(pts, pt(k, trace[k].State[v]))
				prev = k
			}
		}
		i = j
	}
	return pts
}

// changingNumeric returns up to n non-Boolean variables whose value
// changes along trace, in declaration order.
func changingNumeric(m *symbolic.Model, trace []explicit.Step, n int) []symbolic.VarID {
	var out []symbolic.VarID
	for v := range m.Vars {
		if m.Vars[v].Bool || len(out) == n {
			continue
		}
		for i := 1; i < len(trace); i++ {
			if trace[i].State[v] != trace[0].State[v] {
				out = append(out, symbolic.VarID(v))
				break
			}
		}
	}
	return out
}

// plotVar draws one variable's value over the steps as a step line, its
// y axis from the least to the greatest value it takes in the run.
func plotVar(b *strings.Builder, m *symbolic.Model, v symbolic.VarID, trace []explicit.Step) {
	const pw, ph = plotW, plotH
	lo, hi := trace[0].State[v], trace[0].State[v]
	for _, st := range trace {
		lo, hi = min(lo, st.State[v]), max(hi, st.State[v])
	}
	span := float64(hi - lo)
	if span == 0 {
		span = 1
	}
	steps := float64(max(1, len(trace)-1))
	x := func(i int) float64 { return pw * float64(i) / steps }
	y := func(k int) float64 { return ph - ph*float64(k-lo)/span }
	name := html.EscapeString(m.Vars[v].Name)
	fmt.Fprintf(b, `<svg class="var-plot" id="plot-%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-45 -20 %d %d">`,
		name, int(pw)+60, int(ph)+45, int(pw)+60, int(ph)+45)
	fmt.Fprintf(b, `<text x="0" y="-6" font-weight="bold">%s</text>`, name)
	fmt.Fprintf(b, `<line x1="0" y1="%g" x2="%g" y2="%g" stroke="#000"/><line x1="0" y1="0" x2="0" y2="%g" stroke="#000"/>`, ph, pw, ph, ph)
	fmt.Fprintf(b, `<text x="-6" y="4" text-anchor="end">%d</text><text x="-6" y="%g" text-anchor="end">%d</text>`, hi, ph+4, lo)
	fmt.Fprintf(b, `<text x="0" y="%g">0</text><text x="%g" y="%g" text-anchor="end">step %d</text>`, ph+14, pw, ph+14, len(trace)-1)
	pts := plotPoints(trace, v, x, y)
	fmt.Fprintf(b, `<polyline fill="none" stroke="#36c" stroke-width="2" points="%s"/>`, strings.Join(pts, " "))
	if len(trace) <= MaxPlotMarks {
		for i, st := range trace {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="#36c"><title>step %d: %s = %d</title></circle>`, x(i), y(st.State[v]), i, name, st.State[v])
		}
	} else {
		fmt.Fprintf(b, `<title>%s over %d steps, from %d to %d (the steps are too many to mark one by one: the table and verify --record give every value)</title>`, name, len(trace)-1, lo, hi)
	}
	b.WriteString("</svg>")
}
