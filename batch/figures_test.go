package batch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestFigures measures batch/FIGURES.md: the overhead of a batch run over
// running the same vigil command by hand, and the throughput of tiny runs
// at -j 1, 2 and the number of cores. It builds cmd/vigil, so it runs only
// when asked:
//
//	VIGIL_BATCH_FIGURES=1 go test ./batch -run Figures -v -timeout 30m
//
// VIGIL_BATCH_FIGURES_N sets the number of runs (default 1000).
func TestFigures(t *testing.T) {
	if os.Getenv("VIGIL_BATCH_FIGURES") == "" {
		t.Skip("set VIGIL_BATCH_FIGURES=1 to measure batch/FIGURES.md (builds vigil, takes minutes)")
	}
	n := 1000
	if s := os.Getenv("VIGIL_BATCH_FIGURES_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	dir := t.TempDir()
	vigil := filepath.Join(dir, "vigil")
	if out, err := exec.Command("go", "build", "-o", vigil, "../cmd/vigil").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	spec, _ := filepath.Abs("../specs/tarjansafe.spec")
	os.WriteFile(filepath.Join(dir, "t.spec"), must(os.ReadFile(spec)), 0o644)
	args := []string{"verify", "t.spec", "--policy", "hasty", "--engine", "bfs", "--json"}

	// By hand: the same command, one after the other, output to files.
	byHand := func(prog string, pre []string, k int) time.Duration {
		begin := time.Now()
		for i := 0; i < k; i++ {
			out, _ := os.Create(filepath.Join(dir, "out"))
			cmd := exec.Command(prog, append(pre, args...)...)
			cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
			if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 3 {
				t.Fatal(err)
			}
			out.Close()
		}
		return time.Since(begin) / time.Duration(k)
	}
	// The machine is shared: the baseline is measured before and after the
	// batches, and averaged.
	k := min(n, 200)
	before := byHand(vigil, nil, k)

	exp := func(name string) string {
		path := filepath.Join(dir, name+".toml")
		src := fmt.Sprintf(`name = %q
repetitions = %d
[limits]
time = "20s"
memory = "1GiB"
[[algorithms]]
name = "bfs"
args = ["verify", "{model}", "--policy", "hasty", "--engine", "bfs", "--json"]
[[instances]]
models = ["t.spec"]
`, name, n)
		os.WriteFile(path, []byte(src), 0o644)
		return path
	}
	batchRun := func(name string, jobs int) time.Duration {
		path := exp(name)
		begin := time.Now()
		out, err := exec.Command(vigil, "batch", "run", path, "-j", fmt.Sprint(jobs)).CombinedOutput()
		if err != nil {
			t.Fatalf("batch run: %v\n%s", err, out)
		}
		return time.Since(begin)
	}
	j1 := batchRun("j1", 1)
	j2 := batchRun("j2", 2)
	cores := runtime.NumCPU()
	jc := j2
	if cores != 2 {
		jc = batchRun("jc", cores)
	}
	after := byHand(vigil, nil, k)
	// The batch's own work per run, from the same batch: its time minus the
	// runs' wall-clock times (fork and exec included in the latter).
	x, err := Load(filepath.Join(dir, "j1.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var inRuns float64
	for _, r := range x.Runs {
		p, err := x.Properties(r)
		if err != nil || p == nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		w, _ := num(p["wall_time"])
		inRuns += w
	}
	bookkeeping := time.Duration((j1.Seconds() - inRuns) / float64(n) * 1e9)
	hand := (before + after) / 2
	perRun := j1 / time.Duration(n)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
	fmt.Printf("\n| what | ms per run |\n|---|---:|\n")
	fmt.Printf("| the command by hand (%d runs before the batches, %d after: %s, %s) | %s |\n", k, k, ms(before), ms(after), ms(hand))
	fmt.Printf("| the same in `vigil batch run -j 1` (%d runs, whole batch / runs) | %s |\n", n, ms(perRun))
	fmt.Printf("| overhead of the batch per run (batch / runs - by hand) | %s (x%.2f) |\n", ms(perRun-hand), float64(perRun)/float64(hand))
	fmt.Printf("| the batch's own work per run (batch time - the runs' wall times, / runs) | %s |\n\n", ms(bookkeeping))
	fmt.Printf("| -j | %d runs, s | runs/s | speed-up over -j 1 |\n|---:|---:|---:|---:|\n", n)
	row := func(j int, d time.Duration) {
		fmt.Printf("| %d | %.1f | %.0f | %.2f |\n", j, d.Seconds(), float64(n)/d.Seconds(), j1.Seconds()/d.Seconds())
	}
	row(1, j1)
	row(2, j2)
	if cores != 2 {
		row(cores, jc)
	}
	fmt.Printf("\n(cores: %d)\n", cores)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
