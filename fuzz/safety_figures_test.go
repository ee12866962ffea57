package fuzz

// Paper 000, Figure 2 on our models, written to FIGURES.md: unsafe runs
// found per 1,000 runs of Algorithm 1 and the time the 1,000 runs take, for
// each of the five configurations, on models whose policies have unsafe
// runs. Counts are measured, never asserted. Reproduce with
//
//	VIGIL_SAFETY_FIGURES=1 go test ./fuzz -run SafetyFigures -v -timeout 60m
//
// (VIGIL_SAFETY_FIGURES=N with N > 1 runs N runs per configuration instead
// of 1,000.) Fuzzing alone is measured, as in the paper's Figure 2: no
// confirmation, no fault analysis.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	_ "vigil/nn"
	_ "vigil/trees"
)

type safetyFigModel struct {
	name, file string
	defs       map[string]string
	policy     string
}

var safetyFigModels = []safetyFigModel{
	{name: "oneway_line (careful)", file: "../specs/oneway_line.spec", policy: "careful"},
	{name: "oneway_line L=60 (careful)", file: "../specs/oneway_line.spec", defs: map[string]string{"L": "60"}, policy: "careful"},
	{name: "oneway_line L=100 (careful)", file: "../specs/oneway_line.spec", defs: map[string]string{"L": "100"}, policy: "careful"},
	{name: "twoway_line (shuttle)", file: "../specs/twoway_line.spec", policy: "shuttle"},
	{name: "twoway_line L=40 (shuttle)", file: "../specs/twoway_line.spec", defs: map[string]string{"L": "40"}, policy: "shuttle"},
	{name: "twoway_line L=30 VMAX=3 (shuttle)", file: "../specs/twoway_line.spec", defs: map[string]string{"L": "30", "VMAX": "3"}, policy: "shuttle"},
	{name: "oneway (nn driver)", file: "../specs/oneway.spec", policy: "driver"},
	{name: "oneway (careful)", file: "../specs/oneway.spec", policy: "careful"},
	{name: "rover 200x20 (bold)", file: "../specs/rover.spec", defs: map[string]string{"W": "200", "H": "20", "EDGE": "150", "BAT": "400"}, policy: "bold"},
	{name: "rover (bold)", file: "../specs/rover.spec", policy: "bold"},
	{name: "transport (greedy)", file: "../specs/transport.spec", policy: "greedy"},
	{name: "tarjansafe (hasty)", file: "../specs/tarjansafe.spec", policy: "hasty"},
	{name: "polic3 bl4 (nn 16x16 unsafe)", file: "../bench/polic3/blocks.spec", defs: map[string]string{"N": "4", "TLIMIT": "3"}, policy: "bl4_16x16_unsafe"},
	{name: "polic3 bl4 (trees unsafe)", file: "../bench/polic3/blocks.spec", defs: map[string]string{"N": "4", "TLIMIT": "3"}, policy: "bl4_trees_unsafe"},
	{name: "polic3 np2x3 (nn 16x16 unsafe)", file: "../bench/polic3/npuzzle.spec", defs: map[string]string{"R": "2", "C": "3"}, policy: "np2x3_16x16_unsafe"},
	{name: "polic3 tr1 (nn 16x16 unsafe)", file: "../bench/polic3/transport.spec", policy: "tr1_16x16_unsafe"},
	{name: "polic3 be1 (nn 16x16 unsafe)", file: "../bench/polic3/beluga.spec", policy: "be1_16x16_unsafe"},
}

func TestSafetyFigures(t *testing.T) {
	env := os.Getenv("VIGIL_SAFETY_FIGURES")
	if env == "" {
		t.Skip("set VIGIL_SAFETY_FIGURES=1 to measure paper 000's Figure 2 on our models (minutes)")
	}
	runs := 1000
	if n, err := strconv.Atoi(env); err == nil && n > 1 {
		runs = n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| model (policy) |")
	for _, c := range SafetyConfigs {
		fmt.Fprintf(&b, " %s |", c.Name())
	}
	b.WriteString(" best biased / uniform |\n|---|")
	for range SafetyConfigs {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, fm := range safetyFigModels {
		m, diags := lang.Load(fm.file, lang.Options{Defines: fm.defs})
		if m == nil {
			t.Logf("%s: skipped: %v", fm.name, diags)
			continue
		}
		task := safetyTaskOf(t, m, fm.policy)
		fmt.Fprintf(&b, "| %s |", fm.name)
		var counts []int
		for _, c := range SafetyConfigs {
			t0 := time.Now()
			res, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Config: c, Runs: runs, Seed: 1, NoCheck: true})
			if err != nil {
				t.Fatalf("%s %s: %v", fm.name, c.Name(), err)
			}
			el := time.Since(t0)
			per := float64(res.Unsafe()) * 1000 / float64(runs)
			counts = append(counts, res.Unsafe())
			fmt.Fprintf(&b, " %.0f (%s) |", per, el.Round(time.Millisecond))
			t.Logf("%s %s: %d/%d unsafe (%d distinct), ends %v, %d expanded, %s", fm.name, c.Name(), res.Unsafe(), runs, len(res.Cases), res.Ends, res.Expanded, el.Round(time.Millisecond))
		}
		best := 0
		for _, n := range counts[1:] {
			best = max(best, n)
		}
		switch {
		case counts[0] > 0:
			fmt.Fprintf(&b, " %.1fx |\n", float64(best)/float64(counts[0]))
		case best > 0:
			b.WriteString(" uniform finds none |\n")
		default:
			b.WriteString(" - |\n")
		}
	}
	fmt.Printf("\n%s\n", b.String())
}
