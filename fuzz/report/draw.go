package report

// Drawing runs on the HTML pages. A run is a snake of circles (states)
// joined by labelled lines (steps), 12 to a row. A long run is drawn
// elided, as the text report prints it: its first and last steps and the
// marked ones (faults) with a step either side, each stretch left out
// being one slot that says how many steps it stands for (and how many of
// them are marked or bugs). A 20,000-step run drew 20,000 circles, lines
// and labels: a 5.9 MB page that a browser renders slowly.

import (
	"fmt"
	"html"
	"strings"
)

const (
	// drawAll: runs of at most this many states are drawn whole.
	drawAll = 120
	// drawHead and drawTail: the states drawn at the start and the end of
	// an elided run (four and two rows).
	drawHead, drawTail = 48, 24
	// drawMarked bounds the marked states drawn (each with a state
	// either side) in an elided run; the others are counted in the gaps.
	drawMarked = 60
	// maxTableRows bounds the rows of a page's table of bugs or faults.
	maxTableRows = 200
)

// slot is one place of a drawn run: state i, or (gap > 0) the gap
// standing for states i to i+gap-1.
type slot struct{ i, gap int }

// runSlots chooses the states of an n-state run to draw: all of them when
// n <= drawAll, else the first drawHead, the last drawTail, and the first
// drawMarked states for which marked holds, each with its neighbours;
// the states between are gaps.
func runSlots(n int, marked func(i int) bool) []slot {
	if n <= drawAll {
		s := make([]slot, n)
		for i := range s {
			s[i] = slot{i: i}
		}
		return s
	}
	keep := make([]bool, n)
	for i := 0; i < drawHead; i++ {
		keep[i] = true
	}
	for i := n - drawTail; i < n; i++ {
		keep[i] = true
	}
	shown := 0
	for i := drawHead; i < n-drawTail && shown < drawMarked; i++ {
		if marked(i) {
			shown++
			for j := max(0, i-1); j <= min(n-1, i+1); j++ {
				keep[j] = true
			}
		}
	}
	var s []slot
	for i := 0; i < n; {
		if keep[i] {
			s = append(s, slot{i: i})
			i++
			continue
		}
		j := i
		for j < n && !keep[j] {
			j++
		}
		s = append(s, slot{i: i, gap: j - i})
		i = j
	}
	return s
}

// runDrawing is what drawRun asks of a run: its length, each step's label
// ("" for none), each state's class, fill and title, and what a gap's
// title says of the states it stands for (besides their number).
type runDrawing struct {
	n      int
	label  func(i int) string
	state  func(i int) (class, fill, title string)
	marked func(i int) bool // drawn in an elided run
	gap    func(from, to int) string
}

// drawRun draws d as an SVG of class class.
func drawRun(b *strings.Builder, class string, d runDrawing) {
	const perRow, dx, dy = 12, 70, 60
	slots := runSlots(d.n, d.marked)
	rows := (len(slots) + perRow - 1) / perRow
	fmt.Fprintf(b, `<svg class="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`, class, perRow*dx+20, rows*dy+10)
	pos := func(k int) (float64, float64) { return snakePos(k, perRow, dx, dy) }
	for k := 0; k+1 < len(slots); k++ {
		x0, y0 := pos(k)
		x1, y1 := pos(k + 1)
		if slots[k].gap > 0 || slots[k+1].gap > 0 {
			fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#888" stroke-dasharray="4 3"/>`, x0, y0, x1, y1)
			continue
		}
		fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#888"/>`, x0, y0, x1, y1)
		if l := d.label(slots[k].i); l != "" {
			tx, ty := (x0+x1)/2-20, (y0+y1)/2-8
			if y0 != y1 {
				tx, ty = x0+12, (y0+y1)/2+4 // a step down to the next row
			}
			fmt.Fprintf(b, `<text x="%g" y="%g">%s</text>`, tx, ty, html.EscapeString(l))
		}
	}
	for k, s := range slots {
		x, y := pos(k)
		if s.gap > 0 {
			what := fmt.Sprintf("states %d to %d (%s) are not drawn", s.i, s.i+s.gap-1, plural(s.gap, "state"))
			if more := d.gap(s.i, s.i+s.gap); more != "" {
				what += ": " + more
			}
			bx := max(2, x-28) // the first column is 20 from the edge
			fmt.Fprintf(b, `<g class="elided" data-from="%d" data-states="%d"><rect x="%g" y="%g" width="56" height="18" rx="4" fill="#eee" stroke="#888"/><text x="%g" y="%g" text-anchor="middle">%s</text><title>%s</title></g>`,
				s.i, s.gap, bx, y-9, bx+28, y+4, html.EscapeString(shortCount(s.gap)), html.EscapeString(what))
			continue
		}
		c, fill, title := d.state(s.i)
		fmt.Fprintf(b, `<circle class="%s" fill="%s" cx="%g" cy="%g" r="8"><title>%d: %s</title></circle>`, c, fill, x, y, s.i, html.EscapeString(title))
	}
	b.WriteString("</svg>")
	if len(slots) < d.n {
		fmt.Fprintf(b, `<p class="elided-note">%s of %s drawn: the first %d, the last %d and the marked ones with their neighbours; each grey box stands for the states between (its title says which; vigil test --json and --record give every step).</p>`,
			plural(len(slots)-countGaps(slots), "state"), fmt.Sprint(d.n), drawHead, drawTail)
	}
}

func countGaps(slots []slot) int {
	n := 0
	for _, s := range slots {
		if s.gap > 0 {
			n++
		}
	}
	return n
}

// shortCount is a gap's label: "… 19,880".
func shortCount(n int) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return "… " + string(out)
}

// stepCurve is the points of a step plot of a cumulative count against
// time, top high: at each time (x, in plot units) the count steps up by
// one. Steps
// at the same x make one vertical line (a run's bugs are found together:
// 20,000 of them made 40,000 points).
func stepCurve(xs []float64, top int, pw, ph float64) string {
	h := float64(max(1, top))
	pts := []string{fmt.Sprintf("0,%g", ph)}
	for i := 0; i < len(xs); {
		x := fmt.Sprintf("%.1f", xs[i])
		j := i + 1
		for j < len(xs) && fmt.Sprintf("%.1f", xs[j]) == x {
			j++
		}
		pts = append(pts, fmt.Sprintf("%s,%.1f", x, ph-ph*float64(i)/h), fmt.Sprintf("%s,%.1f", x, ph-ph*float64(j)/h))
		i = j
	}
	pts = append(pts, fmt.Sprintf("%g,%.1f", pw, ph-ph*float64(len(xs))/h))
	return strings.Join(pts, " ")
}
