package trees

// Search-effort figures (issue 5): the decision query on the example
// ensemble policies over single states and over boxes spanning the full
// variable ranges, and the margin query on the Veritas corpus, each against
// brute-force enumeration of split cells. Times are reported, never
// asserted. Reproduce with
//
//	VIGIL_FIGURES=1 go test ./trees -run TestFigures -v
//	go test ./trees -run '^$' -bench . -benchtime 3x

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
)

// onewayPolicies loads the trees policies of testdata/oneway_trees.spec.
func onewayPolicies(tb testing.TB) (*symbolic.Model, map[string]*Policy) {
	m, diags := lang.Load("testdata/oneway_trees.spec", lang.Options{})
	if diags.HasErrors() {
		tb.Fatalf("%s", diags.Render())
	}
	ps := map[string]*Policy{}
	for _, d := range m.Policies {
		if d.Kind != symbolic.KindTrees {
			continue
		}
		p, err := NewPolicy(m, d)
		if err != nil {
			tb.Fatal(err)
		}
		ps[d.Name] = p
	}
	return m, ps
}

// onewayApplicable lists the outputs of oneway.spec applicable in s
// (accelerate, decelerate, pickup, drop, park, cruise; P = VMAX = 3).
func onewayApplicable(s symbolic.State) []int {
	pos, speed, load, parked := s[0], s[1], s[2], s[3]
	_ = pos
	app := []bool{speed < 3 && parked == 0, speed > 0, speed == 0 && load < 3, speed == 0 && load > 0, speed == 0, speed > 0}
	var out []int
	for i, ok := range app {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// randomQuery sets blo..bhi to a random sub-box of m's states, as IC3
// asks them (a third of the variables keep their full range), and returns
// the outputs applicable throughout it and a random output to exclude.
func randomQuery(rng *rand.Rand, m *symbolic.Model, blo, bhi []int) (sure []int, a int) {
	for v := range m.Vars {
		x, y := m.Vars[v].Lo+rng.Intn(m.Vars[v].Size()), m.Vars[v].Lo+rng.Intn(m.Vars[v].Size())
		if rng.Intn(3) == 0 {
			x, y = m.Vars[v].Lo, m.Vars[v].Hi
		}
		blo[v], bhi[v] = min(x, y), max(x, y)
	}
	return surelyApplicable(blo, bhi), rng.Intn(6)
}

// surelyApplicable lists the outputs applicable in every state of a box.
func surelyApplicable(lo, hi []int) []int {
	count := map[int]int{}
	states := 0
	testutil.BoxStates(lo, hi, func(s symbolic.State) {
		states++
		for _, a := range onewayApplicable(s) {
			count[a]++
		}
	})
	var out []int
	for a := 0; a < 6; a++ {
		if count[a] == states {
			out = append(out, a)
		}
	}
	return out
}

// bruteCells decides the query by enumerating the split cells of a box of
// ensemble e; it returns whether a can win and the number of cells.
func bruteCells(e *Ensemble, box Box, a int, sure []int) (bool, int) {
	can, n := false, 0
	sc := make([]float64, e.NumClasses)
	cells(e, box, func(x []float64) {
		n++
		e.Scores(x, sc)
		if wins(sc, a, sure) {
			can = true
		}
	})
	return can, n
}

func cellCount(e *Ensemble, box Box) float64 {
	n := 1.0
	for f := 0; f < e.NumFeatures; f++ {
		n *= float64(e.cellOf(f, box[f].Hi) - e.cellOf(f, box[f].Lo) + 1)
	}
	return n
}

type effort struct {
	queries         int
	proved, refuted int
	unknown         int
	nodes, maxNodes int
	search          time.Duration
	cells           float64
	brute           time.Duration
	bruteDone       bool
}

func (f *effort) row(name, query string) string {
	q := float64(f.queries)
	ratio := "-"
	if f.bruteDone && f.search > 0 {
		ratio = fmt.Sprintf("%.2f", f.brute.Seconds()/f.search.Seconds())
	}
	brute := "infeasible"
	if f.bruteDone {
		brute = fmt.Sprintf("%.1f us", f.brute.Seconds()/q*1e6)
	}
	return fmt.Sprintf("| %s | %s | %d | %d/%d/%d | %.1f | %d | %.1f us | %.3g | %s | %s |",
		name, query, f.queries, f.proved, f.refuted, f.unknown, float64(f.nodes)/q, f.maxNodes,
		f.search.Seconds()/q*1e6, f.cells/q, brute, ratio)
}

func (f *effort) add(v Verdict, st Stats) {
	f.queries++
	switch v {
	case Proved:
		f.proved++
	case Refuted:
		f.refuted++
	default:
		f.unknown++
	}
	f.nodes += st.Nodes
	f.maxNodes = max(f.maxNodes, st.Nodes)
}

func TestFigures(t *testing.T) {
	if os.Getenv("VIGIL_FIGURES") == "" {
		t.Skip("set VIGIL_FIGURES=1 to print the search-effort figures")
	}
	var rows []string
	m, ps := onewayPolicies(t)
	for _, name := range []string{"driver_trees", "nn_trees"} {
		p := ps[name]
		if p == nil || p.varEns == nil {
			t.Fatalf("policy %s missing or not liftable", name)
		}
		mixed := ps["mixed_trees"]
		ve := p.varEns
		nv := len(m.Vars)
		// Single states: every state, every output a, sure = the outputs
		// applicable there (what PolIC3 asks when r is a single state).
		var single effort
		lo, hi := make([]int, nv), make([]int, nv)
		full := make([]int, nv)
		for v := range m.Vars {
			lo[v], full[v] = m.Vars[v].Lo, m.Vars[v].Hi
		}
		s := append(symbolic.State(nil), lo...)
		for {
			sure := onewayApplicable(s)
			for a := 0; a < 6; a++ {
				copy(hi, s)
				start := time.Now()
				d, err := p.Excludes(s, hi, a, sure, Options{})
				single.search += time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				single.add(d.Verdict, d.Stats)
				box := stateBox(s, s)
				start = time.Now()
				can, n := bruteCells(ve, box, a, sure)
				single.brute += time.Since(start)
				single.cells += float64(n)
				if can != (d.Verdict == Refuted) {
					t.Fatalf("%s state %v a=%d: search %v, brute force can=%v", name, s, a, d.Verdict, can)
				}
			}
			v := 0
			for v < nv && s[v] == full[v] {
				s[v] = lo[v]
				v++
			}
			if v == nv {
				break
			}
			s[v]++
		}
		single.bruteDone = true
		rows = append(rows, single.row(p.Decl.Name+" (state vars)", "single states, sure = applicable"))
		// Full ranges: every output a against all others.
		var fullBox effort
		for a := 0; a < 6; a++ {
			var sure []int
			for c := 0; c < 6; c++ {
				if c != a {
					sure = append(sure, c)
				}
			}
			start := time.Now()
			d, err := p.Excludes(lo, full, a, sure, Options{})
			fullBox.search += time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			fullBox.add(d.Verdict, d.Stats)
			box := stateBox(lo, full)
			start = time.Now()
			can, n := bruteCells(ve, box, a, sure)
			fullBox.brute += time.Since(start)
			fullBox.cells += float64(n)
			if can != (d.Verdict == Refuted) {
				t.Fatalf("%s full box a=%d: search %v, brute force can=%v", name, a, d.Verdict, can)
			}
		}
		fullBox.bruteDone = true
		rows = append(rows, fullBox.row(p.Decl.Name+" (state vars)", "full ranges, sure = all others"))
		// Random sub-boxes, as IC3 asks them: sure = the outputs applicable
		// in every state of the box.
		var boxes effort
		rng := rand.New(rand.NewSource(5))
		blo, bhi := make([]int, nv), make([]int, nv)
		for q := 0; q < 300; q++ {
			sure, a := randomQuery(rng, m, blo, bhi)
			start := time.Now()
			d, err := p.Excludes(blo, bhi, a, sure, Options{})
			boxes.search += time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			boxes.add(d.Verdict, d.Stats)
			box := stateBox(blo, bhi)
			start = time.Now()
			can, n := bruteCells(ve, box, a, sure)
			boxes.brute += time.Since(start)
			boxes.cells += float64(n)
			if can != (d.Verdict == Refuted) {
				t.Fatalf("%s box %v..%v a=%d: search %v, brute force can=%v", name, blo, bhi, a, d.Verdict, can)
			}
		}
		boxes.bruteDone = true
		rows = append(rows, boxes.row(p.Decl.Name+" (state vars)", "random boxes, sure = applicable throughout"))
		if name == "driver_trees" {
			// The same boxes for the policy whose first input reads two
			// variables: input-space search with state-box splitting.
			var fb effort
			rng := rand.New(rand.NewSource(5))
			for q := 0; q < 300; q++ {
				sure, a := randomQuery(rng, m, blo, bhi)
				start := time.Now()
				d, err := mixed.Excludes(blo, bhi, a, sure, Options{})
				fb.search += time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				fb.add(d.Verdict, d.Stats)
				start = time.Now()
				can := false
				n := 0
				testutil.BoxStates(blo, bhi, func(s symbolic.State) {
					n++
					if mixed.wins(s, a, sure) {
						can = true
					}
				})
				fb.brute += time.Since(start)
				fb.cells += float64(n)
				if can != (d.Verdict == Refuted) {
					t.Fatalf("mixed_trees box %v..%v a=%d: search %v, enumeration can=%v", blo, bhi, a, d.Verdict, can)
				}
			}
			fb.bruteDone = true
			rows = append(rows, fb.row("mixed_trees (inputs, splitting)", "random boxes, sure = applicable throughout; cells = states"))
		}
		// The same full-range question in the ensemble's input space.
		var input effort
		ibox := p.InputBox(lo, full)
		for a := 0; a < 6; a++ {
			var sure []int
			for c := 0; c < 6; c++ {
				if c != a {
					sure = append(sure, c)
				}
			}
			start := time.Now()
			d, err := p.Ens.Excludes(ibox, a, sure, Options{})
			input.search += time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			input.add(d.Verdict, d.Stats)
			input.cells += cellCount(p.Ens, ibox)
			if cellCount(p.Ens, ibox) <= 1e7 {
				start = time.Now()
				can, _ := bruteCells(p.Ens, ibox, a, sure)
				input.brute += time.Since(start)
				input.bruteDone = true
				if can != (d.Verdict == Refuted) {
					t.Fatalf("%s input box a=%d: search %v, brute force can=%v", name, a, d.Verdict, can)
				}
			}
		}
		rows = append(rows, input.row(p.Decl.Name+" (inputs)", "full input box, sure = all others"))
	}
	// The Veritas corpus: margin of every class (or max for one class)
	// over the whole space.
	if _, err := os.Stat(corpusDir); err == nil {
		for _, name := range []string{"xgb-img-very-easy-new.json", "xgb-img-easy-new.json", "rf_model.json"} {
			e, err := Load(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			box := make(Box, e.NumFeatures)
			for f := range box {
				box[f] = Interval{math.Inf(-1), math.Inf(1)}
			}
			var f effort
			query := "max f_0"
			for c := 0; c < e.NumClasses; c++ {
				start := time.Now()
				var r Result
				if e.NumClasses == 1 {
					r, err = e.Max(box, 0, Options{})
				} else {
					query = "margin of each class"
					r, err = e.Margin(box, c, Options{})
				}
				f.search += time.Since(start)
				if err != nil || !r.Exact {
					t.Fatalf("%s: %v %+v", name, err, r)
				}
				f.add(Proved, r.Stats)
				f.cells += cellCount(e, box)
				if cellCount(e, box) <= 1e7 {
					start = time.Now()
					best := math.Inf(-1)
					sc := make([]float64, e.NumClasses)
					cells(e, box, func(x []float64) {
						e.Scores(x, sc)
						v := sc[c]
						if e.NumClasses > 1 {
							v = math.Inf(1)
							for o := range sc {
								if o != c {
									v = min(v, sc[c]-sc[o])
								}
							}
						}
						best = max(best, v)
					})
					f.brute += time.Since(start)
					f.bruteDone = true
					if best != r.Lower {
						t.Fatalf("%s class %d: search %v, brute force %v", name, c, r.Lower, best)
					}
				}
			}
			f.proved = 0
			rows = append(rows, f.row(name, query))
		}
	}
	t.Logf("\n| ensemble | query | queries | excluded/possible/unknown | mean nodes | max nodes | mean search time | cells per query | brute force per query | brute/search time |\n|---|---|---|---|---|---|---|---|---|---|\n%s",
		strings.Join(rows, "\n"))
}

func stateBox(lo, hi []int) Box {
	b := make(Box, len(lo))
	for v := range b {
		b[v] = Interval{float64(lo[v]), float64(hi[v])}
	}
	return b
}

// BenchmarkDecideFullRange is the decision query of every output against
// all others over the full variable ranges of the one-way line.
func BenchmarkDecideFullRange(b *testing.B) {
	m, ps := onewayPolicies(b)
	for _, name := range []string{"driver_trees", "nn_trees"} {
		p := ps[name]
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for v := range m.Vars {
			lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
		}
		b.Run(name, func(b *testing.B) {
			nodes := 0
			for i := 0; i < b.N; i++ {
				for a := 0; a < 6; a++ {
					var sure []int
					for c := 0; c < 6; c++ {
						if c != a {
							sure = append(sure, c)
						}
					}
					d, _ := p.Excludes(lo, hi, a, sure, Options{})
					nodes += d.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N)/6, "nodes/query")
		})
		b.Run(name+"/brute", func(b *testing.B) {
			box := stateBox(lo, hi)
			for i := 0; i < b.N; i++ {
				for a := 0; a < 6; a++ {
					var sure []int
					for c := 0; c < 6; c++ {
						if c != a {
							sure = append(sure, c)
						}
					}
					bruteCells(p.varEns, box, a, sure)
				}
			}
		})
	}
}

// BenchmarkCorpusMargin is the margin of every class of the corpus's
// random forest over the whole input space (brute force is infeasible).
func BenchmarkCorpusMargin(b *testing.B) {
	e, err := Load(filepath.Join(corpusDir, "rf_model.json"))
	if err != nil {
		b.Skipf("corpus absent: %v", err)
	}
	box := make(Box, e.NumFeatures)
	for f := range box {
		box[f] = Interval{math.Inf(-1), math.Inf(1)}
	}
	nodes := 0
	for i := 0; i < b.N; i++ {
		for c := 0; c < e.NumClasses; c++ {
			r, _ := e.Margin(box, c, Options{})
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N)/float64(e.NumClasses), "nodes/query")
}

// BenchmarkLoadCorpus is loading (reading, decoding and checking) each
// model of the corpus, the part of a query before the search starts:
//
//	go test ./trees -run '^$' -bench LoadCorpus -benchmem
func BenchmarkLoadCorpus(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	n := 0
	for _, f := range files {
		if filepath.Base(f) == "expected.json" {
			continue
		}
		n++
		b.Run(filepath.Base(f), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Load(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if n == 0 {
		b.Skip("corpus absent")
	}
}

// BenchmarkCorpusQuery puts loading each corpus model beside the queries
// asked of it, in one run: the global maximum and minimum of class 0 (vigil
// trees bound) and, for the forest, whether class 0 can win against all
// the others (vigil trees decide). trees/FIGURES.md has the figures:
//
//	go test ./trees -run '^$' -bench CorpusQuery -benchmem
func BenchmarkCorpusQuery(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	n := 0
	for _, f := range files {
		if filepath.Base(f) == "expected.json" {
			continue
		}
		n++
		e, err := Load(f)
		if err != nil {
			b.Fatal(err)
		}
		global := make(Box, e.NumFeatures)
		for i := range global {
			global[i] = Interval{math.Inf(-1), math.Inf(1)}
		}
		var others []int
		for c := 1; c < e.NumClasses; c++ {
			others = append(others, c)
		}
		queries := []struct {
			name string
			run  func() error
		}{
			{"load", func() error { _, err := Load(f); return err }},
			{"max", func() error { _, err := e.Max(global, 0, Options{}); return err }},
			{"min", func() error { _, err := e.Min(global, 0, Options{}); return err }},
		}
		if len(others) > 0 {
			queries = append(queries, struct {
				name string
				run  func() error
			}{"decide", func() error { _, err := e.Excludes(global, 0, others, Options{}); return err }})
		}
		for _, q := range queries {
			b.Run(filepath.Base(f)+"/"+q.name, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := q.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	if n == 0 {
		b.Skip("corpus absent")
	}
}
