package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Each run is a process in a process group of its own, with SIGKILL as
// its parent-death signal (a killed batch leaves no runs behind). Its CPU
// and memory limits are set with prlimit(2) right after it starts: a Go
// process cannot set a child's rlimits between fork and exec, and a
// wrapper that sets its own limits and executes vigil costs a second
// process start (15 ms for vigil, which loads Z3). Until prlimit returns
// the run is still in the dynamic loader: RLIMIT_CPU counts the CPU time
// used before it was set, and the little memory allocated by then is far
// below any limit (192 MiB at least). The whole group is killed at the
// wall-clock limit and when the run ends.
//
// The memory limit is RLIMIT_DATA, not RLIMIT_AS as in Downward Lab: the Go
// runtime reserves about a gigabyte of address space that it never touches,
// so an address-space limit measures reservations, not use. RLIMIT_DATA
// counts writable private memory (heap, stacks, Z3's allocations).

// cpuGrace is how long after the soft CPU limit (SIGXCPU, which the Go
// runtime ignores) the kernel's hard limit kills the run.
const cpuGrace = 2 * time.Second

// setLimits sets the CPU limit (0: none) and the memory limit in bytes (0:
// none) of process pid, and forbids core files.
func setLimits(pid int, l Limits) error {
	// No core files: vigil aborts on a fatal runtime error (SIGABRT), and a
	// batch of such runs would fill the experiment's directory with cores.
	if err := unix.Prlimit(pid, unix.RLIMIT_CORE, &unix.Rlimit{}, nil); err != nil {
		return fmt.Errorf("batch: prlimit CORE: %w", err)
	}
	if l.CPU > 0 {
		soft := uint64((l.CPU + time.Second - 1) / time.Second)
		hard := soft + uint64(cpuGrace/time.Second)
		if err := unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: soft, Max: hard}, nil); err != nil {
			return fmt.Errorf("batch: prlimit CPU: %w", err)
		}
	}
	if l.Memory > 0 {
		if err := unix.Prlimit(pid, unix.RLIMIT_DATA, &unix.Rlimit{Cur: uint64(l.Memory), Max: uint64(l.Memory)}, nil); err != nil {
			return fmt.Errorf("batch: prlimit DATA: %w", err)
		}
	}
	return nil
}

// outcome is what running a run's process gave.
type outcome struct {
	exitCode  int
	signal    string
	cpu, wall time.Duration
	maxRSS    int64 // KiB
	wallKill  bool
	startErr  error
	// prepareFailed: the run's preparation step failed, so it did not start.
	prepareFailed bool
}

// execute runs `prog args` in cwd under the limits l, with its output in
// the run directory's files prefix+"stdout" and prefix+"stderr".
func execute(ctx context.Context, prog, cwd, runDir, prefix string, l Limits, args []string) (o outcome) {
	stdout, err := os.Create(filepath.Join(runDir, prefix+"stdout"))
	if err != nil {
		o.startErr = err
		return
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(runDir, prefix+"stderr"))
	if err != nil {
		o.startErr = err
		return
	}
	defer stderr.Close()
	cmd := &exec.Cmd{
		Path:   prog,
		Args:   append([]string{prog}, args...),
		Dir:    cwd,
		Stdout: stdout,
		Stderr: stderr,
		SysProcAttr: &syscall.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: syscall.SIGKILL,
		},
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		o.startErr = err
		return
	}
	pgid := cmd.Process.Pid
	if err := setLimits(pgid, l); err != nil && !errors.Is(err, syscall.ESRCH) {
		syscall.Kill(-pgid, syscall.SIGKILL)
		cmd.Wait()
		o.startErr = err
		return
	}
	done, finished := make(chan struct{}), make(chan struct{})
	var killed bool
	go func() {
		defer close(finished)
		var timeout <-chan time.Time
		if l.Wall > 0 {
			t := time.NewTimer(l.Wall)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-done:
		case <-timeout:
			killed = true
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-ctx.Done():
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}()
	cmd.Wait()
	close(done)
	<-finished
	// Whatever the run left behind in its group goes too.
	syscall.Kill(-pgid, syscall.SIGKILL)
	o.wall = time.Since(begin)
	o.wallKill = killed
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			o.signal = ws.Signal().String()
			o.exitCode = -1
		} else {
			o.exitCode = ws.ExitStatus()
		}
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		o.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		o.maxRSS = ru.Maxrss
	}
	return
}

// memoryMarkers are what a process says on stderr when an allocation
// fails: the Go runtime, cgo thread creation, C++ (Z3), glibc.
var memoryMarkers = []string{
	"out of memory", "cannot allocate memory", "failed to reserve", "pthread_create failed",
	"bad_alloc", "runtime: cannot map pages", "memory exhausted", "mmap failed",
}

// classify gives a run's error attribute (Lab's outcome codes, named for
// verification): success (a verdict: exit 0 or 3), unknown (the engine
// gave up, exit 4), timeout, out-of-memory, input-error (exit 1),
// usage-error (exit 2), crash (a signal, a panic or an internal error:
// exit 70).
func classify(o outcome, l Limits, stdout map[string]any, stderrTail []byte) string {
	low := bytes.ToLower(stderrTail)
	if o.startErr != nil {
		return "start-failed"
	}
	if o.prepareFailed {
		return "prepare-failed"
	}
	// An allocation that failed comes first: a process dying of it may
	// still pass a time limit while it writes its stack traces (seen in
	// CI on a loaded machine: Go's out-of-memory report, then the wall
	// clock kill).
	// A process that exited by itself with an answer (0 or 3) did not die
	// of an allocation, whatever its stderr mentions ("the cache is out of
	// memory, using the disk"): its words are not a failure's.
	clean := o.signal == "" && !o.wallKill && (o.exitCode == 0 || o.exitCode == 3)
	for _, m := range memoryMarkers {
		if !clean && bytes.Contains(low, []byte(m)) {
			return "out-of-memory"
		}
	}
	switch {
	case o.wallKill, l.CPU > 0 && o.cpu >= l.CPU, o.signal == syscall.SIGXCPU.String():
		return "timeout"
	}
	switch {
	case o.signal != "":
		return "crash"
	case o.exitCode == 0 || o.exitCode == 3:
		return "success"
	case o.exitCode == 4:
		if r, _ := stdout["reason"].(string); strings.Contains(r, "timeout") {
			return "timeout"
		}
		return "unknown"
	case o.exitCode == 70:
		return "crash" // vigil's own bug, reported as such
	case o.exitCode == 1 && bytes.Contains(low, []byte("internal error")):
		return "crash" // the same from a vigil older than exit code 70 for every internal error
	case o.exitCode == 1:
		return "input-error"
	case o.exitCode == 2 && (bytes.Contains(stderrTail, []byte("panic:")) || bytes.Contains(stderrTail, []byte("fatal error:"))):
		return "crash"
	case o.exitCode == 2:
		return "usage-error"
	}
	return "crash"
}

// properties builds a finished run's properties: Lab's attributes, the
// batch's measurements and the engine's own statistics (the run's JSON
// output on stdout, flattened; for a Program, the verdict its last line
// maps to). prep is the outcome of the run's preparation step (nil: none).
func (x *Experiment) properties(r *Run, o outcome, prep *outcome) map[string]any {
	dir := x.RunDir(r)
	p := map[string]any{}
	var out map[string]any
	var programVerdict string
	if b, err := readHead(filepath.Join(dir, "stdout"), maxStdout); !o.prepareFailed {
		switch {
		case err == nil && r.Program != "":
			programVerdict = r.Verdicts[lastLine(b)]
		case errors.Is(err, errTooLarge) && r.Program != "":
			// A program that logs more than the batch reads whole still
			// answers on its last line (it was an unsolved run).
			if line, ok := tailLine(filepath.Join(dir, "stdout")); ok {
				programVerdict = r.Verdicts[line]
			}
		case err == nil:
			if json.Unmarshal(b, &out) == nil {
				flatten(p, "", out, r.Attrs)
			}
		case errors.Is(err, errTooLarge) && r.Program == "":
			// A counterexample of millions of steps: its verdict and
			// statistics still count (it was an unchecked "solved" run).
			if out = topScalars(filepath.Join(dir, "stdout")); out != nil {
				flatten(p, "", out, r.Attrs)
			}
		}
	}
	// A Go runtime's fatal error comes first, then every goroutine's stack:
	// look at both ends of stderr.
	stderrFile := "stderr"
	if o.prepareFailed {
		stderrFile = "prepare.stderr"
	}
	tail, _ := readEnds(filepath.Join(dir, stderrFile), 16<<10, 8<<10)
	errCode := classify(o, x.Limits, out, tail)
	if r.Program != "" {
		errCode = classifyProgram(errCode, o, programVerdict)
		if programVerdict != "" && errCode == "success" {
			p["verdict"] = programVerdict
		}
		if failure(errCode) && len(bytes.TrimSpace(tail)) == 0 {
			// z3 reports its errors on stdout
			tail, _ = readEnds(filepath.Join(dir, "stdout"), 16<<10, 8<<10)
		}
	}
	cov := 0
	if errCode == "success" {
		cov = 1
	}
	names := []any{}
	for k, v := range r.Attrs {
		p[k] = v
		names = append(names, k)
	}
	// Which keys are the instance's attributes, not the run's output: a
	// report under attributes added later tells the two apart (Fetch).
	slices.SortFunc(names, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	p[staticKey] = names
	p["id"] = runID(r)
	p["run_dir"] = filepath.ToSlash(filepath.Join("runs", filepath.FromSlash(r.ID)))
	p["algorithm"], p["domain"], p["problem"] = r.Algorithm, r.Domain, r.Problem
	if r.Rep != "" {
		p["rep"] = r.Rep
	}
	x.identify(r, p)
	if prep != nil {
		p["prepare"] = x.prepareCommand(r)
		p["prepare_time"] = prep.cpu.Seconds()
		p["prepare_exit_code"] = prep.exitCode
	}
	p["error"] = errCode
	p["coverage"] = cov
	p["time"] = o.cpu.Seconds()
	p["wall_time"] = o.wall.Seconds()
	p["memory"] = o.maxRSS
	p["exit_code"] = o.exitCode
	if o.signal != "" {
		p["signal"] = o.signal
	}
	// Lab's reports count and print runs with unexplained errors: here the
	// runs that failed (crash, bad input, could not start).
	if failure(errCode) {
		msg := firstLine(tail)
		if o.startErr != nil {
			msg = o.startErr.Error()
		}
		p["unexplained_errors"] = []any{fmt.Sprintf("%s: %s", errCode, msg)}
	}
	return p
}

// identify records in p what a run's result depends on besides its
// instance: its command and the limits it ran under (stale compares them
// with the experiment's).
func (x *Experiment) identify(r *Run, p map[string]any) {
	p["command"] = x.command(r)
	if x.Limits.CPU > 0 {
		p["time_limit"] = x.Limits.CPU.Seconds()
	}
	if x.Limits.Wall > 0 {
		p["wall_limit"] = x.Limits.Wall.Seconds()
	}
	if x.Limits.Memory > 0 {
		p["memory_limit"] = x.Limits.Memory >> 10
	}
}

// runID is a run's id as its properties record it (Lab's list form).
func runID(r *Run) []any {
	id := []any{r.Algorithm, r.Domain, r.Problem}
	if r.Rep != "" {
		id = append(id, r.Rep)
	}
	return id
}

// classifyProgram gives the error attribute of a run of a Program other
// than vigil, whose exit codes mean nothing to the batch: a limit, a
// signal or a failed start keep classify's outcome; otherwise exit 0 with
// a line that verdicts map is a success, exit 0 without one (z3's
// unknown) is unknown, and any other exit is a crash.
func classifyProgram(errCode string, o outcome, verdict string) string {
	switch errCode {
	case "start-failed", "prepare-failed", "timeout", "out-of-memory":
		return errCode
	}
	switch {
	case o.signal != "":
		return "crash"
	case o.exitCode == 0 && verdict != "":
		return "success"
	case o.exitCode == 0:
		return "unknown"
	}
	return "crash"
}

// lastLine is the last nonempty line of b, trimmed.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// tailLine is the last nonempty line of the file at path, read from its
// end; ok is false when that line does not start within the last 64 KiB
// (a suffix of a longer line is not the line).
func tailLine(path string) (string, bool) {
	b, err := readEnds(path, 0, 64<<10)
	if err != nil {
		return "", false
	}
	b = bytes.TrimRight(b, " \t\r\n")
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		if fi, err := os.Stat(path); err != nil || fi.Size() > 64<<10 {
			return "", false
		}
	}
	return strings.TrimSpace(string(b[i+1:])), true
}

// maxStdout is the largest output of a run read whole (larger ones give
// only their top-level members: topScalars).
var maxStdout int64 = 64 << 20

var errTooLarge = errors.New("larger than the batch reads whole")

// readHead reads a file of at most max bytes (errTooLarge for a larger one).
func readHead(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, errTooLarge, max)
	}
	return os.ReadFile(path)
}

// topScalars streams the JSON object in file path and returns its
// top-level members that are numbers, strings, booleans or null, skipping
// nested values without keeping them; nil when the file is not one
// complete JSON object (a run killed while printing it is not trusted).
func topScalars(path string) map[string]any {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	out := map[string]any{}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return nil
		}
		if t, err = dec.Token(); err != nil {
			return nil
		}
		if t != json.Delim('{') && t != json.Delim('[') {
			out[key] = t
			continue
		}
		for depth := 1; depth > 0; {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			switch t {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil // more after the object: not what vigil --json prints
	}
	return out
}

// firstLine is the first non-empty line of b that is not a progress line
// (at most 300 bytes).
func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !progressLine.MatchString(l) {
			if len(l) > 300 {
				l = l[:300] + "..."
			}
			return l
		}
	}
	return "no message on stderr"
}

// progressLine matches the progress lines vigil writes to a stderr that is
// not a terminal ("[10s] verify (bfs): ..."); they are not error messages.
var progressLine = regexp.MustCompile(`^\[[0-9hms.]+\] `)

// readEnds reads the first head and the last tail bytes of a file.
func readEnds(path string, head, tail int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() <= head+tail {
		b := make([]byte, fi.Size())
		n, _ := f.ReadAt(b, 0)
		return b[:n], nil
	}
	b := make([]byte, head+tail)
	n, _ := f.ReadAt(b[:head], 0)
	m, _ := f.ReadAt(b[head:], fi.Size()-tail)
	return append(b[:n], b[head:head+int64(m)]...), nil
}
