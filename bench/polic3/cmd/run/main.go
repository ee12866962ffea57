// Command run runs the PolIC3 benchmark suite: every (instance, policy) of
// policies.csv with every verification engine that `vigil verify --engine X`
// accepts among -engines, and prints paper 004's Table 1 (coverage and mean
// time per engine, per domain and policy size) and Table 3 (PolIC3's
// statistics per domain and policy size).
//
//	go run ./cmd/run [-engines bfs,polic3,polic3-nog,auto] [-j 2] [-timeout 600s] [-only NAMES] [-record]
//	go run ./cmd/run -check
//
// Engines that decide the same (instance, policy) must agree, and agree with
// the BFS answers recorded in instances.csv for the same model file (its
// hash is recorded too); a disagreement is reported on
// stderr and makes run exit with status 1 after the tables. -record writes
// instances.csv from this run's BFS answers. Every run's JSON answer is
// appended to -out (one line each) for later analysis.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type policyRow struct {
	Domain, Instance, Spec, Defines, Policy, Kind, Arch, Variant, File, Accuracy string
}

// modelHash returns a short hash of the policy's model file, so that BFS
// answers recorded for an earlier model are not held against a retrained one.
func (r policyRow) modelHash() string {
	b, err := os.ReadFile(r.File)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))[:16]
}

// answer is one engine's answer on one (instance, policy).
type answer struct {
	Domain   string          `json:"domain"`
	Instance string          `json:"instance"`
	Policy   string          `json:"policy"`
	Arch     string          `json:"arch"`
	Variant  string          `json:"variant"`
	Engine   string          `json:"engine"`
	Verdict  string          `json:"verdict"` // safe, unsafe, unknown, error
	Reason   string          `json:"reason,omitempty"`
	Seconds  float64         `json:"seconds"`      // the engine's own time, else wall clock
	Wall     float64         `json:"wall_seconds"` // including loading
	States   int             `json:"states,omitempty"`
	IC3      json.RawMessage `json:"ic3,omitempty"`
}

func (a *answer) decided() bool { return a.Verdict == "safe" || a.Verdict == "unsafe" }

func main() {
	enginesFlag := flag.String("engines", "bfs,polic3,polic3-nog,auto", "engines to run, those that vigil verify accepts (comma-separated; auto: BFS up to a million states, then PolIC3)")
	timeout := flag.Duration("timeout", 600*time.Second, "limit per run")
	maxStates := flag.Int("bfs-max-states", 50_000_000, "bfs: give up (unknown) after storing this many states")
	only := flag.String("only", "", "run only these domains, instances or policies (comma-separated)")
	vigil := flag.String("vigil", "", "the vigil binary (default: build ../../cmd/vigil into data/vigil)")
	record := flag.Bool("record", false, "write instances.csv (the suite with BFS's answers) from this run")
	checkOnly := flag.Bool("check", false, "only run vigil check --bounds on every instance (loads every policy file, proves that no outcome leaves a range)")
	outPath := flag.String("out", "data/results.jsonl", "append every answer to this file as a JSON line")
	dir := flag.String("dir", ".", "the suite's directory (bench/polic3)")
	jobs := flag.Int("j", 1, "run this many (instance, policy) pairs at once (each run is single-threaded; the limit is wall clock, so keep -j at most the number of idle cores)")
	report := flag.String("report", "", "run nothing: print the tables from the answers an earlier run appended to this file (the last answer of each selected pair and engine)")
	flag.Parse()
	if err := os.Chdir(*dir); err != nil {
		fatal(err)
	}
	rows, err := readPolicies("policies.csv")
	if err != nil {
		fatal(err)
	}
	rows = selectRows(rows, *only)
	if len(rows) == 0 {
		fatal(errors.New("no (instance, policy) selected"))
	}
	if *report != "" {
		engines := strings.Split(*enginesFlag, ",")
		got, err := readAnswers(*report, rows, engines)
		if err != nil {
			fatal(err)
		}
		recorded, _ := readRecorded("instances.csv")
		answers, disagree := collect(rows, got, recorded)
		printTables(os.Stdout, rows, engines, answers, *timeout)
		exitOnDisagreement(disagree)
		return
	}
	bin := *vigil
	if bin == "" {
		if bin, err = buildVigil(); err != nil {
			fatal(err)
		}
	}
	if *checkOnly {
		if err := checkInstances(bin, rows); err != nil {
			fatal(err)
		}
		return
	}
	recorded, _ := readRecorded("instances.csv") // absent before the first -record
	engines := acceptedEngines(bin, rows[0], strings.Split(*enginesFlag, ","))
	if len(engines) == 0 {
		fatal(fmt.Errorf("vigil verify accepts none of the engines %s", *enginesFlag))
	}
	if *record && !contains(engines, "bfs") {
		fatal(errors.New("-record needs the bfs engine"))
	}
	fmt.Fprintf(os.Stderr, "run: %d (instance, policy) pairs, engines %s, limit %s\n", len(rows), strings.Join(engines, ", "), *timeout)
	if err := os.MkdirAll(filepath.Dir(*outPath), 0o755); err != nil {
		fatal(err)
	}
	out, err := os.OpenFile(*outPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fatal(err)
	}
	defer out.Close()

	log2 := map[string]float64{}
	for _, r := range rows {
		key := r.Spec + " " + r.Defines
		if _, ok := log2[key]; !ok {
			log2[key], err = stateSpace(bin, r)
			if err != nil {
				fatal(err)
			}
		}
	}
	// Pairs run on -j workers; each pair's engines run one after the other.
	got := make([][]*answer, len(rows))
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, *jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := rows[i]
				for _, e := range engines {
					a := verify(bin, r, e, *timeout, *maxStates)
					line, _ := json.Marshal(a)
					mu.Lock()
					fmt.Fprintf(out, "%s\n", line)
					fmt.Fprintf(os.Stderr, "%-8s %-22s %-11s %-8s %8.2fs %s\n", r.Instance, r.Policy, e, a.Verdict, a.Seconds, a.Reason)
					mu.Unlock()
					got[i] = append(got[i], a)
				}
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	answers, disagree := collect(rows, got, recorded)
	if *record {
		if err := writeRecorded("instances.csv", rows, answers, log2, *timeout); err != nil {
			fatal(err)
		}
	}
	printTables(os.Stdout, rows, engines, answers, *timeout)
	exitOnDisagreement(disagree)
}

// collect lists the answers of every pair (got[i]: rows[i]'s) and counts
// the disagreements among them and with instances.csv.
func collect(rows []policyRow, got [][]*answer, recorded map[string]recordedRow) ([]*answer, int) {
	var answers []*answer
	disagree := 0
	for i, r := range rows {
		answers = append(answers, got[i]...)
		disagree += disagreements(r, got[i], recorded)
	}
	return answers, disagree
}

func exitOnDisagreement(n int) {
	if n > 0 {
		fmt.Fprintf(os.Stderr, "run: %d DISAGREEMENTS between engines: a verifier is wrong\n", n)
		os.Exit(1)
	}
}

// disagreements reports on stderr, and counts, the answers on r that
// disagree with each other or with the BFS answer instances.csv records
// for the same model file.
func disagreements(r policyRow, got []*answer, recorded map[string]recordedRow) int {
	disagree := 0
	var decided []*answer
	for _, a := range got {
		if a.decided() {
			decided = append(decided, a)
		}
	}
	for _, a := range decided[min(1, len(decided)):] {
		if a.Verdict != decided[0].Verdict {
			disagree++
			fmt.Fprintf(os.Stderr, "run: DISAGREEMENT on %s %s: %s says %s, %s says %s\n", r.Instance, r.Policy, decided[0].Engine, decided[0].Verdict, a.Engine, a.Verdict)
		}
	}
	if rec, ok := recorded[r.Policy]; ok && rec.hash == r.modelHash() && (rec.verdict == "safe" || rec.verdict == "unsafe") {
		for _, a := range decided {
			if a.Verdict != rec.verdict {
				disagree++
				fmt.Fprintf(os.Stderr, "run: DISAGREEMENT on %s %s: %s says %s, instances.csv records %s\n", r.Instance, r.Policy, a.Engine, a.Verdict, rec.verdict)
			}
		}
	}
	return disagree
}

// readAnswers reads the answers an earlier run appended to path, the last
// one of each (policy, engine) for the selected rows and engines, in the
// order of rows.
func readAnswers(path string, rows []policyRow, engines []string) ([][]*answer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	last := map[[2]string]*answer{}
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		a := new(answer)
		if err := json.Unmarshal(line, a); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		last[[2]string{a.Policy, a.Engine}] = a
	}
	got := make([][]*answer, len(rows))
	for i, r := range rows {
		for _, e := range engines {
			if a := last[[2]string{r.Policy, e}]; a != nil {
				got[i] = append(got[i], a)
			}
		}
	}
	return got, nil
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "run:", err)
	os.Exit(1)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			if i < len(rec) {
				m[h] = rec[i]
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func readPolicies(path string) ([]policyRow, error) {
	recs, err := readCSV(path)
	if err != nil {
		return nil, fmt.Errorf("%w (train the policies first: make -C bench/polic3 train)", err)
	}
	var rows []policyRow
	for _, m := range recs {
		rows = append(rows, policyRow{m["domain"], m["instance"], m["spec"], m["defines"], m["policy"], m["kind"], m["arch"], m["variant"], m["file"], m["accuracy"]})
	}
	return rows, nil
}

func selectRows(rows []policyRow, only string) []policyRow {
	if only == "" {
		return rows
	}
	names := strings.Split(only, ",")
	var out []policyRow
	for _, r := range rows {
		if contains(names, r.Domain) || contains(names, r.Instance) || contains(names, r.Policy) {
			out = append(out, r)
		}
	}
	return out
}

func buildVigil() (string, error) {
	if err := os.MkdirAll("data", 0o755); err != nil {
		return "", err
	}
	bin, err := filepath.Abs("data/vigil")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/vigil")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building vigil: %w", err)
	}
	return bin, nil
}

// acceptedEngines tries every engine on one small run: an engine that vigil
// verify rejects as a usage error (exit 2) does not exist yet.
func acceptedEngines(bin string, r policyRow, want []string) []string {
	var ok []string
	for _, e := range want {
		cmd := exec.Command(bin, verifyArgs(r, e, time.Second)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			fmt.Fprintf(os.Stderr, "run: vigil verify does not accept --engine %s; skipping it\n", e)
			continue
		}
		ok = append(ok, e)
	}
	return ok
}

func verifyArgs(r policyRow, engine string, timeout time.Duration) []string {
	args := []string{"verify", r.Spec}
	args = append(args, strings.Fields(r.Defines)...)
	return append(args, "--policy", r.Policy, "--engine", engine, "--timeout", timeout.String(), "--json")
}

func verify(bin string, r policyRow, engine string, timeout time.Duration, maxStates int) *answer {
	a := &answer{Domain: r.Domain, Instance: r.Instance, Policy: r.Policy, Arch: r.Arch, Variant: r.Variant, Engine: engine}
	args := verifyArgs(r, engine, timeout)
	if engine == "bfs" && maxStates > 0 {
		args = append(args, "--max-states", strconv.Itoa(maxStates))
	}
	// vigil stops itself at the limit; the context is a backstop.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	err := cmd.Run()
	a.Wall = time.Since(begin).Seconds()
	a.Seconds = a.Wall
	var rep struct {
		Verdict string          `json:"verdict"`
		Reason  string          `json:"reason"`
		Seconds float64         `json:"seconds"`
		States  int             `json:"states"`
		IC3     json.RawMessage `json:"ic3"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil || rep.Verdict == "" {
		a.Verdict = "error"
		if ctx.Err() != nil {
			a.Verdict, a.Reason = "unknown", "killed after the limit"
			return a
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		a.Reason = fmt.Sprintf("%v: %s", err, msg)
		return a
	}
	a.Verdict, a.Reason, a.States, a.IC3 = rep.Verdict, rep.Reason, rep.States, rep.IC3
	if rep.Seconds > 0 {
		a.Seconds = rep.Seconds
	}
	return a
}

// checkInstances runs vigil check --bounds on every instance once.
func checkInstances(bin string, rows []policyRow) error {
	seen := map[string]bool{}
	for _, r := range rows {
		key := r.Spec + " " + r.Defines
		if seen[key] {
			continue
		}
		seen[key] = true
		args := append(append([]string{"check", "--bounds"}, strings.Fields(r.Defines)...), r.Spec)
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		fmt.Printf("%s: ", r.Instance)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("vigil %s: %w", strings.Join(args, " "), err)
		}
	}
	return nil
}

// stateSpace returns log2 of the product of the variables' ranges.
func stateSpace(bin string, r policyRow) (float64, error) {
	args := append([]string{"check", "--json"}, strings.Fields(r.Defines)...)
	out, err := exec.Command(bin, append(args, r.Spec)...).Output()
	if err != nil {
		return 0, fmt.Errorf("vigil check %s %s: %w", r.Defines, r.Spec, err)
	}
	var rep []struct {
		Summary struct {
			Log2 float64 `json:"log2_states"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || len(rep) == 0 {
		return 0, fmt.Errorf("vigil check --json %s: cannot read its answer", r.Spec)
	}
	return rep[0].Summary.Log2, nil
}

type recordedRow struct {
	verdict, hash string
}

func readRecorded(path string) (map[string]recordedRow, error) {
	recs, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	out := map[string]recordedRow{}
	for _, m := range recs {
		out[m["policy"]] = recordedRow{m["bfs_verdict"], m["model_sha256"]}
	}
	return out, nil
}

func writeRecorded(path string, rows []policyRow, answers []*answer, log2 map[string]float64, limit time.Duration) error {
	bfs := map[string]*answer{}
	for _, a := range answers {
		if a.Engine == "bfs" {
			bfs[a.Policy] = a
		}
	}
	// keep the rows of policies this run did not touch
	keep := map[string][]string{}
	var header []string
	if f, err := os.Open(path); err == nil {
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err == nil && len(recs) > 0 {
			header = recs[0]
			for _, rec := range recs[1:] {
				for i, h := range header {
					if h == "policy" && i < len(rec) {
						keep[rec[i]] = rec
					}
				}
			}
		}
	}
	all, err := readPolicies("policies.csv")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"domain", "instance", "spec", "defines", "log2_states", "policy", "kind", "arch", "variant", "accuracy", "model_sha256", "bfs_verdict", "bfs_states", "bfs_seconds", "bfs_limit"})
	for _, r := range all {
		a := bfs[r.Policy]
		if a == nil {
			if rec, ok := keep[r.Policy]; ok && len(rec) == 15 {
				w.Write(rec)
			}
			continue
		}
		states := ""
		if a.decided() {
			states = strconv.Itoa(a.States)
		}
		w.Write([]string{r.Domain, r.Instance, r.Spec, r.Defines, fmt.Sprintf("%.1f", log2[r.Spec+" "+r.Defines]), r.Policy, r.Kind, r.Arch, r.Variant, r.Accuracy,
			r.modelHash(), a.Verdict, states, fmt.Sprintf("%.3f", a.Seconds), limit.String()})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// group is the key of a table row: domain and policy size.
type group struct{ domain, arch string }

func groups(rows []policyRow) []group {
	var gs []group
	seen := map[group]bool{}
	for _, r := range rows {
		g := group{r.Domain, r.Arch}
		if !seen[g] {
			seen[g] = true
			gs = append(gs, g)
		}
	}
	return gs
}

func printTables(w io.Writer, rows []policyRow, engines []string, answers []*answer, limit time.Duration) {
	by := map[group]map[string][]*answer{}
	for _, a := range answers {
		g := group{a.Domain, a.Arch}
		if by[g] == nil {
			by[g] = map[string][]*answer{}
		}
		by[g][a.Engine] = append(by[g][a.Engine], a)
	}
	fmt.Fprintf(w, "\nTable 1: coverage (solved of all) and mean time of the solved runs, limit %s\n\n", limit)
	fmt.Fprintf(w, "| domain | policy |")
	for _, e := range engines {
		fmt.Fprintf(w, " %s solved | %s mean s |", e, e)
	}
	fmt.Fprintf(w, "\n|---|---|")
	for range engines {
		fmt.Fprintf(w, "---:|---:|")
	}
	fmt.Fprintln(w)
	total := map[string][2]int{}
	for _, g := range groups(rows) {
		fmt.Fprintf(w, "| %s | %s |", g.domain, g.arch)
		for _, e := range engines {
			as := by[g][e]
			n, t := 0, 0.0
			for _, a := range as {
				if a.decided() {
					n++
					t += a.Seconds
				}
			}
			c := total[e]
			total[e] = [2]int{c[0] + n, c[1] + len(as)}
			fmt.Fprintf(w, " %d/%d | %s |", n, len(as), mean(t, n))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "| all | |")
	for _, e := range engines {
		fmt.Fprintf(w, " %d/%d | |", total[e][0], total[e][1])
	}
	fmt.Fprintln(w)

	for _, e := range engines {
		if !strings.HasPrefix(e, "polic3") && !strings.HasPrefix(e, "ic3") {
			continue
		}
		fmt.Fprintf(w, "\nTable 3: %s per domain and policy: solved, mean frames N at the end, mean time, share of reason generalization in the time\n\n", e)
		fmt.Fprintf(w, "| domain | policy | solved | safe | unsafe | mean N | mean s | generalization |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
		for _, g := range groups(rows) {
			var n, safe, unsafe, nN int
			var t, frames, gen float64
			for _, a := range by[g][e] {
				if !a.decided() {
					continue
				}
				n++
				if a.Verdict == "safe" {
					safe++
				} else {
					unsafe++
				}
				t += a.Seconds
				var st struct {
					Frames *float64 `json:"frames"`
					Gen    *float64 `json:"generalization_seconds"`
				}
				if json.Unmarshal(a.IC3, &st) == nil && st.Frames != nil {
					nN++
					frames += *st.Frames
					if st.Gen != nil && a.Seconds > 0 {
						gen += *st.Gen / a.Seconds
					}
				}
			}
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %s | %s | %s |\n", g.domain, g.arch, n, safe, unsafe, mean(frames, nN), mean(t, n), percent(gen, nN))
		}
	}

	printRatios(w, rows, engines, answers)

	fmt.Fprintf(w, "\nPer instance (verdict, time in s; - not run):\n\n| instance | policy |")
	for _, e := range engines {
		fmt.Fprintf(w, " %s |", e)
	}
	fmt.Fprintf(w, "\n|---|---|")
	for range engines {
		fmt.Fprintf(w, "---|")
	}
	fmt.Fprintln(w)
	idx := map[string]map[string]*answer{}
	for _, a := range answers {
		if idx[a.Policy] == nil {
			idx[a.Policy] = map[string]*answer{}
		}
		idx[a.Policy][a.Engine] = a
	}
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s |", r.Instance, strings.TrimPrefix(r.Policy, r.Instance+"_"))
		for _, e := range engines {
			a := idx[r.Policy][e]
			switch {
			case a == nil:
				fmt.Fprintf(w, " - |")
			case a.decided():
				fmt.Fprintf(w, " %s %.2f |", a.Verdict, a.Seconds)
			default:
				fmt.Fprintf(w, " %s |", a.Verdict)
			}
		}
		fmt.Fprintln(w)
	}
}

// printRatios compares every engine with bfs on the pairs both decide:
// the median ratio of the engines' own times (a bfs time under 1 ms
// counts as 1 ms) and of the whole processes' wall-clock times (loading
// the model and the policy included), and how many pairs are within 10x
// of bfs by the whole process. It also counts the pairs only one of the
// two decides.
func printRatios(w io.Writer, rows []policyRow, engines []string, answers []*answer) {
	if !contains(engines, "bfs") {
		return
	}
	idx := map[[2]string]*answer{}
	for _, a := range answers {
		idx[[2]string{a.Policy, a.Engine}] = a
	}
	fmt.Fprintf(w, "\nAgainst bfs: pairs both decide, median time ratios (engine time; whole process), within 10x of bfs by the whole process; pairs only one decides\n\n")
	fmt.Fprintf(w, "| engine | both decide | median engine-time ratio | median whole-process ratio | within 10x (whole process) | only this engine | only bfs |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, e := range engines {
		if e == "bfs" {
			continue
		}
		var eng, wall []float64
		within, onlyE, onlyB := 0, 0, 0
		for _, r := range rows {
			a, b := idx[[2]string{r.Policy, e}], idx[[2]string{r.Policy, "bfs"}]
			if a == nil || b == nil {
				continue
			}
			switch {
			case a.decided() && b.decided():
				eng = append(eng, a.Seconds/max(b.Seconds, 0.001))
				ratio := a.Wall / max(b.Wall, 0.001)
				wall = append(wall, ratio)
				if ratio <= 10 {
					within++
				}
			case a.decided():
				onlyE++
			case b.decided():
				onlyB++
			}
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %d | %d | %d |\n", e, len(eng), median(eng), median(wall), within, onlyE, onlyB)
	}
}

func median(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	m := ys[len(ys)/2]
	if len(ys)%2 == 0 {
		m = (ys[len(ys)/2-1] + m) / 2
	}
	return fmt.Sprintf("%.1f", m)
}

func mean(sum float64, n int) string {
	if n == 0 {
		return "-"
	}
	m := sum / float64(n)
	if m >= 100 {
		return fmt.Sprintf("%.0f", m)
	}
	return fmt.Sprintf("%.2f", m)
}

func percent(sum float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*sum/float64(n))
}
