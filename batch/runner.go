package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options control Execute.
type Options struct {
	Jobs        int                        // runs at once (default 1)
	Task, Tasks int                        // run only share Task (1-based) of Tasks; Tasks 0: all runs
	Self        string                     // the vigil executable runs are made with
	Progress    func(Progress)             // called after each run (and once at the start)
	Log         io.Writer                  // one line per run that failed to run or to be recorded
	Create      func(string) (File, error) // creates result files; nil: os.Create (tests inject full disks)
	// Rerun lists outcomes (error attributes, or "stale" for runs whose
	// command changed) whose finished runs run again.
	Rerun []string
	// Only, when set, restricts the batch to the runs whose id it matches.
	Only *regexp.Regexp
}

// Progress is the state of a batch while it runs.
type Progress struct {
	Done, Total int // finished runs of this share, including those skipped
	Skipped     int // finished before this batch started
	Failed      int // runs that crashed, had bad input, or could not be recorded
	Errors      map[string]int
	ETA         time.Duration // 0 when unknown
}

// Summary is what Execute did.
type Summary struct {
	Progress
	Interrupted bool
	Busy        int // runs left to another batch process that holds them
}

// failure reports whether an error attribute is a failure of the run (as
// opposed to an answer, or a limit that was hit).
func failure(errCode string) bool {
	switch errCode {
	case "success", "unknown", "timeout", "out-of-memory":
		return false
	}
	return true
}

// Outcomes are the error attributes a finished run can have.
var Outcomes = []string{"success", "unknown", "timeout", "out-of-memory", "input-error", "usage-error", "crash", "prepare-failed", "start-failed"}

// CheckRerun refuses a --rerun list that names something other than an
// outcome or "stale": a misspelt outcome (crashed) would rerun nothing
// and say all is done.
func CheckRerun(outcomes []string) error {
	for _, o := range outcomes {
		if o != "stale" && !slices.Contains(Outcomes, o) {
			best, bd := "", 4
			for _, k := range append(slices.Clone(Outcomes), "stale") {
				if d := editDistance(o, k); d < bd {
					best, bd = k, d
				}
			}
			hint := ""
			if best != "" {
				hint = fmt.Sprintf("did you mean %q? ", best)
			}
			return fmt.Errorf("%q is not an outcome: %swant some of %s, or stale (runs whose command or limits changed)", o, hint, strings.Join(Outcomes, ", "))
		}
	}
	return nil
}

// Share returns the runs of task (1-based) out of tasks: the runs are
// shuffled (deterministically, seeded by the experiment's name) and dealt
// round-robin, so that slow algorithms or domains spread over the tasks.
func (x *Experiment) Share(task, tasks int) []*Run {
	if tasks <= 0 {
		return x.Runs
	}
	runs := append([]*Run(nil), x.Runs...)
	h := fnv.New64a()
	h.Write([]byte(x.Name))
	rng := rand.New(rand.NewPCG(h.Sum64(), 17))
	rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
	var share []*Run
	for i, r := range runs {
		if i%tasks == task-1 {
			share = append(share, r)
		}
	}
	sort.Slice(share, func(i, j int) bool { return share[i].ID < share[j].ID })
	return share
}

// Args returns a run's vigil arguments (or its Program's) with {run_dir}
// filled in (relative to the directory commands run in).
func (x *Experiment) Args(r *Run) []string {
	return x.fillRunDir(r, r.Args)
}

// PrepareArgs returns the vigil arguments of a run's preparation step
// with {run_dir} filled in, nil for a run without one.
func (x *Experiment) PrepareArgs(r *Run) []string {
	if len(r.Prepare) == 0 {
		return nil
	}
	return x.fillRunDir(r, r.Prepare)
}

// fillRunDir fills {run_dir} in with the run's directory relative to the
// directory commands run in (x.Dir), whichever of the two was given
// relative to the working directory: with the experiment file given as
// /abs/exp/e.toml and --data data, the path was data/runs/..., which the
// program, run in /abs/exp, read as another directory (an earlier
// experiment's question there was answered as this run's), and the same
// experiment given as e.toml and /abs/exp/e.toml recorded two commands
// (its runs were stale, and the report refused them, as soon as it was
// given the other way).
func (x *Experiment) fillRunDir(r *Run, args []string) []string {
	return fillRunDirWith(args, x.runDirArg(r))
}

func fillRunDirWith(args []string, dir string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "{run_dir}", dir)
	}
	return out
}

// runDirArg is the run's directory relative to x.Dir (absolute where no
// relative path leads there).
func (x *Experiment) runDirArg(r *Run) string {
	base, err1 := filepath.Abs(x.Dir)
	dir, err2 := filepath.Abs(x.RunDir(r))
	if err1 != nil || err2 != nil {
		return x.RunDir(r)
	}
	if rel, err := filepath.Rel(base, dir); err == nil {
		return rel
	}
	return dir
}

// command is what a run's properties record as its command: vigil's
// arguments, or the program and its arguments.
func (x *Experiment) command(r *Run) []any {
	var cmd []any
	if r.Program != "" {
		cmd = append(cmd, r.Program)
	}
	for _, a := range x.Args(r) {
		cmd = append(cmd, a)
	}
	return cmd
}

// prepareCommand is what a run's properties record as its preparation
// step (nil: none).
func (x *Experiment) prepareCommand(r *Run) []any {
	var cmd []any
	for _, a := range x.PrepareArgs(r) {
		cmd = append(cmd, a)
	}
	return cmd
}

// stale reports whether finished properties were made by a command other
// than the run's current one, or under other limits (a run that timed out
// at 60 s says nothing about 600 s).
//
// A command that names the run's directory by its absolute path (as
// runs recorded before runDirArg when the experiment file was given
// relative and the data directory absolute) is the same command.
func (x *Experiment) stale(r *Run, p map[string]any) bool {
	abs, err := filepath.Abs(x.RunDir(r))
	same := func(rec any, args []string, prog string) bool {
		cmd := func(dir string) []any {
			var c []any
			if prog != "" {
				c = append(c, prog)
			}
			for _, a := range fillRunDirWith(args, dir) {
				c = append(c, a)
			}
			return c
		}
		return reflect.DeepEqual(rec, cmd(x.runDirArg(r))) || err == nil && reflect.DeepEqual(rec, cmd(abs))
	}
	if !same(p["command"], r.Args, r.Program) {
		return true
	}
	prep, _ := p["prepare"].([]any)
	if len(r.Prepare) == 0 {
		if prep != nil {
			return true
		}
	} else if !same(prep, r.Prepare, "") {
		return true
	}
	for key, limit := range map[string]float64{
		"time_limit": x.Limits.CPU.Seconds(), "wall_limit": x.Limits.Wall.Seconds(), "memory_limit": float64(x.Limits.Memory >> 10),
	} {
		if got, _ := num(p[key]); got != limit {
			return true
		}
	}
	return false
}

// Execute runs the runs of the share that have not finished, Jobs at a
// time. It refuses a data directory of another experiment, and finished
// runs whose command has since changed (their results would be mixed with
// the new command's).
func (x *Experiment) Execute(ctx context.Context, o Options) (Summary, error) {
	w := writer(o.Create)
	// Every path a run writes must lie inside the data directory: refuse
	// the batch before anything is written if one does not (a run
	// directory that is a link out of it, say).
	for _, r := range x.Runs {
		if err := x.checkRun(r); err != nil {
			return Summary{}, fmt.Errorf("%w (run %s)", err, r.ID)
		}
	}
	if err := x.openData(true, w); err != nil {
		return Summary{}, err
	}
	if o.Tasks > 0 && (o.Task < 1 || o.Task > o.Tasks) {
		return Summary{}, fmt.Errorf("batch: task %d is not in 1..%d", o.Task, o.Tasks)
	}
	share := x.Share(o.Task, o.Tasks)
	if o.Only != nil {
		share = slices.DeleteFunc(slices.Clone(share), func(r *Run) bool { return !o.Only.MatchString(r.ID) })
	}
	s, todo, rerun, err := x.pending(share, o.Rerun)
	if err != nil {
		return s, err
	}
	jobs := max(o.Jobs, 1)
	var mu sync.Mutex
	begin := time.Now()
	ran := 0
	report := func() {
		if o.Progress == nil {
			return
		}
		p := s.Progress
		p.Errors = map[string]int{}
		for k, v := range s.Errors {
			p.Errors[k] = v
		}
		if ran > 0 {
			left := s.Total - s.Done
			p.ETA = time.Duration(float64(time.Since(begin)) / float64(ran) * float64(left))
		}
		o.Progress(p)
	}
	report()
	// Refresh the progress every second, so that a long run does not freeze
	// the line (and the ETA counts down).
	tick := time.NewTicker(time.Second)
	stopTick, tickDone := make(chan struct{}), make(chan struct{})
	defer func() { tick.Stop(); close(stopTick); <-tickDone }()
	go func() {
		defer close(tickDone)
		for {
			select {
			case <-tick.C:
				mu.Lock()
				report()
				mu.Unlock()
			case <-stopTick:
				return
			}
		}
	}()
	queue := make(chan *Run)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range queue {
				errCode, err := x.runOne(ctx, o, w, r, rerun[r])
				mu.Lock()
				if err == errElsewhere {
					s.Done++
					s.Skipped++
					s.Errors[errCode]++
					if failure(errCode) {
						s.Failed++
					}
					report()
					mu.Unlock()
					continue
				}
				if err != nil && o.Log != nil {
					fmt.Fprintf(o.Log, "batch: run %s: %v\n", r.ID, err)
				}
				if err == errBusy {
					err = nil // not done here, not failed: it finishes elsewhere, or runs next time
					s.Busy++
				}
				if errCode != "" {
					ran++
					s.Done++
					s.Errors[errCode]++
					if failure(errCode) {
						s.Failed++
					}
				} else if err != nil {
					s.Failed++
					s.Errors["not-recorded"]++
				}
				report()
				mu.Unlock()
			}
		}()
	}
feed:
	for _, r := range todo {
		select {
		case queue <- r:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	// A signal after the last run was recorded interrupted nothing.
	s.Interrupted = ctx.Err() != nil && s.Done < s.Total
	return s, nil
}

// pending sorts share into the runs to run (todo; rerun says which of
// them finished before and run again, their old properties going when
// they start) and the finished ones, counted in s. Finished runs whose
// outcome rerunOutcomes lists run again ("stale": those whose command
// changed); other stale runs are an error.
func (x *Experiment) pending(share []*Run, rerunOutcomes []string) (s Summary, todo []*Run, rerun map[*Run]bool, err error) {
	s.Total = len(share)
	s.Errors = map[string]int{}
	rerun = map[*Run]bool{}
	var stale []string
	for _, r := range share {
		p, err := x.Properties(r)
		if err != nil {
			return s, nil, nil, err
		}
		e, _ := p["error"].(string)
		isStale := p != nil && x.stale(r, p)
		if p == nil || slices.Contains(rerunOutcomes, e) || isStale && slices.Contains(rerunOutcomes, "stale") {
			todo = append(todo, r)
			rerun[r] = p != nil
			continue
		}
		if isStale {
			stale = append(stale, r.ID)
		}
		s.Done++
		s.Skipped++
		s.Errors[e]++
		if failure(e) {
			s.Failed++
		}
	}
	if len(stale) > 0 {
		return s, nil, nil, &StaleError{IDs: stale}
	}
	return s, todo, rerun, nil
}

// A StaleError is Execute's refusal of finished runs made with another
// command or other limits than the experiment now gives.
type StaleError struct {
	IDs []string
}

func (e *StaleError) Error() string {
	ids, more := e.IDs, ""
	if len(ids) > 5 {
		more = fmt.Sprintf(" and %d more", len(ids)-5)
		ids = ids[:5]
	}
	return fmt.Sprintf("batch: finished runs were made with another command or other limits than the experiment now gives: %s%s; rerun them with --rerun stale, or give the changed algorithm a new name", strings.Join(ids, ", "), more)
}

// errElsewhere says that another process finished a run meanwhile: it
// counts as done before (skipped), with its outcome.
var errElsewhere = errors.New("another batch process finished it meanwhile")

// errBusy says that another process holds a run.
var errBusy = errors.New("another batch process holds it; it is left to that process (run the batch again to check)")

// lockRun takes the run's lock, waiting up to a second: a batch killed a
// moment ago may still have a run's process going down.
func lockRun(f *os.File) bool {
	for i := 0; ; i++ {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			return true
		}
		if i == 20 {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runOne runs r unless another process holds it or has finished it, and
// records its properties. It returns the run's error attribute, or "" when
// nothing was recorded (err says why, nil when the run was skipped).
func (x *Experiment) runOne(ctx context.Context, o Options, w writer, r *Run, rerun bool) (string, error) {
	dir := x.RunDir(r)
	// Checked again here: the run may start long after the batch did.
	if err := x.checkRun(r); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if !lockRun(lock) {
		return "", errBusy
	}
	if rerun {
		if err := os.Remove(filepath.Join(dir, propertiesFile)); err != nil && !os.IsNotExist(err) {
			return "", err
		}
	} else if p, err := x.Properties(r); err != nil {
		return "", err
	} else if p != nil {
		e, _ := p["error"].(string)
		return e, errElsewhere // finished meanwhile by another process
	}
	// A run starts from a directory without files: the logs and command
	// of an earlier attempt, the temporary properties of a batch killed
	// while recording, and what the run wrote itself through {run_dir}
	// (the question a preparation step exported: a z3 run after an export
	// that wrote nothing read the old question, and its answer was
	// credited to the new run). Directories stay: they may be the
	// repetitions of an earlier version of the experiment.
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if f := filepath.Join(dir, e.Name()); e.Name() != "lock" && !e.IsDir() && x.Within(f) == nil {
				os.Remove(f)
			}
		}
	}
	args := x.Args(r)
	line := commandLine("vigil", args)
	if r.Program != "" {
		line = commandLine(r.Program, args)
	}
	if prep := x.PrepareArgs(r); prep != nil {
		line = commandLine("vigil", prep) + line
	}
	if err := os.WriteFile(filepath.Join(dir, "command"), []byte(line), 0o644); err != nil {
		return "", err
	}
	var prep *outcome
	if pa := x.PrepareArgs(r); pa != nil {
		po := execute(ctx, o.Self, x.Dir, dir, "prepare.", x.Limits, pa)
		prep = &po
		if ctx.Err() != nil {
			return "", nil
		}
	}
	var out outcome
	switch {
	case prep != nil && (prep.startErr != nil || prep.exitCode != 0):
		out = outcome{prepareFailed: true}
	case r.Program != "":
		path, err := exec.LookPath(r.Program)
		if err != nil {
			out = outcome{startErr: fmt.Errorf("program %s: %v (install it, or put it on the PATH)", r.Program, err)}
			break
		}
		out = execute(ctx, path, x.Dir, dir, "", x.Limits, args)
	default:
		out = execute(ctx, o.Self, x.Dir, dir, "", x.Limits, args)
	}
	if ctx.Err() != nil {
		return "", nil // interrupted: not finished, runs again next time
	}
	p := x.properties(r, out, prep)
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", err
	}
	if err := writeAtomic(w, filepath.Join(dir, propertiesFile), append(b, '\n')); err != nil {
		return "", fmt.Errorf("recording the result failed (%v); nothing was recorded, it runs again next time", err)
	}
	return p["error"].(string), nil
}

// commandLine renders a command as a shell command line, one per line of
// a run directory's command file.
func commandLine(name string, args []string) string {
	var b strings.Builder
	b.WriteString(shellQuote(name))
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	b.WriteByte('\n')
	return b.String()
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellQuote is s as one word for a POSIX shell (quoted only when needed).
func ShellQuote(s string) string { return shellQuote(s) }
