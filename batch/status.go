package batch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Status is the state of an experiment's runs on disk.
type Status struct {
	Total    int
	Finished int
	Errors   map[string]int // error attribute of finished runs
	Missing  []string       // ids of runs without properties
	Running  []string       // missing runs that a batch process holds now
	Stale    []string       // finished runs whose command has changed
	Failed   []string       // finished runs that failed: "ID (error)"
}

// Status reads the data directory (refusing another experiment's).
func (x *Experiment) Status() (*Status, error) {
	if err := x.openData(false, nil); err != nil {
		return nil, err
	}
	st := &Status{Total: len(x.Runs), Errors: map[string]int{}}
	for _, r := range x.Runs {
		p, err := x.Properties(r)
		if err != nil {
			return nil, err
		}
		if p == nil {
			st.Missing = append(st.Missing, r.ID)
			if held(filepath.Join(x.RunDir(r), "lock")) {
				st.Running = append(st.Running, r.ID)
			}
			continue
		}
		st.Finished++
		e, _ := p["error"].(string)
		st.Errors[e]++
		if failure(e) {
			st.Failed = append(st.Failed, fmt.Sprintf("%s (%s)", r.ID, e))
		}
		if x.stale(r, p) {
			st.Stale = append(st.Stale, r.ID)
		}
	}
	return st, nil
}

// held reports whether a batch process holds the lock file.
func held(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// SlurmOptions shape the array job.
type SlurmOptions struct {
	Self         string // the vigil executable (the script can override it with $VIGIL)
	MaxArraySize int    // at most this many tasks (default 1000, Slurm's default MaxArraySize)
	Parallel     int    // at most this many tasks at once (%K; default: all)
	Partition    string
}

// Slurm writes the array job script of the experiment to
// DATA/slurm/job.sh and returns its path and the number of tasks. Task i
// runs `vigil batch run --tasks N --task $SLURM_ARRAY_TASK_ID EXP`: the
// same code path as a local batch, on its share of the shuffled runs.
func (x *Experiment) Slurm(o SlurmOptions) (string, int, error) {
	if err := CheckPartition(o.Partition); err != nil {
		return "", 0, err
	}
	if err := x.openData(true, nil); err != nil {
		return "", 0, err
	}
	maxTasks := o.MaxArraySize
	if maxTasks <= 0 {
		maxTasks = 1000
	}
	tasks := min(len(x.Runs), maxTasks)
	par := o.Parallel
	if par <= 0 || par > tasks {
		par = tasks
	}
	dir, err := filepath.Abs(filepath.Join(x.Data, "slurm"))
	if err != nil {
		return "", 0, err
	}
	if err := x.Within(filepath.Join(dir, "job.sh")); err != nil {
		return "", 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, err
	}
	exp, err := filepath.Abs(x.File)
	if err != nil {
		return "", 0, err
	}
	perTask := (len(x.Runs) + tasks - 1) / tasks
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by vigil batch slurm for experiment %s: %d runs in %d tasks.\n", x.Name, len(x.Runs), tasks)
	fmt.Fprintf(&b, "# Submit with: sbatch %s\n", shellQuote(filepath.Join(dir, "job.sh")))
	fmt.Fprintf(&b, "# A task runs its share of the shuffled runs; a finished run is skipped, so\n# resubmitting the script (or one task) finishes what is missing.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=vigil-%s\n", x.Name)
	fmt.Fprintf(&b, "#SBATCH --array=1-%d%%%d\n", tasks, par)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	if x.Limits.Wall > 0 {
		perRun := x.Limits.Wall + 10*time.Second
		for _, r := range x.Runs {
			if len(r.Prepare) > 0 { // a preparation step has limits of its own
				perRun += x.Limits.Wall
				break
			}
		}
		t := time.Duration(perTask)*perRun + 5*time.Minute
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", slurmTime(t))
	}
	if x.Limits.Memory > 0 {
		fmt.Fprintf(&b, "#SBATCH --mem-per-cpu=%dM\n", (x.Limits.Memory>>20)+256)
	}
	if o.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", o.Partition)
	}
	// An #SBATCH line is split at white space, and Slurm reads % in a
	// file name as a pattern (%x: the job's name) and a backslash as
	// "no patterns": a directory with any of them gets its task files from
	// the script's own redirection, shell-quoted, instead.
	plainDir := shellQuote(dir) == dir && !strings.ContainsAny(dir, "%\\")
	if plainDir {
		fmt.Fprintf(&b, "#SBATCH --output=%s/task-%%a.out\n#SBATCH --error=%s/task-%%a.err\n", dir, dir)
	} else {
		fmt.Fprintf(&b, "#SBATCH --output=/dev/null\n#SBATCH --error=/dev/null\n")
	}
	fmt.Fprintf(&b, "set -eu\n: \"${SLURM_ARRAY_TASK_ID:?set by Slurm: the task number, 1..%d}\"\n", tasks)
	if !plainDir {
		q := shellQuote(dir)
		fmt.Fprintf(&b, "exec >>%s/task-\"$SLURM_ARRAY_TASK_ID\".out 2>>%s/task-\"$SLURM_ARRAY_TASK_ID\".err\n", q, q)
	}
	data, err := filepath.Abs(x.Data)
	if err != nil {
		return "", 0, err
	}
	// Not "${VIGIL:-'...'}": inside double quotes the single quotes of a
	// path that needs them would be part of the path.
	fmt.Fprintf(&b, "VIGIL=${VIGIL:-%s}\n", shellQuote(o.Self))
	fmt.Fprintf(&b, "exec \"$VIGIL\" batch run --tasks %d --task \"$SLURM_ARRAY_TASK_ID\" --data %s %s\n", tasks, shellQuote(data), shellQuote(exp))
	path := filepath.Join(dir, "job.sh")
	if err := writeAtomic(nil, path, []byte(b.String())); err != nil {
		return "", 0, err
	}
	return path, tasks, os.Chmod(path, 0o755)
}

func slurmTime(d time.Duration) string {
	s := int64(d / time.Second)
	days, s := s/86400, s%86400
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// CheckPartition refuses a Slurm partition that an #SBATCH line cannot
// carry as written: a partition name (or a comma-separated list of them)
// has only letters, digits, '-', '_' and '.'.
func CheckPartition(p string) error {
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,") != "" {
		return fmt.Errorf("--partition %q: a Slurm partition name (or a comma-separated list of them) has only letters, digits, '-', '_' and '.'", p)
	}
	return nil
}
