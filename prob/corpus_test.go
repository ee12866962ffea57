package prob_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/prob"
	"vigil/symbolic/explicit"
)

// qvbsDir is where the QVBS corpus lives beside the repository.
const qvbsDir = "../../shared/corpus/jani/qvbs"

// qvbsRef is one published reference result of the Quantitative
// Verification Benchmark Set (qcomp.org, benchmarks/mdp/*/index.json,
// "Storm/exact" results): the value as a fraction, or a Boolean for P≥1.
type qvbsRef struct {
	file, property string
	defines        map[string]string
	num, den       string // the value num/den
	holds          string // "true"/"false" for a comparison
	stormStates    int
	// Storm's published figures (qcomp benchmarks/mdp/*/results,
	// Storm 1.2.4, 4x AMD Opteron 6172, 2018): the property's time with
	// --exact and without (default engine), whole-run time and memory
	// (MiB) with --exact.
	stormExact, stormDefault, stormRun float64
	stormMiB                           float64
}

var qvbsRefs = []qvbsRef{
	{file: "beb.3-4.jani", property: "LineSeized", defines: map[string]string{"N": "3"}, num: "7509", den: "8192", stormStates: 4660, stormExact: 0.015, stormDefault: -1, stormRun: 0.154, stormMiB: 46},
	{file: "beb.3-4.jani", property: "GaveUp", defines: map[string]string{"N": "3"}, num: "683", den: "8192", stormStates: 4660, stormExact: 0.012, stormDefault: -1, stormRun: 0.154, stormMiB: 46},
	{file: "cdrive.2.jani", property: "goal", num: "27560736", den: "31878125", stormStates: 38, stormExact: 0.003, stormDefault: -1, stormRun: 0.041, stormMiB: 45},
	{file: "consensus.2.jani", property: "c1", defines: map[string]string{"K": "2"}, holds: "true", stormStates: 272, stormExact: 0.0, stormDefault: 0.0, stormRun: 0.125, stormMiB: 46},
	{file: "consensus.2.jani", property: "c2", defines: map[string]string{"K": "2"}, num: "49", den: "128", stormStates: 272, stormExact: 0.016, stormDefault: 0.001, stormRun: 0.125, stormMiB: 46},
	{file: "consensus.2.jani", property: "disagree", defines: map[string]string{"K": "2"}, num: "13", den: "120", stormStates: 272, stormExact: 0.035, stormDefault: 0.0, stormRun: 0.125, stormMiB: 46},
	{file: "consensus.2.jani", property: "c1", defines: map[string]string{"K": "4"}, holds: "true", stormStates: 528, stormExact: 0.001, stormDefault: 0.0, stormRun: 0.273, stormMiB: 45},
	{file: "consensus.2.jani", property: "c2", defines: map[string]string{"K": "4"}, num: "1793", den: "4096", stormStates: 528, stormExact: 0.032, stormDefault: 0.004, stormRun: 0.273, stormMiB: 45},
	{file: "consensus.2.jani", property: "disagree", defines: map[string]string{"K": "4"}, num: "251", den: "4080", stormStates: 528, stormExact: 0.127, stormDefault: 0.003, stormRun: 0.273, stormMiB: 45},
	{file: "consensus.2.jani", property: "c1", defines: map[string]string{"K": "8"}, holds: "true", stormStates: 1040, stormExact: 0.002, stormDefault: 0.0, stormRun: 0.806, stormMiB: 49},
	{file: "consensus.2.jani", property: "c2", defines: map[string]string{"K": "8"}, num: "983041", den: "2097152", stormStates: 1040, stormExact: 0.061, stormDefault: 0.024, stormRun: 0.806, stormMiB: 49},
	{file: "consensus.2.jani", property: "disagree", defines: map[string]string{"K": "8"}, num: "65527", den: "2097120", stormStates: 1040, stormExact: 0.559, stormDefault: 0.022, stormRun: 0.806, stormMiB: 49},
	{file: "consensus.2.jani", property: "c1", defines: map[string]string{"K": "16"}, holds: "true", stormStates: 2064, stormExact: 0.004, stormDefault: 0.001, stormRun: 2.766, stormMiB: 54},
	{file: "consensus.2.jani", property: "c2", defines: map[string]string{"K": "16"}, num: "133143986177", den: "274877906944", stormStates: 2064, stormExact: 0.123, stormDefault: 0.154, stormRun: 2.766, stormMiB: 54},
	{file: "consensus.2.jani", property: "disagree", defines: map[string]string{"K": "16"}, num: "4294967279", den: "274877906880", stormStates: 2064, stormExact: 2.308, stormDefault: 0.155, stormRun: 2.766, stormMiB: 54},
	{file: "elevators.a-3-3.jani", property: "goal", num: "1", den: "1", stormStates: 909, stormExact: 0.004, stormDefault: -1, stormRun: 0.068, stormMiB: 45},
	{file: "ij.3.jani", property: "stable", num: "1", den: "1", stormStates: 7, stormExact: 0.0, stormDefault: -1, stormRun: 0.275, stormMiB: 45},
	{file: "tireworld.17.jani", property: "goal", num: "729", den: "3125", stormStates: 8670, stormExact: 1.425, stormDefault: -1, stormRun: 1.689, stormMiB: 52},
	{file: "triangle-tireworld.9.jani", property: "goal", num: "1", den: "1", stormStates: 80, stormExact: 0.0, stormDefault: -1, stormRun: 0.027, stormMiB: 46},
}

// qvbsRow is one measured line of FIGURES.md.
type qvbsRow struct {
	ref           qvbsRef
	method        prob.Method
	states        int
	value         float64
	exact         *big.Rat
	abs, rel      float64
	iters, rounds int
	bytes         int
	build, solve  time.Duration
	holds         string
	err           error
}

func runQVBS(t *testing.T, ref qvbsRef, method prob.Method) qvbsRow {
	row := qvbsRow{ref: ref, method: method}
	path := filepath.Join(qvbsDir, ref.file)
	m, diags := lang.LoadJANI(path, ref.defines)
	if diags.HasErrors() {
		row.err = fmt.Errorf("%s", diags.Render())
		return row
	}
	p := m.Property(ref.property)
	if p == nil { // a JANI name that is a .spec keyword got a trailing underscore
		p = m.Property(ref.property + "_")
	}
	if p == nil {
		row.err = fmt.Errorf("no property %s", ref.property)
		return row
	}
	ctx := context.Background()
	g, err := explicit.New(m, p)
	if err != nil {
		row.err = err
		return row
	}
	pm, err := prob.Build(ctx, g, prob.Options{Exact: method == prob.Exact})
	if err != nil {
		row.err = err
		return row
	}
	row.states, row.build = pm.NumStates(), pm.Elapsed
	q, err := prob.PropertyQuery(p)
	if err != nil {
		row.err = err
		return row
	}
	ans, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: method, MaxExact: 10000})
	if err != nil {
		row.err = err
		return row
	}
	row.solve, row.iters, row.rounds = ans.Result.Elapsed, ans.Result.Iterations, ans.Result.Rounds
	row.bytes = pm.Bytes()
	row.value = ans.Value
	row.exact = ans.Exact
	if ans.Holds != "" {
		row.holds = ans.Holds
	}
	if ref.num != "" {
		want, _ := new(big.Rat).SetString(ref.num + "/" + ref.den)
		wf, _ := want.Float64()
		row.abs = math.Abs(row.value - wf)
		row.rel = row.abs / math.Max(wf, 1e-300)
		if row.exact != nil && row.exact.Cmp(want) != 0 {
			row.err = fmt.Errorf("exact value %s, reference %s", row.exact.RatString(), want.RatString())
		}
	}
	return row
}

// qvbsChildEnv names the row a child process of TestQVBSFigures computes
// ("INDEX METHOD"): each row runs in a process of its own, so that its
// peak resident set size (getrusage's maxrss) is that row's alone, as
// Storm's published memory is one run's.
const qvbsChildEnv = "VIGIL_QVBS_ROW"

// qvbsChildRow is what the child prints: the row, the rationals as text.
type qvbsChildRow struct {
	States        int
	Value         float64
	Exact         string
	Abs, Rel      float64
	Iters, Rounds int
	Bytes         int
	Build, Solve  time.Duration
	Holds         string
	Err           string
}

// TestQVBSChild computes one row of TestQVBSFigures in a child process;
// it does nothing unless VIGIL_QVBS_ROW is set.
func TestQVBSChild(t *testing.T) {
	spec := os.Getenv(qvbsChildEnv)
	if spec == "" {
		t.Skip("a child of TestQVBSFigures")
	}
	var i int
	var method string
	if _, err := fmt.Sscan(spec, &i, &method); err != nil || i < 0 || i >= len(qvbsRefs) {
		t.Fatalf("%s=%q: want INDEX METHOD", qvbsChildEnv, spec)
	}
	row := runQVBS(t, qvbsRefs[i], prob.Method(method))
	out := qvbsChildRow{States: row.states, Value: row.value, Abs: row.abs, Rel: row.rel, Iters: row.iters, Rounds: row.rounds,
		Bytes: row.bytes, Build: row.build, Solve: row.solve, Holds: row.holds}
	if row.exact != nil {
		out.Exact = row.exact.RatString()
	}
	if row.err != nil {
		out.Err = row.err.Error()
	}
	b, _ := json.Marshal(out)
	fmt.Printf("QVBSROW %s\n", b)
}

// runQVBSChild runs row i with method in a child process and returns the
// row and the child's peak resident set size in bytes (-1 where the
// platform does not report it).
func runQVBSChild(t *testing.T, i int, method prob.Method) (qvbsRow, int64) {
	ref := qvbsRefs[i]
	row := qvbsRow{ref: ref, method: method}
	cmd := exec.Command(os.Args[0], "-test.run=^TestQVBSChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), qvbsChildEnv+"="+strconv.Itoa(i)+" "+string(method))
	text, err := cmd.CombinedOutput()
	if err != nil {
		row.err = fmt.Errorf("child: %v\n%s", err, text)
		return row, -1
	}
	var c qvbsChildRow
	for _, line := range strings.Split(string(text), "\n") {
		if rest, ok := strings.CutPrefix(line, "QVBSROW "); ok {
			if err := json.Unmarshal([]byte(rest), &c); err != nil {
				row.err = fmt.Errorf("child: %v", err)
				return row, -1
			}
		}
	}
	if c.States == 0 && c.Err == "" {
		row.err = fmt.Errorf("child printed no row:\n%s", text)
		return row, -1
	}
	row.states, row.value, row.abs, row.rel = c.States, c.Value, c.Abs, c.Rel
	row.iters, row.rounds, row.bytes, row.build, row.solve, row.holds = c.Iters, c.Rounds, c.Bytes, c.Build, c.Solve, c.Holds
	if c.Exact != "" {
		row.exact, _ = new(big.Rat).SetString(c.Exact)
	}
	if c.Err != "" {
		row.err = fmt.Errorf("%s", c.Err)
	}
	return row, maxRSS(cmd.ProcessState)
}

// TestQVBSFigures checks every QVBS model of the corpus against its
// published reference value (relative error at most 1e-6 with interval
// iteration, equality with the exact method) and prints the rows of
// FIGURES.md with -v. Each row runs in a child process (TestQVBSChild),
// whose peak RSS is the row's "peak RSS".
func TestQVBSFigures(t *testing.T) {
	if _, err := os.Stat(qvbsDir); err != nil {
		t.Skipf("QVBS corpus not found at %s: %v", qvbsDir, err)
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| model | parameters | property | states (Storm) | method | value | reference | abs. error | rel. error | iterations (rounds) | build | solve | model MiB | peak RSS MiB | Storm property time (--exact / default) | Storm run, MiB (--exact) |")
	fmt.Fprintln(&b, "|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, ref := range qvbsRefs {
		for _, method := range []prob.Method{prob.II, prob.Exact} {
			row, rss := runQVBSChild(t, i, method)
			if row.err != nil {
				t.Errorf("%s %v %s (%s): %v", ref.file, ref.defines, ref.property, method, row.err)
				continue
			}
			refText := ref.num + "/" + ref.den
			val := fmt.Sprintf("%.12g", row.value)
			if row.exact != nil {
				val = row.exact.RatString()
			}
			if ref.holds != "" {
				refText = ref.holds
				val += " (" + row.holds + ")"
				if row.holds != ref.holds {
					t.Errorf("%s %v %s (%s): %s, reference %s", ref.file, ref.defines, ref.property, method, row.holds, ref.holds)
				}
			} else if row.rel > 1e-6 {
				t.Errorf("%s %v %s (%s): value %.12g, relative error %.3g > 1e-6", ref.file, ref.defines, ref.property, method, row.value, row.rel)
			}
			if row.states != ref.stormStates {
				t.Logf("%s %v: %d states, Storm %d", ref.file, ref.defines, row.states, ref.stormStates)
			}
			stormDef := "-"
			if ref.stormDefault >= 0 {
				stormDef = fmt.Sprintf("%.3fs", ref.stormDefault)
			}
			rssText := "-"
			if rss >= 0 {
				rssText = fmt.Sprintf("%.0f", float64(rss)/(1<<20))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d (%d) | %s | %s | %s | %.2g | %.2g | %d (%d) | %.3fs | %.3fs | %.2f | %s | %.3fs / %s | %.3fs, %.0f |\n",
				ref.file, params(ref.defines), ref.property, row.states, ref.stormStates, method, val, refText, row.abs, row.rel, row.iters, row.rounds,
				row.build.Seconds(), row.solve.Seconds(), float64(row.bytes)/(1<<20), rssText, ref.stormExact, stormDef, ref.stormRun, ref.stormMiB)
		}
	}
	t.Log("\n" + b.String())
}

func params(d map[string]string) string {
	var ps []string
	for k, v := range d {
		ps = append(ps, k+"="+v)
	}
	if len(ps) == 0 {
		return "-"
	}
	return strings.Join(ps, " ")
}
