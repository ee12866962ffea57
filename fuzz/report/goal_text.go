package report

// The text and JSON reports of vigil test --mode goal, next to its HTML
// page: the command prints Goal.WriteText or encodes Goal.JSON.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/internal/phrase"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Step is one step of a run in the JSON reports: the state, and the label
// taken from it ("" at the end of the run).
type Step struct {
	State string `json:"state"`
	Label string `json:"label,omitempty"`
}

// Steps names the states and labels of a run.
func Steps(m *symbolic.Model, run []explicit.Step) []Step {
	out := make([]Step, 0, len(run))
	for _, st := range run {
		js := Step{State: m.FormatState(st.State)}
		if st.Label != symbolic.NoLabel {
			js.Label = m.Labels[st.Label].Name
		}
		out = append(out, js)
	}
	return out
}

// GoalBugJSON is one bug of a goal-reaching test in GoalJSON.
type GoalBugJSON struct {
	State       string `json:"state"`
	Oracle      string `json:"oracle"`
	Qualitative bool   `json:"qualitative"`
	Policy      string `json:"policy_outcome"` // reached, fails, beyond
	PolicyCost  int    `json:"policy_cost,omitempty"`
	Why         string `json:"why,omitempty"`
	// StuckWhy says, when Why is "stuck", why the policy chose no label
	// in the last state of its run (as vigil run says it).
	StuckWhy  string          `json:"stuck_why,omitempty"`
	PolicyRun []Step          `json:"policy_run"`
	PlanCost  int             `json:"plan_cost"`
	Plan      []Step          `json:"plan"`
	Patch     []GoalFaultJSON `json:"faults"`
}

// GoalFaultJSON is one decision the evidence changes: in State the policy
// takes PolicyLabel ("" when stuck), the better plan Alternative.
type GoalFaultJSON struct {
	State       string `json:"state"`
	PolicyLabel string `json:"policy_label"`
	Alternative string `json:"alternative"`
}

// GoalJSON is the --json report of vigil test --mode goal.
type GoalJSON struct {
	Mode     string   `json:"mode"`
	Result   string   `json:"result"` // bugs, none or unknown (Verdict), as in safety mode's
	Outcomes string   `json:"outcomes"`
	Model    string   `json:"model"`
	Property string   `json:"property"`
	Policy   string   `json:"policy"`
	Seed     uint64   `json:"seed"`
	Biases   []string `json:"biases"`
	Oracles  []string `json:"oracles"`
	Pool     int      `json:"pool"`
	Checked  int      `json:"checked"` // pool states the oracles were done with (all of them when complete)
	// Undecided counts the checked pool states where the policy's
	// evaluation met its state budget (fuzz.GoalResult.Undecided).
	Undecided int           `json:"undecided"`
	Stop      string        `json:"stop"`
	Bugs      []GoalBugJSON `json:"bugs"`
	// Phases is the wall-clock time per phase and in all; WorkerPhases
	// sums the workers' time per phase.
	Phases       map[string]float64 `json:"seconds"`
	WorkerPhases map[string]float64 `json:"worker_seconds"`
	Workers      int                `json:"workers"`
	Complete     bool               `json:"complete"`
	Stopped      string             `json:"stopped,omitempty"` // why an incomplete run ended
	Starts       string             `json:"start_sampling,omitempty"`
}

// GoalFaults lists a bug's faults with state and label names.
func GoalFaults(task *fuzz.GoalTask, b *fuzz.GoalBug) ([]GoalFaultJSON, error) {
	fs, err := task.Faults(b)
	if err != nil {
		return nil, err
	}
	m := task.M
	out := []GoalFaultJSON{}
	for _, f := range fs {
		jf := GoalFaultJSON{State: m.FormatState(f.State), Alternative: m.Labels[f.Better].Name}
		if f.Policy != symbolic.NoLabel {
			jf.PolicyLabel = m.Labels[f.Policy].Name
		}
		out = append(out, jf)
	}
	return out, nil
}

// JSON is the report in its --json shape.
func (t *Goal) JSON() (*GoalJSON, error) {
	m := t.Task.M
	biases := t.Biases
	if biases == nil {
		biases = []string{}
	}
	rep := &GoalJSON{Mode: "goal", Result: t.Verdict(), Checked: t.Result.Checked, Undecided: len(t.Result.Undecided), Outcomes: t.Outcomes, Model: m.Name, Property: t.Task.Prop.Name, Policy: t.Task.PolicyName, Seed: t.Seed,
		Biases: biases, Oracles: t.Oracles, Pool: len(t.Pool.Entries), Stop: t.Pool.Stop, Bugs: []GoalBugJSON{},
		Phases:       map[string]float64{"fuzz": t.FuzzTime.Seconds(), "confirm": t.ConfirmTime.Seconds(), "total": t.Elapsed.Seconds()},
		WorkerPhases: map[string]float64{"fuzz": t.FuzzWork.Seconds(), "confirm": t.ConfirmWork.Seconds()},
		Workers:      max(1, t.Workers), Complete: t.Complete, Starts: t.Starts}
	if !t.Complete {
		rep.Stopped = t.Stopped
	}
	for _, b := range t.Result.Bugs {
		jb := GoalBugJSON{State: m.FormatState(b.State), Oracle: b.Oracle, Qualitative: b.Qualitative,
			Policy: b.Policy.Outcome.String(), Why: b.Policy.Why, PolicyRun: Steps(m, b.Policy.Run),
			PlanCost: b.Cost, Plan: Steps(m, b.Plan)}
		if b.Policy.Outcome != fuzz.GoalFails {
			jb.PolicyCost = b.Policy.Cost
		}
		var err error
		if jb.StuckWhy, err = t.Task.StuckWhy(b.Policy); err != nil {
			return nil, err
		}
		if jb.Patch, err = GoalFaults(t.Task, b); err != nil {
			return nil, err
		}
		rep.Bugs = append(rep.Bugs, jb)
	}
	return rep, nil
}

// WriteText writes the report as vigil test --mode goal prints it: the
// setup, each bug with the policy's run, the better plan and the first
// faults, then the counts and times.
func (t *Goal) WriteText(w io.Writer) error {
	task, m := t.Task, t.Task.M
	fmt.Fprintf(w, "goal testing: model %s, property %s, policy %s, %s outcomes, seed %d\n", m.Name, task.Prop.Name, task.PolicyName, t.Outcomes, t.Seed)
	fmt.Fprintf(w, "fuzzing: %s (%s), %s, biases: %s\n", phrase.Plural(len(t.Pool.Entries), "pool state"), t.Pool.Stop, phrase.Plural(t.Pool.Walks, "walk"), phrase.OrNone(strings.Join(t.Biases, ", ")))
	fmt.Fprintf(w, "oracles: %s\n", strings.Join(t.Oracles, ", "))
	if t.Starts != "" {
		fmt.Fprintf(w, "start states: %s\n", t.Starts)
	}
	for i, b := range t.Result.Bugs {
		kind := "costs more than a plan"
		if b.Qualitative {
			kind = "fails where a plan reaches the goal"
		}
		fmt.Fprintf(w, "\nbug %d (%s): %s\n  state: %s\n", i+1, b.Oracle, kind, m.FormatState(b.State))
		fmt.Fprintf(w, "  policy %s: %s\n", task.PolicyName, b.Policy)
		why, err := task.StuckWhy(b.Policy)
		if err != nil {
			return err
		}
		if why != "" {
			fmt.Fprintf(w, "  why: %s\n", why)
		}
		writeGoalRun(w, m, b.Policy.Run)
		if task.Fair {
			fmt.Fprintf(w, "  better: reaches the goal with probability 1; a shortest run:\n")
		} else {
			fmt.Fprintf(w, "  better: reaches the goal %s on every run:\n", fuzz.CostPhrase(b.Cost, b.Plan))
		}
		writeGoalRun(w, m, b.Plan)
		fs, err := GoalFaults(task, b)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  faults: %s the better plan changes\n", phrase.Plural(len(fs), "decision"))
		for i, f := range fs {
			if i == 5 {
				fmt.Fprintf(w, "    ... %d more (--json lists them)\n", len(fs)-5)
				break
			}
			if f.PolicyLabel == "" {
				fmt.Fprintf(w, "    %s: %s, where the policy is stuck\n", f.State, f.Alternative)
				continue
			}
			fmt.Fprintf(w, "    %s: %s, not %s\n", f.State, f.Alternative, f.PolicyLabel)
		}
	}
	if !t.Complete {
		fmt.Fprintf(w, "\n%s with %d of %d pool states checked; the bugs above were found before\n", t.Stopped, t.Result.Checked, len(t.Pool.Entries))
	}
	if n := len(t.Result.Undecided); n > 0 {
		fmt.Fprintf(w, "\n%s\n", undecidedPhrase(n, len(t.Pool.Entries)))
	}
	_, err := fmt.Fprintf(w, "\n%s\ntime: %s\n", phrase.Plural(len(t.Result.Bugs), "bug"), t.timeLine())
	return err
}

// timeLine says where the test's time went: wall-clock time per phase
// and, with several workers, whose phases overlap, the workers' time
// summed per phase, labelled as such.
func (t *Goal) timeLine() string {
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	s := fmt.Sprintf("fuzz %s, confirm %s", ms(t.FuzzTime), ms(t.ConfirmTime))
	if t.Elapsed > 0 {
		s += fmt.Sprintf(", total %s", ms(t.Elapsed))
	}
	if t.Workers > 1 {
		s += fmt.Sprintf(" (wall clock; the %d workers' time summed: fuzz %s, confirm %s)", t.Workers, ms(t.FuzzWork), ms(t.ConfirmWork))
	}
	return s
}

// writeGoalRun writes a run as state, then -> label lines; a run of more
// than 20 steps shows its first and last 8 (--json has every step).
func writeGoalRun(w io.Writer, m *symbolic.Model, run []explicit.Step) {
	for i, st := range run {
		if len(run) > 21 && i >= 8 && i < len(run)-9 {
			if i == 8 {
				fmt.Fprintf(w, "         ... %d more steps (--json lists them) ...\n", len(run)-17)
			}
			continue
		}
		fmt.Fprintf(w, "    %3d  %s\n", i, m.FormatState(st.State))
		if st.Label != symbolic.NoLabel {
			fmt.Fprintf(w, "         -> %s\n", m.Labels[st.Label].Name)
		}
	}
}

// undecidedPhrase says that n of the pool's states were undecided.
func undecidedPhrase(n, pool int) string {
	return fmt.Sprintf("%d of %d pool states undecided: the policy's runs from them visit more than %d states (the budget of its evaluation), so no plan could be compared with them", n, pool, fuzz.DefaultGoalMaxStates)
}
