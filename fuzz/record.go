package fuzz

// Recording what a test found as run files (explicit.WriteRun), which
// vigil run --replay and vigil faults --run read back.

import (
	"fmt"
	"os"
	"path/filepath"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// RecordGoal writes every bug's policy run and better plan to dir (made
// if missing) as bug-N-policy.json and bug-N-plan.json.
func RecordGoal(dir string, task *GoalTask, res *GoalResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, b := range res.Bugs {
		end := b.Policy.Why
		switch b.Policy.Outcome {
		case GoalReached:
			end = explicit.EndGoal
		case GoalBeyond:
			end = explicit.EndSteps
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
	return nil
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
	return files, nil
}
