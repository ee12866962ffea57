// Command run is a thin wrapper around vigil batch for the PolIC3 suite:
// the experiments are bench/polic3-*.toml, and vigil batch runs them,
// checks that the engines agree and reports paper 004's tables. run adds
// the two chores of the suite that are not experiments:
//
//	go run ./cmd/run [-exp ../polic3-tables.toml] [-j 2] [-only REGEXP]   # vigil batch run, then vigil batch report
//	go run ./cmd/run -check     # vigil check --bounds on every instance of the experiment (loads every policy)
//	go run ./cmd/run -record    # instances.csv from the BFS runs of ../polic3-record.toml
//
// It builds ../../cmd/vigil into data/vigil unless -vigil names a binary.
package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"vigil/batch"
)

func main() {
	exp := flag.String("exp", "../polic3-tables.toml", "the experiment (relative to this directory)")
	jobs := flag.Int("j", 1, "runs at once (keep it at most the idle cores)")
	only := flag.String("only", "", "run only the runs whose id (ALGORITHM/DOMAIN/PROBLEM) matches this regular expression")
	vigil := flag.String("vigil", "", "the vigil binary (default: build ../../cmd/vigil into data/vigil)")
	check := flag.Bool("check", false, "only run vigil check --bounds on every instance of the experiment")
	record := flag.Bool("record", false, "write instances.csv from the BFS runs of -exp (default then ../polic3-record.toml), running those not finished first")
	dir := flag.String("dir", ".", "the suite's directory (bench/polic3)")
	flag.Parse()
	if err := os.Chdir(*dir); err != nil {
		fatal(err)
	}
	if *record && *exp == "../polic3-tables.toml" {
		*exp = "../polic3-record.toml"
	}
	bin := *vigil
	if bin == "" {
		var err error
		if bin, err = buildVigil(); err != nil {
			fatal(err)
		}
	}
	x, err := batch.Load(*exp)
	if err != nil {
		fatal(err)
	}
	switch {
	case *check:
		fatal(checkInstances(bin, x))
	case *record:
		if err := vigilRun(bin, "batch", "run", "-j", strconv.Itoa(*jobs), *exp); err != nil {
			fatal(err)
		}
		fatal(writeRecorded(bin, x, "policies.csv", "instances.csv"))
	}
	args := []string{"batch", "run", "-j", strconv.Itoa(*jobs)}
	if *only != "" {
		args = append(args, "--only", *only)
	}
	if err := vigilRun(bin, append(args, *exp)...); err != nil {
		fatal(err)
	}
	// The report's exit status 3 is a disagreement between engines.
	fatal(vigilRun(bin, "batch", "report", *exp))
}

// fatal exits with err's message (nothing, exit 0, for nil); a vigil that
// failed passes its exit status on.
func fatal(err error) {
	if err == nil {
		os.Exit(0)
	}
	fmt.Fprintln(os.Stderr, "run:", err)
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() > 0 {
		os.Exit(ee.ExitCode())
	}
	os.Exit(1)
}

func vigilRun(bin string, args ...string) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("vigil %s: %w", strings.Join(args, " "), err)
	}
	return nil
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

// instanceArgs are the arguments of a run between its model and its
// policy: the model file and its -D values, relative to the experiment's
// directory.
func instanceArgs(r *batch.Run) (model string, defines []string) {
	for i := 1; i < len(r.Args); i++ {
		switch {
		case i == 1:
			model = r.Args[i]
		case r.Args[i] == "-D" && i+1 < len(r.Args):
			defines = append(defines, "-D", r.Args[i+1])
			i++
		}
	}
	return model, defines
}

// checkInstances runs vigil check --bounds once on every instance (model
// and -D values) of the experiment.
func checkInstances(bin string, x *batch.Experiment) error {
	seen := map[string]bool{}
	for _, r := range x.Runs {
		model, defs := instanceArgs(r)
		key := model + " " + strings.Join(defs, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		args := append(append([]string{"check", "--bounds"}, defs...), model)
		cmd := exec.Command(bin, args...)
		cmd.Dir = x.Dir
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		fmt.Printf("%s %s: ", r.Domain, strings.Join(defs, " "))
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("vigil %s: %w", strings.Join(args, " "), err)
		}
	}
	return nil
}

// writeRecorded writes instances.csv: every (instance, policy) of
// policies.csv with BFS's answer from the experiment's bfs runs.
func writeRecorded(bin string, x *batch.Experiment, policiesFile, out string) error {
	rows, err := readCSV(policiesFile)
	if err != nil {
		return fmt.Errorf("%w (train the policies first: make -C bench/polic3 train)", err)
	}
	runs := map[string]*batch.Run{}
	for _, r := range x.Runs {
		if r.Algorithm == "bfs" {
			runs[r.Domain+"/"+r.Problem] = r
		}
	}
	log2 := map[string]string{}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"domain", "instance", "spec", "defines", "log2_states", "policy", "kind", "arch", "variant", "accuracy", "model_sha256", "bfs_verdict", "bfs_states", "bfs_seconds", "bfs_limit"})
	missing := 0
	for _, m := range rows {
		r := runs[m["domain"]+"/"+m["instance"]+"-"+m["policy"]]
		if r == nil {
			return fmt.Errorf("%s: policy %s of %s has no bfs run in %s: rewrite the experiment from policies.csv", policiesFile, m["policy"], m["instance"], x.File)
		}
		p, err := x.Properties(r)
		if err != nil {
			return err
		}
		if p == nil {
			missing++
			continue
		}
		key := m["spec"] + " " + m["defines"]
		if _, ok := log2[key]; !ok {
			if log2[key], err = stateSpace(bin, m["spec"], m["defines"]); err != nil {
				return err
			}
		}
		verdict, _ := p["verdict"].(string)
		if c, _ := p["coverage"].(float64); c != 1 {
			verdict = "unknown"
		}
		states := ""
		if s, ok := p["states"].(float64); ok && verdict != "unknown" {
			states = strconv.FormatFloat(s, 'f', -1, 64)
		}
		secs, ok := p["seconds"].(float64)
		if !ok {
			secs, _ = p["time"].(float64)
		}
		w.Write([]string{m["domain"], m["instance"], m["spec"], m["defines"], log2[key], m["policy"], m["kind"], m["arch"], m["variant"], m["accuracy"],
			fileHash(m["file"]), verdict, states, fmt.Sprintf("%.3f", secs), x.Limits.CPU.String()})
	}
	if missing > 0 {
		return fmt.Errorf("%d runs of %s are not finished: vigil batch run %s first", missing, x.Name, x.File)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// fileHash is a short hash of a policy's model file, so that a recorded
// answer can be told from one for a retrained policy.
func fileHash(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))[:16]
}

// stateSpace is log2 of the product of the variables' ranges.
func stateSpace(bin, spec, defines string) (string, error) {
	args := append(append([]string{"check", "--json"}, strings.Fields(defines)...), spec)
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		return "", fmt.Errorf("vigil %s: %w", strings.Join(args, " "), err)
	}
	var rep []struct {
		Summary struct {
			Log2 float64 `json:"log2_states"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || len(rep) == 0 {
		return "", fmt.Errorf("vigil check --json %s: cannot read its answer", spec)
	}
	return fmt.Sprintf("%.1f", rep[0].Summary.Log2), nil
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
