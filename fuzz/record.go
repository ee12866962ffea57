package fuzz

// Recording what a test found as run files (explicit.WriteRun), which
// vigil run --replay and vigil faults --run read back.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// RecordGoal writes every bug's policy run and better plan to dir (made
// if missing) as bug-N-policy.json and bug-N-plan.json, and removes the
// files of those names an earlier record left there for higher N.
func RecordGoal(dir string, task *GoalTask, res *GoalResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, b := range res.Bugs {
		end := b.Policy.Why
		switch {
		case b.Policy.Outcome == GoalReached:
			end = explicit.EndGoal
		case b.Policy.Outcome == GoalBeyond:
			end = explicit.EndSteps
		case end == GoalFailTrap:
			// A fair test's trap run ends by repeating a state, which is
			// a run file's "loop"; run files know no "trap" ending, so
			// vigil run --replay and vigil faults --run refused the file.
			end = GoalFailLoop
		}
		pol := explicit.NewRun(task.M, task.Prop.Name, task.PolicyName, end, b.Policy.Run)
		why, err := task.StuckWhy(b.Policy)
		if err != nil {
			return err
		}
		pol.Why = why
		plan := explicit.NewRun(task.M, task.Prop.Name, task.PolicyName+" patched", explicit.EndGoal, b.Plan)
		for _, f := range []struct {
			name string
			run  *explicit.Run
		}{{fmt.Sprintf("bug-%d-policy.json", i+1), pol}, {fmt.Sprintf("bug-%d-plan.json", i+1), plan}} {
			if err := explicit.WriteRunFile(filepath.Join(dir, f.name), f.run); err != nil {
				return err
			}
		}
	}
	return removeStale(dir, goalFileRE, len(res.Bugs))
}

// RecordSafety writes every distinct unsafe run of res to dir (made if
// missing) as unsafe-N.json and returns the files' paths, in the order of
// res.Cases.
func RecordSafety(dir string, m *symbolic.Model, property, policy string, res *SafetyResult) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for i, c := range res.Cases {
		path := filepath.Join(dir, fmt.Sprintf("unsafe-%d.json", i+1))
		if err := explicit.WriteRunFile(path, explicit.NewRun(m, property, policy, explicit.EndUnsafe, c.Run.Steps)); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, removeStale(dir, safetyFileRE, len(res.Cases))
}

// The names of the run files RecordSafety and RecordGoal write.
var (
	safetyFileRE = regexp.MustCompile(`^unsafe-([1-9][0-9]*)\.json$`)
	goalFileRE   = regexp.MustCompile(`^bug-([1-9][0-9]*)-(policy|plan)\.json$`)
)

// removeStale removes the files in dir named as re matches whose number
// is above n: those an earlier record into dir wrote for more runs or
// bugs than this one. Left there, they read as this test's evidence (vigil
// faults --run DIR/unsafe-*.json analysed another test's runs).
func removeStale(dir string, re *regexp.Regexp, n int) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		m := re.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		if k, err := strconv.Atoi(m[1]); err == nil && k <= n {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
