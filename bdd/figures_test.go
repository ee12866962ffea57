package bdd_test

// Figures for bdd/FIGURES.md: BDD Prop-U against explicit Prop-U on paper
// 002's Flappy Bird family and Fig. 1 family, and on wide models of more
// than 10^12 states. Run with
//
//	VIGIL_BDD_FIGURES=1 go test ./bdd -run Figures -v -timeout 60m
//
// and the benchmarks with go test ./bdd -run '^$' -bench .

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// heapPeak samples the Go heap (objects in use) every 2 ms while f runs
// and returns the largest value seen, after collections before f.
func heapPeak(f func()) uint64 {
	// Twice: objects with finalizers (rudd's node references) are freed
	// only by the collection after the one that ran their finalizers.
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	metrics.Read(sample)
	return max(peak, sample[0].Value.Uint64())
}

type figRow struct {
	size                           string
	states                         string
	starts                         int
	bddSafe, expSafe               int
	bddMs, expMs                   float64
	bddIters, bddPeak, bddSetNodes int
	bddHeap, expHeap               uint64
	expExpanded, expStored         int
	expStatus                      string // "" ran, "timeout", "not run"
}

func mib(b uint64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

// figure decides the start states of m with BDD Prop-U and, unless skipExp,
// with explicit Prop-U (timeout expTimeout); the answers must agree.
func figure(t *testing.T, size string, m *symbolic.Model, pd *symbolic.PolicyDecl, r safety.Radius, skipExp bool, expTimeout time.Duration) figRow {
	t.Helper()
	prop := m.Properties[0]
	row := figRow{size: size}
	var res *bdd.Safety
	var err error
	var bt time.Duration
	row.bddHeap = heapPeak(func() {
		t0 := time.Now()
		res, err = bdd.PropU(context.Background(), m, prop, pd, r, nil, bdd.Options{})
		if err == nil {
			_, unsafe, safe, err2 := res.StartCounts()
			if err2 != nil {
				err = err2
			} else if safe != nil {
				row.bddSafe = int(safe.Int64())
				row.starts = int(safe.Int64() + unsafe.Int64())
			}
		}
		bt = time.Since(t0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete {
		t.Fatalf("%s: BDD Prop-U stopped: %s", size, res.Reason)
	}
	row.states = res.Total.String()
	row.bddMs = float64(bt.Microseconds()) / 1000
	row.bddIters, row.bddPeak, row.bddSetNodes = res.Stats.Iterations, res.Stats.Mem.PeakTableNodes, res.Stats.SetNodes
	if skipExp {
		row.expStatus = "not run"
		return row
	}
	g, dec, err := testutil.Explicit(m, prop, pd)
	if err != nil {
		t.Fatal(err)
	}
	var et time.Duration
	row.expHeap = heapPeak(func() {
		ctx, cancel := context.WithTimeout(context.Background(), expTimeout)
		defer cancel()
		sp := safety.NewSpace(g, dec)
		d := safety.NewPropU(sp, r)
		t0 := time.Now()
		defer func() { et = time.Since(t0); row.expExpanded, row.expStored = d.Stats().Expanded, sp.Len() }()
		var states []symbolic.State
		if err := g.Starts(func(s symbolic.State) bool { states = append(states, append(symbolic.State(nil), s...)); return true }); err != nil {
			t.Fatal(err)
		}
		for _, s := range states {
			id, err := sp.Intern(s)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := d.Decide(ctx, id)
			if err != nil {
				if ctx.Err() != nil {
					row.expStatus = "timeout"
					return
				}
				t.Fatal(err)
			}
			if ok {
				row.expSafe++
			}
		}
	})
	row.expMs = float64(et.Microseconds()) / 1000
	if row.expStatus == "" && row.expSafe != row.bddSafe {
		t.Fatalf("%s: BDD Prop-U finds %d safe start states, explicit Prop-U %d", size, row.bddSafe, row.expSafe)
	}
	return row
}

func printFigures(t *testing.T, title string, rows []figRow) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\n", title)
	b.WriteString("| size | states | start states (safe) | bdd ms | iterations | peak table nodes | result nodes | bdd heap MiB | explicit ms | expanded | stored | explicit heap MiB | time explicit/bdd | heap explicit/bdd |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		exp := fmt.Sprintf("%.1f | %d | %d | %s | %.3g | %.3g", r.expMs, r.expExpanded, r.expStored, mib(r.expHeap), r.expMs/r.bddMs, float64(r.expHeap)/float64(r.bddHeap))
		switch r.expStatus {
		case "not run":
			exp = "not run | | | | – | –"
		case "timeout":
			exp = fmt.Sprintf("timeout (%.0f s) | %d | %d | %s | > %.0f | –", r.expMs/1000, r.expExpanded, r.expStored, mib(r.expHeap), r.expMs/r.bddMs)
		}
		fmt.Fprintf(&b, "| %s | %s | %d (%d) | %.1f | %d | %d | %d | %s | %s |\n", r.size, r.states, r.starts, r.bddSafe, r.bddMs, r.bddIters, r.bddPeak, r.bddSetNodes, mib(r.bddHeap), exp)
	}
	t.Log(b.String())
}

// TestFigures measures the tables of FIGURES.md.
func TestFigures(t *testing.T) {
	if os.Getenv("VIGIL_BDD_FIGURES") == "" {
		t.Skip("set VIGIL_BDD_FIGURES=1 to measure the figures of FIGURES.md (several minutes)")
	}
	const expTimeout = 120 * time.Second
	// Once explicit Prop-U needs this long or this much heap, larger sizes
	// are not run: the next size is 10x larger, and the machine is shared.
	const expSlow = 10 * time.Second
	const expBig = 1 << 30
	family := func(title, spec, param string, sizes []string, defs map[string]string, policy string, r safety.Radius) {
		var rows []figRow
		skip := false
		for _, sz := range sizes {
			d := map[string]string{param: sz}
			for k, v := range defs {
				d[k] = v
			}
			m := shipped(t, spec, d)
			var pd *symbolic.PolicyDecl
			if policy != "" {
				pd = m.Policy(policy)
			}
			row := figure(t, param+"="+sz, m, pd, r, skip, expTimeout)
			rows = append(rows, row)
			if row.expStatus != "" || row.expMs > float64(expSlow.Milliseconds()) || row.expHeap > expBig {
				skip = true
			}
		}
		printFigures(t, title, rows)
	}
	flappy := []string{"24", "96", "768", "7680", "76800", "768000", "7680000", "76800000", "96000000000"}
	family("Flappy Bird (specs/flappy.spec, S=6, H=10), r = inf, all start states", "flappy.spec", "W", flappy, nil, "", safety.Inf)
	family("Flappy Bird, r = 0 under policy steer", "flappy.spec", "W", flappy, nil, "steer", 0)
	family("Flappy Bird with H=100, GAPH=30, S=80, r = inf", "flappy.spec", "W", []string{"800", "8000", "80000", "800000", "8000000", "80000000000"}, map[string]string{"H": "100", "GAPH": "30", "S": "80"}, "", safety.Inf)
	fig1 := []string{"5", "10", "100", "1000", "10000", "100000", "1000000", "10000000", "1000000000000"}
	family("Paper 002's Fig. 1 family (specs/tarjansafe.spec), r = inf", "tarjansafe.spec", "D", fig1, nil, "", safety.Inf)
	// Under hasty every layer is one more round of backward reachability:
	// D rounds.
	family("Fig. 1 family, r = 0 under policy hasty", "tarjansafe.spec", "D", fig1[:6], nil, "hasty", 0)
	// rover: 2 * 10^13 states, 9 * 10^12 start states.
	var rows []figRow
	m := shipped(t, "rover.spec", nil)
	rows = append(rows, figure(t, "rover r=inf", m, nil, safety.Inf, true, 0))
	rows = append(rows, figure(t, "rover r=0 careful", m, m.Policy("careful"), 0, true, 0))
	printFigures(t, "Wide models (specs/rover.spec: W=H=100000, BAT=1000)", rows)
}

func benchPropU(b *testing.B, spec string, defs map[string]string, policy string, r safety.Radius) {
	m := shipped(b, spec, defs)
	var pd *symbolic.PolicyDecl
	if policy != "" {
		pd = m.Policy(policy)
	}
	for b.Loop() {
		res, err := bdd.PropU(context.Background(), m, m.Properties[0], pd, r, nil, bdd.Options{})
		if err != nil || !res.Complete {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Stats.Mem.PeakTableNodes), "peak-nodes")
		b.ReportMetric(float64(res.Stats.Iterations), "iterations")
	}
}

func BenchmarkPropUFlappy(b *testing.B) {
	for _, w := range []string{"768", "768000", "96000000000"} {
		b.Run("W="+w, func(b *testing.B) { benchPropU(b, "flappy.spec", map[string]string{"W": w}, "", safety.Inf) })
	}
}

func BenchmarkPropUFig1(b *testing.B) {
	for _, d := range []string{"1000", "1000000000000"} {
		b.Run("D="+d, func(b *testing.B) { benchPropU(b, "tarjansafe.spec", map[string]string{"D": d}, "", safety.Inf) })
	}
	// Under hasty, D + 4 rounds (see FIGURES.md).
	b.Run("D=1000/hasty", func(b *testing.B) { benchPropU(b, "tarjansafe.spec", map[string]string{"D": "1000"}, "hasty", 0) })
}
