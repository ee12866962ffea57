package batch

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot is one SVG figure of a report.
type Plot struct {
	File, Title string
	SVG         string
}

// Plots draws the report's figures: a log-log scatter of the time of
// every pair of algorithms, or of the pairs the report's Scatter names
// (runs without a verdict on the border, at the time limit), and the coverage over time of every algorithm (how many
// runs ended with a verdict within t seconds).
func (rep *Report) Plots() ([]Plot, error) {
	var out []Plot
	pairs := rep.Scatter
	if pairs == nil { // every pair (a Scatter that the filters emptied: none)
		for i, a := range rep.Algorithms {
			for _, b := range rep.Algorithms[i+1:] {
				pairs = append(pairs, [2]string{a, b})
			}
		}
	}
	for _, pr := range pairs {
		p, err := rep.scatter(pr[0], pr[1])
		if err != nil {
			return nil, err
		}
		if p != nil {
			out = append(out, *p)
		}
	}
	if len(rep.Algorithms) > 0 {
		p, err := rep.cactus()
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}

// border is where unsolved runs go in plots: the time limit, or twice the
// largest time seen.
func (rep *Report) border() float64 {
	if rep.x.Limits.CPU > 0 {
		return rep.x.Limits.CPU.Seconds()
	}
	m := 0.0
	for _, p := range rep.Runs {
		if t, ok := num(p["time"]); ok && t > m {
			m = t
		}
	}
	return 2 * math.Max(m, 0.01)
}

// minTime keeps zero times on a log axis.
const minTime = 1e-3

func (rep *Report) scatter(a, b string) (*Plot, error) {
	border := rep.border()
	byDom, doms := rep.scatterPoints(a, b, border)
	if len(doms) == 0 {
		return nil, nil
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("time (s): %s vs %s", a, b)
	pl.X.Label.Text, pl.Y.Label.Text = a+" (s)", b+" (s)"
	logAxes(pl, minTime, border)
	diag, err := plotter.NewLine(plotter.XYs{{X: minTime, Y: minTime}, {X: border, Y: border}})
	if err != nil {
		return nil, err
	}
	diag.Color = color.Gray{Y: 160}
	diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	pl.Add(diag)
	for i, d := range doms {
		s, err := plotter.NewScatter(byDom[d])
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = plotutil.Color(i)
		s.GlyphStyle.Shape = plotutil.Shape(i)
		s.GlyphStyle.Radius = vg.Points(2.5)
		pl.Add(s)
		pl.Legend.Add(d, s)
	}
	pl.Legend.Top, pl.Legend.Left = true, true
	return render(pl, fmt.Sprintf("scatter-time-%s-%s.svg", a, b), pl.Title.Text+" (points on the border at the limit: no verdict)")
}

// scatterPoints are the points of the scatter plot of a's times against
// b's, per domain (sorted): one per instance with a run of each, at its
// time when it gave a verdict, on the border when not.
func (rep *Report) scatterPoints(a, b string, border float64) (map[string]plotter.XYs, []string) {
	// A point needs a run of each algorithm: an instance whose run of one
	// of them has not finished (or was filtered out) is not plotted, or
	// it would sit on the border as if that algorithm had given up.
	type pair struct {
		ta, tb     float64
		hasA, hasB bool
	}
	pairs := map[string]*pair{}
	dom := map[string]string{}
	for _, p := range rep.Runs {
		alg := attrString(p["algorithm"])
		if alg != a && alg != b {
			continue
		}
		k := instance(p)
		if pairs[k] == nil {
			pairs[k] = &pair{ta: border, tb: border}
			dom[k] = attrString(p["domain"])
		}
		t := border
		if c, _ := num(p["coverage"]); c == 1 {
			t, _ = num(p["time"])
			t = math.Max(math.Min(t, border), minTime)
		}
		if alg == a {
			pairs[k].ta, pairs[k].hasA = t, true
		} else {
			pairs[k].tb, pairs[k].hasB = t, true
		}
	}
	for k, pr := range pairs {
		if !pr.hasA || !pr.hasB {
			delete(pairs, k)
		}
	}
	var doms []string
	byDom := map[string]plotter.XYs{}
	for k, pr := range pairs {
		d := dom[k]
		if byDom[d] == nil {
			doms = append(doms, d)
		}
		byDom[d] = append(byDom[d], plotter.XY{X: pr.ta, Y: pr.tb})
	}
	sort.Strings(doms)
	return byDom, doms
}

func (rep *Report) cactus() (*Plot, error) {
	pl := plot.New()
	pl.Title.Text = "runs solved within time t"
	pl.X.Label.Text, pl.Y.Label.Text = "time t (s)", "runs with a verdict"
	border := rep.border()
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	pl.X.Min, pl.X.Max = minTime, border
	for i, a := range rep.Algorithms {
		var ts []float64
		for _, p := range rep.Runs {
			if attrString(p["algorithm"]) != a {
				continue
			}
			if c, _ := num(p["coverage"]); c == 1 {
				t, _ := num(p["time"])
				ts = append(ts, math.Max(t, minTime))
			}
		}
		sort.Float64s(ts)
		xy := plotter.XYs{{X: minTime, Y: 0}}
		for j, t := range ts {
			xy = append(xy, plotter.XY{X: t, Y: float64(j)}, plotter.XY{X: t, Y: float64(j + 1)})
		}
		xy = append(xy, plotter.XY{X: border, Y: float64(len(ts))})
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		pl.Add(l)
		pl.Legend.Add(a, l)
	}
	pl.Legend.Top, pl.Legend.Left = true, true
	pl.Y.Min = 0
	return render(pl, "coverage-over-time.svg", "coverage over time: runs with a verdict within t seconds of CPU time")
}

func logAxes(pl *plot.Plot, lo, hi float64) {
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		ax.Scale = plot.LogScale{}
		ax.Tick.Marker = plot.LogTicks{Prec: -1}
		ax.Min, ax.Max = lo, hi*1.05
	}
}

func render(pl *plot.Plot, file, title string) (*Plot, error) {
	wt, err := pl.WriterTo(5*vg.Inch, 5*vg.Inch, "svg")
	if err != nil {
		return nil, fmt.Errorf("batch: plot %s: %w", file, err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("batch: plot %s: %w", file, err)
	}
	return &Plot{File: file, Title: title, SVG: b.String()}, nil
}
