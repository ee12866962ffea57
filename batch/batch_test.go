package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// In these tests the test binary stands in for vigil: with
// VIGIL_BATCH_HELPER=1 it runs helper instead of the tests, so that runs
// are tiny commands whose behaviour the test chooses (print a verdict,
// sleep, spin, allocate, exit with a code), and so that a batch can run in
// a process of its own that the test kills.
func TestMain(m *testing.M) {
	if os.Getenv("VIGIL_BATCH_HELPER") == "1" {
		os.Exit(helper(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func self() string {
	p, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return p
}

func helper(args []string) int {
	if len(args) == 0 {
		return 2
	}
	verdict := func(extra string) int {
		fmt.Printf("{\"verdict\": \"safe\", \"seconds\": 0.001, \"stats\": {\"arg\": %q}}\n", extra)
		return 0
	}
	switch args[0] {
	case "batch":
		switch args[1] {
		case "run": // batch run EXP JOBS [TASK TASKS]
			x, err := Load(args[2])
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			o := Options{Self: self(), Log: os.Stderr}
			o.Jobs, _ = strconv.Atoi(args[3])
			if len(args) > 5 {
				o.Task, _ = strconv.Atoi(args[4])
				o.Tasks, _ = strconv.Atoi(args[5])
			}
			s, err := x.Execute(context.Background(), o)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Printf("%d/%d\n", s.Done, s.Total)
			if s.Done < s.Total {
				return 1
			}
			return 0
		}
	case "echo":
		return verdict(strings.Join(args[1:], " "))
	case "sleep":
		d, _ := time.ParseDuration(args[1])
		time.Sleep(d)
		return verdict(args[1])
	case "spin":
		for x := 0; ; x++ {
			if x == -1 {
				break
			}
		}
		return 0
	case "alloc": // allocate and touch this many MiB, then answer
		n, _ := strconv.Atoi(args[1])
		// Goroutines make the runtime's fatal error long (every stack is
		// printed after the message), as in a real vigil run.
		for i := 0; i < 300; i++ {
			go time.Sleep(time.Hour)
		}
		var keep [][]byte
		for i := 0; i < n; i++ {
			b := make([]byte, 1<<20)
			for j := range b {
				b[j] = byte(j)
			}
			keep = append(keep, b)
		}
		return verdict(strconv.Itoa(len(keep)))
	case "exit":
		c, _ := strconv.Atoi(args[1])
		fmt.Println(`{"verdict": "unknown", "reason": "limit"}`)
		return c
	}
	return 2
}

// experiment writes an experiment file with the given algorithms and n
// model files into a fresh directory and loads it.
func experiment(t *testing.T, n int, limits string, algos ...string) *Experiment {
	t.Helper()
	t.Setenv("VIGIL_BATCH_HELPER", "1")
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%03d.spec", i)), nil, 0o644)
	}
	src := "name = \"test\"\n" + limits + "\n"
	for i, a := range algos {
		var quoted []string
		for _, f := range strings.Fields(a) {
			quoted = append(quoted, strconv.Quote(f))
		}
		src += fmt.Sprintf("[[algorithms]]\nname = \"a%d\"\nargs = [%s]\n", i, strings.Join(quoted, ", "))
	}
	src += "[[instances]]\ndomain = \"d\"\nmodels = [\"m*.spec\"]\n"
	path := filepath.Join(dir, "exp.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func props(t *testing.T, x *Experiment, r *Run) map[string]any {
	t.Helper()
	p, err := x.Properties(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExecuteAndResume(t *testing.T) {
	x := experiment(t, 3, "[limits]\ntime = \"10s\"", "echo {model}", "echo {problem} again")
	s, err := x.Execute(context.Background(), Options{Jobs: 2, Self: self()})
	if err != nil {
		t.Fatal(err)
	}
	if s.Done != 6 || s.Total != 6 || s.Failed != 0 || s.Errors["success"] != 6 {
		t.Fatalf("summary %+v", s)
	}
	p := props(t, x, x.Runs[0])
	if p["error"] != "success" || p["coverage"] != 1.0 || p["stats_arg"] != "m000.spec" || p["verdict"] != "safe" {
		t.Errorf("properties %v", p)
	}
	if id := p["id"].([]any); len(id) != 3 || id[0] != "a0" || id[1] != "d" || id[2] != "m000" {
		t.Errorf("id %v", id)
	}
	s, err = x.Execute(context.Background(), Options{Jobs: 2, Self: self()})
	if err != nil || s.Skipped != 6 || s.Done != 6 {
		t.Fatalf("rerun: %+v %v", s, err)
	}
}

// TestOutcomes: each way a run can end gets its error attribute, and the
// batch goes on after a run that hit a limit.
func TestOutcomes(t *testing.T) {
	x := experiment(t, 1, "[limits]\ntime = \"1s\"\nwall = \"3s\"\nmemory = \"256MiB\"",
		"echo ok", "exit 4", "exit 1", "exit 2", "sleep 10s", "spin", "alloc 600", "alloc 16")
	s, err := x.Execute(context.Background(), Options{Jobs: 2, Self: self()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range x.Runs {
		p := props(t, x, r)
		_, unexplained := p["unexplained_errors"]
		if unexplained != failure(p["error"].(string)) {
			t.Errorf("%s: error %v, unexplained_errors %v", r.ID, p["error"], p["unexplained_errors"])
		}
	}
	want := map[string]string{
		"a0": "success", "a1": "unknown", "a2": "input-error", "a3": "usage-error",
		"a4": "timeout", "a5": "timeout", "a6": "out-of-memory", "a7": "success",
	}
	for _, r := range x.Runs {
		p := props(t, x, r)
		if p["error"] != want[r.Algorithm] {
			stderr, _ := os.ReadFile(filepath.Join(x.RunDir(r), "stderr"))
			t.Errorf("%s (%v): error %v, want %s; stderr:\n%.400s", r.ID, r.Args, p["error"], want[r.Algorithm], stderr)
		}
	}
	if s.Done != len(want) {
		t.Errorf("done %d of %d", s.Done, len(want))
	}
}

// fullDisk creates files that fail like a full disk once some bytes are
// written, for the properties files only.
func fullDisk(name string) (File, error) {
	f, err := os.Create(name)
	if err != nil || !strings.Contains(name, propertiesFile+".tmp") {
		return f, err
	}
	return &failing{f: f, left: 20}, nil
}

type failing struct {
	f    *os.File
	left int
}

func (w *failing) Write(b []byte) (int, error) {
	if len(b) > w.left {
		n, _ := w.f.Write(b[:w.left])
		w.left = 0
		return n, syscall.ENOSPC
	}
	w.left -= len(b)
	return w.f.Write(b)
}
func (w *failing) Sync() error  { return w.f.Sync() }
func (w *failing) Close() error { return w.f.Close() }

func TestDiskFull(t *testing.T) {
	x := experiment(t, 2, "", "echo {model}")
	var log strings.Builder
	s, err := x.Execute(context.Background(), Options{Self: self(), Create: fullDisk, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if s.Failed != 2 || s.Errors["not-recorded"] != 2 || s.Done != 0 {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(log.String(), "no space left on device") {
		t.Errorf("log %q", log.String())
	}
	for _, r := range x.Runs {
		ents, _ := os.ReadDir(x.RunDir(r))
		for _, e := range ents {
			if strings.Contains(e.Name(), propertiesFile) {
				t.Errorf("%s: %s left behind after a full disk", r.ID, e.Name())
			}
		}
	}
	s, err = x.Execute(context.Background(), Options{Self: self()})
	if err != nil || s.Done != 2 || s.Skipped != 0 {
		t.Fatalf("after the disk has room: %+v %v", s, err)
	}
}

func TestRefuseOtherExperiment(t *testing.T) {
	x := experiment(t, 1, "", "echo")
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err != nil {
		t.Fatal(err)
	}
	x.Name = "other"
	_, err := x.Execute(context.Background(), Options{Self: self()})
	if err == nil || !strings.Contains(err.Error(), `written by experiment "test"`) {
		t.Fatalf("got %v", err)
	}
	if _, err := x.Status(); err == nil {
		t.Fatal("status accepted another experiment's directory")
	}
}

func TestStaleCommandRefused(t *testing.T) {
	x := experiment(t, 1, "", "echo one")
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err != nil {
		t.Fatal(err)
	}
	x.Runs[0].Args = []string{"echo", "two"}
	_, err := x.Execute(context.Background(), Options{Self: self()})
	if err == nil || !strings.Contains(err.Error(), "another command") {
		t.Fatalf("got %v", err)
	}
	st, err := x.Status()
	if err != nil || len(st.Stale) != 1 {
		t.Fatalf("status %+v %v", st, err)
	}
}

func TestShareCoversEveryRunOnce(t *testing.T) {
	x := experiment(t, 23, "", "echo", "echo x")
	seen := map[string]int{}
	for task := 1; task <= 5; task++ {
		for _, r := range x.Share(task, 5) {
			seen[r.ID]++
		}
	}
	if len(seen) != len(x.Runs) {
		t.Fatalf("%d of %d runs in some share", len(seen), len(x.Runs))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shares", id, n)
		}
	}
}

// TestKill9 kills a batch process with SIGKILL at random moments, several
// times, then lets it finish: every run's result must be there exactly
// once, complete, and made by its own command.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kills batch processes for a few seconds")
	}
	const n = 60
	x := experiment(t, n, "[limits]\ntime = \"10s\"", "sleep 100ms")
	start := func() *exec.Cmd {
		cmd := exec.Command(self(), "batch", "run", x.File, "2")
		cmd.Env = append(os.Environ(), "VIGIL_BATCH_HELPER=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	rng := uint64(time.Now().UnixNano())
	for i := 0; i < 5; i++ {
		cmd := start()
		rng = rng*6364136223846793005 + 1442695040888963407
		time.Sleep(time.Duration(50+rng>>33%250) * time.Millisecond) // 60 runs take 3 s or more
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	st, err := x.Status()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after 5 kills: %d of %d runs finished", st.Finished, st.Total)
	if st.Finished == st.Total {
		t.Fatal("every run finished before the kills: the kills tested nothing")
	}
	out, err := exec.Command(self(), "batch", "run", x.File, "2").CombinedOutput()
	if err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	for _, r := range x.Runs {
		dir := x.RunDir(r)
		b, err := os.ReadFile(filepath.Join(dir, propertiesFile))
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		var p map[string]any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Errorf("%s: corrupt properties: %v", r.ID, err)
			continue
		}
		if p["error"] != "success" || p["problem"] != r.Problem || p["stats_arg"] != "100ms" {
			t.Errorf("%s: properties %v", r.ID, p)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp") {
				t.Errorf("%s: %s left behind", r.ID, e.Name())
			}
		}
	}
	rep, err := x.Fetch(ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != n || rep.Missing != 0 {
		t.Errorf("report has %d runs, %d missing; want %d, 0", len(rep.Runs), rep.Missing, n)
	}
}

func TestRerunOutcomes(t *testing.T) {
	x := experiment(t, 2, "", "exit 4", "echo")
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err != nil {
		t.Fatal(err)
	}
	s, err := x.Execute(context.Background(), Options{Self: self(), Rerun: []string{"unknown"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Skipped != 2 || s.Done != 4 || s.Errors["unknown"] != 2 || s.Errors["success"] != 2 {
		t.Errorf("summary %+v: want the 2 unknown runs rerun, the 2 successes skipped", s)
	}
}

func syscallFlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// Two batch processes on one experiment share the work through the runs'
// locks: every run is recorded once, by one of them.
func TestConcurrentBatches(t *testing.T) {
	x := experiment(t, 20, "", "sleep 50ms")
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(self(), "batch", "run", x.File, "2")
		cmd.Env = append(os.Environ(), "VIGIL_BATCH_HELPER=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		c.Wait() // one may end before the other's last runs are recorded
	}
	st, err := x.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Finished != 20 || st.Errors["success"] != 20 {
		t.Errorf("status %+v", st)
	}
}

// A run whose lock another process holds is left to it and counted as
// busy (vigil batch run said "interrupted" of it, with no signal); the
// others run.
func TestBusyRunCounted(t *testing.T) {
	x := experiment(t, 3, "", "echo {model}")
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	dir := x.RunDir(x.Runs[1])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscallFlock(f); err != nil {
		t.Fatal(err)
	}
	s, err := x.Execute(context.Background(), Options{Self: self()})
	if err != nil {
		t.Fatal(err)
	}
	if s.Busy != 1 || s.Done != 2 || s.Interrupted || s.Failed != 0 {
		t.Errorf("summary %+v: want 2 runs done and 1 busy, not interrupted", s)
	}
	if r := x.RunReport(s); r.Busy != 1 {
		t.Errorf("report %+v: want busy 1", r)
	}
}

// TestRunPathsStayInside: a run directory, or a file in it, that is a
// symbolic link leading out of the data directory is refused before
// anything is written, and nothing appears outside; a link that stays
// inside is followed.
func TestRunPathsStayInside(t *testing.T) {
	for _, c := range []struct {
		name, link, target string // link below DATA/runs; target relative to the test's outside directory, or "@DATA/..." inside
		refused            bool
	}{
		{"run directory", "a0/d/m000", "", true},
		{"algorithm directory", "a0", "", true},
		{"stdout file", "a0/d/m000/stdout", "stdout", true},
		{"lock file", "a0/d/m000/lock", "lock", true},
		{"dangling link", "a0/d/m000/command", "missing/command", true},
		{"link inside", "a0/d", "@DATA/elsewhere", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := experiment(t, 1, "", "echo {model}")
			outside := t.TempDir()
			if !c.refused {
				if err := x.openData(true, nil); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(x.Data, "runs", filepath.FromSlash(c.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(outside, c.target)
			if strings.HasPrefix(c.target, "@DATA/") {
				target = filepath.Join(x.Data, strings.TrimPrefix(c.target, "@DATA/"))
				os.MkdirAll(target, 0o755)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			s, err := x.Execute(context.Background(), Options{Self: self()})
			if !c.refused {
				if err != nil || s.Done != 1 {
					t.Fatalf("a link inside the data directory: %+v %v", s, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "outside the data directory") && !strings.Contains(err.Error(), "cannot be resolved") {
				t.Fatalf("got %+v, %v; want a refusal", s, err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) > 0 {
				t.Errorf("the batch wrote %s outside the data directory", ents[0].Name())
			}
			if _, err := os.Stat(filepath.Join(x.Data, identityFile)); err == nil {
				t.Errorf("a refused batch wrote %s", identityFile)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	x := &Experiment{Data: filepath.Join(t.TempDir(), "data")}
	for p, ok := range map[string]bool{
		filepath.Join(x.Data, "runs", "a", "b"):        true,
		filepath.Join(x.Data, "runs", "..", "x"):       true,
		filepath.Join(x.Data, "runs", "..", "..", "x"): false,
		filepath.Join(x.Data, ".."):                    false,
		x.Data:                                         true, // its identity file is written there
		"/etc/passwd":                                  false,
		filepath.Join(x.Data+"2", "runs"):              false,
	} {
		if err := x.Within(p); (err == nil) != ok {
			t.Errorf("Within(%s) = %v, want ok=%v", p, err, ok)
		}
	}
}

// A failed run's message is its first stderr line that is not a progress
// line of vigil's.
func TestFirstLineSkipsProgress(t *testing.T) {
	got := firstLine([]byte("\n[10s] verify (bfs): 5 states\n[1m0s] verify (bfs): 9 states\nvigil verify: bad input\n"))
	if got != "vigil verify: bad input" {
		t.Errorf("got %q", got)
	}
}

// A peer tool (program) runs after its preparation step; its last line
// is its verdict through verdicts, and every other ending has its
// outcome.
func TestProgramRuns(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Setenv("VIGIL_BATCH_HELPER", "1")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
	algo := func(name, prepare, script string) string {
		s := fmt.Sprintf("[[algorithms]]\nname = %q\nprogram = \"sh\"\nargs = [\"-c\", %q]\nverdicts = { sat = \"safe\", unsat = \"unsafe\" }\n", name, script)
		if prepare != "" {
			s += fmt.Sprintf("prepare = [%s]\n", prepare)
		}
		return s
	}
	src := "name = \"peer\"\n[limits]\ntime = \"10s\"\n" +
		algo("sat", `"echo", "{model}"`, "echo start; echo sat") +
		algo("unsat", "", "echo unsat") +
		algo("unknown", "", "echo unknown") +
		algo("error", "", "echo '(error \"line 3: bad\")'; exit 1") +
		algo("prepfail", `"exit", "1"`, "echo sat") +
		"[[algorithms]]\nname = \"missing\"\nprogram = \"vigil-no-such-program\"\nargs = [\"x\"]\nverdicts = { sat = \"safe\" }\n" +
		"[[instances]]\ndomain = \"d\"\nmodels = [\"m.spec\"]\n"
	path := filepath.Join(dir, "exp.toml")
	os.WriteFile(path, []byte(src), 0o644)
	x, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Execute(context.Background(), Options{Jobs: 2, Self: self()}); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"sat": {"success", "safe"}, "unsat": {"success", "unsafe"}, "unknown": {"unknown", ""},
		"error": {"crash", ""}, "prepfail": {"prepare-failed", ""}, "missing": {"start-failed", ""},
	}
	for _, r := range x.Runs {
		p := props(t, x, r)
		w := want[r.Algorithm]
		v, _ := p["verdict"].(string)
		if p["error"] != w[0] || v != w[1] {
			t.Errorf("%s: error %v, verdict %q; want %s, %q", r.ID, p["error"], v, w[0], w[1])
		}
		_, unexplained := p["unexplained_errors"]
		if unexplained != failure(p["error"].(string)) {
			t.Errorf("%s: error %v, unexplained_errors %v", r.ID, p["error"], p["unexplained_errors"])
		}
	}
	p := props(t, x, x.Runs[slices.IndexFunc(x.Runs, func(r *Run) bool { return r.Algorithm == "error" })])
	if msg := fmt.Sprint(p["unexplained_errors"]); !strings.Contains(msg, "line 3: bad") {
		t.Errorf("a program's error on stdout is not reported: %s", msg)
	}
	p = props(t, x, x.Runs[slices.IndexFunc(x.Runs, func(r *Run) bool { return r.Algorithm == "sat" })])
	if prep := fmt.Sprint(p["prepare"]); prep != "[echo m.spec]" || p["command"].([]any)[0] != "sh" {
		t.Errorf("prepare %s, command %v", prep, p["command"])
	}
	// Finished runs are not stale, and run again only when the
	// preparation changes.
	s, err := x.Execute(context.Background(), Options{Self: self()})
	if err != nil || s.Skipped != len(want) {
		t.Fatalf("rerun: %+v %v", s, err)
	}
	os.WriteFile(path, []byte(strings.Replace(src, `"echo", "{model}"`, `"echo", "{model}", "x"`, 1)), 0o644)
	if x, err = Load(path); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err == nil || !strings.Contains(err.Error(), "sat/d/m") {
		t.Errorf("a changed preparation step is not stale: %v", err)
	}
}
