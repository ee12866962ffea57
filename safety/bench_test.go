package safety_test

// Benchmarks and figures of the safety deciders on the shipped models:
// paper 002's worst-case family for TarjanSafe (specs/tarjansafe.spec) and
// Flappy Bird (specs/flappy.spec) at growing sizes, and fault analysis on
// the unsafe runs of every shipped spec with an unsafe policy. The figure
// tests print markdown tables (safety/FIGURES.md holds a run of them) and
// run only with VIGIL_SAFETY_FIGURES=1:
//
//	VIGIL_SAFETY_FIGURES=1 go test ./safety -run Figures -v -timeout 30m

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// instance is a loaded spec with its property and tested policy compiled.
type instance struct {
	m      *symbolic.Model
	g      *explicit.Generator
	dec    explicit.Decider
	starts []symbolic.State
}

// load loads specs/file with the constant overrides defs (NAME=VALUE) and
// compiles its only property and the policy named pol.
func load(tb testing.TB, file, pol string, defs ...string) *instance {
	tb.Helper()
	opts := lang.Options{Defines: map[string]string{}}
	for _, d := range defs {
		name, val, _ := strings.Cut(d, "=")
		opts.Defines[name] = val
	}
	m, diags := lang.Load(filepath.Join("..", "specs", file), opts)
	if diags.HasErrors() {
		tb.Fatalf("%s %v:\n%s", file, defs, diags.Render())
	}
	prop, pd := m.Property(""), m.Policy(pol)
	if prop == nil || pd == nil {
		tb.Fatalf("%s: want one property and a policy %q", file, pol)
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := explicit.NewDecider(m, pd)
	if err != nil {
		tb.Fatal(err)
	}
	in := &instance{m: m, g: g, dec: dec}
	err = g.Starts(func(s symbolic.State) bool {
		in.starts = append(in.starts, append(symbolic.State(nil), s...))
		return true
	})
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// outcome is what one decider did on the start states of an instance.
type outcome struct {
	safe, total int // start states decided safe, and decided
	exp         int // expansions
	reg         int // states registered in the space
	dur         time.Duration
	err         error
}

// decideStarts decides every start state of in with a fresh space and a
// fresh decider algo for radius r, shared across the start states.
func decideStarts(ctx context.Context, in *instance, algo string, r safety.Radius) outcome {
	sp := safety.NewSpace(in.g, in.dec)
	d, err := safety.New(algo, sp, r, safety.Options{Order: safety.OrderApp, Seed: 1})
	if err != nil {
		return outcome{err: err}
	}
	var o outcome
	t0 := time.Now()
	for _, s := range in.starts {
		id, err := sp.Intern(s)
		if err != nil {
			o.err = err
			break
		}
		ok, err := d.Decide(ctx, id)
		if err != nil {
			o.err = err
			break
		}
		o.total++
		if ok {
			o.safe++
		}
	}
	o.dur = time.Since(t0)
	o.exp, o.reg = d.Stats().Expanded, sp.Len()
	return o
}

func benchDecide(b *testing.B, in *instance, algo string) {
	exp := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o := decideStarts(context.Background(), in, algo, safety.Inf)
		if o.err != nil {
			b.Fatal(o.err)
		}
		exp += o.exp
	}
	b.ReportMetric(float64(exp)/float64(b.N), "expanded/op")
}

var benchAlgos = []string{"tarjan", "tarjan-path", "ipi", "propu", "lrtdp"}

// BenchmarkTarjanFamily decides the start state of paper 002's Fig. 1
// family (policy patient) with r = inf. tarjan-path (paper 002's
// Algorithm 1) expands 3*2^D - 1 pairs there, so no size goes above
// D = 20 (3 million expansions); tarjan stays linear.
func BenchmarkTarjanFamily(b *testing.B) {
	for _, algo := range benchAlgos {
		for _, n := range []int{5, 10, 15, 20} {
			b.Run(fmt.Sprintf("%s/D=%d", algo, n), func(b *testing.B) {
				benchDecide(b, load(b, "tarjansafe.spec", "patient", "D="+strconv.Itoa(n)), algo)
			})
		}
	}
}

// BenchmarkFlappy decides the start states of Flappy Bird (policy steer,
// pipe spacing S = 6) at growing widths with r = inf. TarjanSafe is
// exponential in W there (15 million expansions at W = 96, more than 2^31
// at W = 192), so it runs only up to W = 96; tarjan-path needs more than a
// minute from W = 24 on and does not run.
func BenchmarkFlappy(b *testing.B) {
	for _, algo := range benchAlgos {
		for _, w := range []int{24, 48, 96, 192} {
			if algo == "tarjan-path" || algo == "tarjan" && w > 96 {
				continue
			}
			b.Run(fmt.Sprintf("%s/W=%d", algo, w), func(b *testing.B) {
				benchDecide(b, load(b, "flappy.spec", "steer", "W="+strconv.Itoa(w), "S=6"), algo)
			})
		}
	}
}

func figures(t *testing.T) {
	if os.Getenv("VIGIL_SAFETY_FIGURES") != "1" {
		t.Skip("figures: set VIGIL_SAFETY_FIGURES=1 to print them")
	}
}

const figureTimeout = 60 * time.Second

// reachable counts the states reachable from the start states under every
// label (terminal states included).
func reachable(t *testing.T, in *instance) int {
	res, err := explicit.Search(context.Background(), in.g, explicit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Stats.States
}

var errSkipped = errors.New("not run: timed out on a smaller size")

// cells formats an outcome as answer | expanded | ms.
func (o outcome) cells() string {
	ans := "safe"
	switch {
	case errors.Is(o.err, errSkipped):
		return "not run | | "
	case errors.Is(o.err, context.DeadlineExceeded):
		ans = "timeout"
	case o.err != nil:
		ans = "error: " + o.err.Error()
	case o.safe == 0:
		ans = "unsafe"
	case o.safe < o.total:
		ans = fmt.Sprintf("%d/%d safe", o.safe, o.total)
	}
	return fmt.Sprintf("%s | %d | %.1f", ans, o.exp, ms(o.dur))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b outcome) string {
	if errors.Is(a.err, context.DeadlineExceeded) && b.err == nil {
		return fmt.Sprintf("> %.0f", float64(a.dur)/float64(max(b.dur, time.Microsecond)))
	}
	if a.err != nil || b.err != nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", float64(a.dur)/float64(max(b.dur, time.Microsecond)))
}

// timed decides the start states of in with a fresh decider algo under
// figureTimeout, after a garbage collection; it repeats (fresh each time,
// at most 10 runs) while the runs so far took less than 200 ms and keeps
// the fastest, so that small timings are less noisy.
func timed(in *instance, algo string, r safety.Radius) outcome {
	var best outcome
	var total time.Duration
	for i := 0; i < 10 && total < 200*time.Millisecond; i++ {
		runtime.GC()
		ctx, cancel := context.WithTimeout(context.Background(), figureTimeout)
		o := decideStarts(ctx, in, algo, r)
		cancel()
		if i == 0 || o.dur < best.dur {
			best = o
		}
		if o.err != nil {
			break
		}
		total += o.dur
	}
	return best
}

// scalingTable prints one row per size: the reachable states, the most
// states any decider registered, and each decider's answer, expansions and
// time; answers that differ fail the test. A decider that timed out is not
// run on the larger sizes.
func scalingTable(t *testing.T, title, sizeName string, sizes []int, r safety.Radius, algos []string, mk func(int) *instance) {
	fmt.Printf("\n### %s (r = %v)\n\n| %s | reachable | registered |", title, r, sizeName)
	sep := "|---:|---:|---:|"
	for _, a := range algos {
		name := a
		if a == "ipi" {
			name = "ipi(app)"
		}
		fmt.Printf(" %s | exp | ms |", name)
		sep += "---|---:|---:|"
	}
	var slow []int // the TarjanSafe variants, timed against iPI (algos[1])
	for i, a := range algos {
		if strings.HasPrefix(a, "tarjan") {
			slow = append(slow, i)
			fmt.Printf(" %s/ipi time |", a)
			sep += "---:|"
		}
	}
	fmt.Printf("\n%s\n", sep)
	timedOut := map[string]bool{}
	for _, n := range sizes {
		in := mk(n)
		var outs []outcome
		reg := 0
		for _, a := range algos {
			if timedOut[a] {
				outs = append(outs, outcome{err: errSkipped})
				continue
			}
			o := timed(in, a, r)
			if o.err != nil && !errors.Is(o.err, context.DeadlineExceeded) {
				t.Errorf("%s %s=%d %s r=%v: %v", title, sizeName, n, a, r, o.err)
			}
			timedOut[a] = o.err != nil
			reg = max(reg, o.reg)
			outs = append(outs, o)
		}
		fmt.Printf("| %d | %d | %d |", n, reachable(t, in), reg)
		for i, o := range outs {
			fmt.Printf(" %s |", o.cells())
			if o.err == nil && outs[0].err == nil && o.safe != outs[0].safe {
				t.Errorf("%s %s=%d r=%v: %s finds %d/%d start states safe, %s %d/%d", title, sizeName, n, r, algos[i], o.safe, o.total, algos[0], outs[0].safe, outs[0].total)
			}
		}
		for _, i := range slow {
			fmt.Printf(" %s |", ratio(outs[i], outs[1]))
		}
		fmt.Println()
	}
}

// TestScalingFigures prints how the deciders scale on paper 002's Fig. 1
// family (TarjanSafe exponential in D, iPI polynomial, says the paper;
// here only tarjan-path, paper 002's Algorithm 1, is exponential) and on
// Flappy Bird at growing widths (both TarjanSafe variants exponential).
func TestScalingFigures(t *testing.T) {
	figures(t)
	algos := []string{"tarjan", "ipi", "propu", "tarjan-path"}
	family := func(n int) *instance { return load(t, "tarjansafe.spec", "patient", "D="+strconv.Itoa(n)) }
	flappy := func(w int) *instance { return load(t, "flappy.spec", "steer", "W="+strconv.Itoa(w), "S=6") }
	scalingTable(t, "tarjansafe, policy patient, the start state", "D", []int{5, 10, 15, 20, 25, 100, 1000}, safety.Inf, algos, family)
	scalingTable(t, "tarjansafe, policy patient, the start state", "D", []int{5, 10, 15, 20}, safety.Radius(1), []string{"tarjan", "ipi", "tarjan-path"}, family)
	scalingTable(t, "flappy S=6, policy steer, all start states", "W", []int{6, 12, 18, 24, 36, 48, 60, 72, 84, 96, 120, 144, 192, 384, 768}, safety.Inf, algos, flappy)
}

// unsafeRuns returns the shortest unsafe run of in's policy and up to
// extra random unsafe runs (random outcomes, seeds 1, 2, ...).
func unsafeRuns(t *testing.T, in *instance, extra int) [][]explicit.Step {
	res, err := explicit.Search(context.Background(), in.g, explicit.Options{Policy: in.dec, StopAtUnsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explicit.UnsafeVerdict {
		t.Fatalf("%s: the policy is %v, want unsafe", in.m.Name, res.Verdict)
	}
	runs := [][]explicit.Step{res.Trace}
	for seed := uint64(1); seed <= 50 && len(runs) < 1+extra; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		start, err := in.g.SampleStart(rng, 0)
		if err != nil {
			t.Fatal(err)
		}
		run, end, err := explicit.Simulate(in.g, start, explicit.SimOptions{Steps: 200, Rand: rng, Policy: in.dec})
		if err != nil {
			t.Fatal(err)
		}
		if end == explicit.EndUnsafe {
			runs = append(runs, run)
		}
	}
	return runs
}

// TestFaultFigures runs fault analysis on unsafe runs of every shipped
// spec with an unsafe policy, one decider per (model, algorithm, radius)
// shared across the model's runs; the deciders must agree with TarjanSafe
// on every run's faults and bugs.
func TestFaultFigures(t *testing.T) {
	figures(t)
	models := []struct {
		file, pol string
		defs      []string
	}{
		{"tarjansafe.spec", "hasty", nil},
		{"flappy.spec", "steer", []string{"S=4", "W=16"}},
		{"oneway_line.spec", "careful", nil},
		{"twoway_line.spec", "shuttle", nil},
		{"transport.spec", "greedy", nil},
		{"blocks.spec", "tower", nil},
		{"npuzzle.spec", "ring", nil},
	}
	configs := []struct {
		algo string
		r    safety.Radius
	}{{"tarjan", safety.Inf}, {"ipi", safety.Inf}, {"lrtdp", safety.Inf}, {"tarjan", 1}, {"ipi", 1}}
	fmt.Printf("\n### fault analysis\n\n| model | algorithm | radius | runs | avg length | ms/run | faults | bugs | decisions | cache hits |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, mod := range models {
		in := load(t, mod.file, mod.pol, mod.defs...)
		runs := unsafeRuns(t, in, 4)
		total := 0
		for _, r := range runs {
			total += len(r)
		}
		avg := float64(total) / float64(len(runs))
		name := strings.TrimSuffix(mod.file, ".spec")
		if len(mod.defs) > 0 {
			name += " " + strings.Join(mod.defs, " ")
		}
		want := map[safety.Radius][]string{} // per radius and run: tarjan's faults and bugs
		for _, c := range configs {
			sp := safety.NewSpace(in.g, in.dec)
			d, err := safety.New(c.algo, sp, c.r, safety.Options{Order: safety.OrderApp, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*figureTimeout)
			var faults, bugs, decisions, hits int
			t0 := time.Now()
			for i, steps := range runs {
				run, err := safety.RunStates(sp, steps)
				if err != nil {
					t.Fatalf("%s run %d: %v", name, i, err)
				}
				rep, err := safety.Faults(ctx, d, run)
				if err != nil {
					fmt.Printf("| %s | %s | %v | %d/%d | %.1f | %v after %.0f ms, %d expansions | | | | |\n", name, c.algo, c.r, i, len(runs), avg, err, ms(time.Since(t0)), d.Stats().Expanded)
					if !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("%s %s r=%v run %d: %v", name, c.algo, c.r, i, err)
					}
					faults = -1
					break
				}
				faults += len(rep.Faults)
				bugs += len(rep.Bugs)
				decisions += rep.Decisions
				hits += rep.CacheHits
				sig := fmt.Sprintf("faults %v bugs %v", faultSteps(rep), rep.Bugs)
				if w := want[c.r]; c.algo == "tarjan" {
					want[c.r] = append(w, sig)
				} else if i < len(w) && sig != w[i] {
					t.Errorf("%s run %d r=%v: %s finds %s, tarjan %s", name, i, c.r, c.algo, sig, w[i])
				}
			}
			cancel()
			if faults < 0 {
				continue
			}
			fmt.Printf("| %s | %s | %v | %d | %.1f | %.2f | %d | %d | %d | %d |\n", name, c.algo, c.r, len(runs), avg, ms(time.Since(t0))/float64(len(runs)), faults, bugs, decisions, hits)
		}
	}
}

func faultSteps(rep *safety.FaultReport) []int {
	var s []int
	for _, f := range rep.Faults {
		s = append(s, f.Step)
	}
	return s
}
