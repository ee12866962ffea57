package report

// Outcome: the two tests' reports behind one interface, so that a caller
// records, prints and judges either the same way.

import (
	"encoding/json"
	"io"

	"vigil/symbolic"
)

// Outcome is the report of a test of either mode (*Goal, *Safety).
type Outcome interface {
	// Record writes the test's evidence as run files into dir.
	Record(dir string) error
	// HTML writes the report as one self-contained page.
	HTML(w io.Writer) error
	// WriteText writes the report as vigil test prints it.
	WriteText(w io.Writer) error
	// MarshalJSON is the report in its --json shape.
	MarshalJSON() ([]byte, error)
	// Verdict sums the test up: bugs when it found any, else unknown
	// when it stopped early, else none (which is no proof).
	Verdict() string
}

var (
	_ Outcome = (*Goal)(nil)
	_ Outcome = (*Safety)(nil)
)

// HTML is GoalHTML.
func (t *Goal) HTML(w io.Writer) error { return GoalHTML(w, t) }

// MarshalJSON is the report in its --json shape (JSON).
func (t *Goal) MarshalJSON() ([]byte, error) {
	j, err := t.JSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// Verdict sums the test up: bugs when it found any, else unknown when it
// stopped before every pool state was checked or some were undecided
// (GoalResult.Undecided: "none" said a test had found no bug where it had
// judged no pool state), else none.
func (t *Goal) Verdict() string {
	switch {
	case len(t.Result.Bugs) > 0:
		return "bugs"
	case !t.Complete || len(t.Result.Undecided) > 0:
		return "unknown"
	}
	return "none"
}

// HTML is SafetyHTML.
func (t *Safety) HTML(w io.Writer) error { return SafetyHTML(w, t) }

// MarshalJSON is the report in its --json shape (JSON).
func (t *Safety) MarshalJSON() ([]byte, error) { return json.Marshal(t.JSON()) }

// Mode is the test mode for prop when none is asked: goal when it has a
// goal and its unsafe condition is false (nothing can go wrong but
// missing the goal), else safety.
func Mode(prop *symbolic.Property) string {
	if prop.Goal != nil && prop.Unsafe.Op == symbolic.CFalse {
		return "goal"
	}
	return "safety"
}
