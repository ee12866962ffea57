package batch

// The reports of vigil batch run and vigil batch status: their JSON form
// (the exact shape of --json) and their text, beside the Summary and
// Status they describe.

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// RunReport is the JSON form of what Execute did, as vigil batch run
// --json prints it.
type RunReport struct {
	Busy        int            `json:"busy,omitempty"` // runs another batch process on the data directory holds
	Data        string         `json:"data"`
	Done        int            `json:"done"`
	Errors      map[string]int `json:"errors"`
	Experiment  string         `json:"experiment"`
	Failed      int            `json:"failed"`
	Interrupted bool           `json:"interrupted"`
	Skipped     int            `json:"skipped"`
	Total       int            `json:"total"`
}

// RunReport describes s, what Execute did on x.
func (x *Experiment) RunReport(s Summary) *RunReport {
	return &RunReport{Experiment: x.Name, Total: s.Total, Done: s.Done, Skipped: s.Skipped,
		Failed: s.Failed, Errors: s.Errors, Interrupted: s.Interrupted, Busy: s.Busy, Data: x.Data}
}

// WriteText writes the report as vigil batch run prints it.
func (r *RunReport) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "batch %s: %d/%d runs done (%d already), %d failed; outcomes: %s\nresults in %s\n",
		r.Experiment, r.Done, r.Total, r.Skipped, r.Failed, OutcomeList(r.Errors), r.Data)
	return err
}

// StatusReport is the JSON form of an experiment's Status, as vigil batch
// status --json prints it.
type StatusReport struct {
	Errors     map[string]int `json:"errors"`
	Experiment string         `json:"experiment"`
	Failed     []string       `json:"failed"`
	Finished   int            `json:"finished"`
	Missing    []string       `json:"missing"`
	Running    []string       `json:"running"`
	Stale      []string       `json:"stale"`
	Total      int            `json:"total"`
}

// StatusReport describes st, the status of x.
func (x *Experiment) StatusReport(st *Status) *StatusReport {
	return &StatusReport{Experiment: x.Name, Total: st.Total, Finished: st.Finished, Errors: st.Errors,
		Missing: nonNil(st.Missing), Running: nonNil(st.Running), Stale: nonNil(st.Stale), Failed: nonNil(st.Failed)}
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// WriteText writes the status as vigil batch status prints it: a summary
// line, then one line per missing, running, failed and stale run.
func (r *StatusReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "batch %s: %d/%d runs finished (%s), %d missing", r.Experiment, r.Finished, r.Total, OutcomeList(r.Errors), len(r.Missing))
	if len(r.Running) > 0 {
		fmt.Fprintf(&b, ", %d of them running now", len(r.Running))
	}
	if len(r.Stale) > 0 {
		fmt.Fprintf(&b, ", %d stale", len(r.Stale))
	}
	b.WriteString("\n")
	running := map[string]bool{}
	for _, id := range r.Running {
		running[id] = true
	}
	for _, id := range r.Missing {
		if running[id] {
			fmt.Fprintf(&b, "running  %s\n", id)
		} else {
			fmt.Fprintf(&b, "missing  %s\n", id)
		}
	}
	for _, id := range r.Failed {
		fmt.Fprintf(&b, "failed   %s\n", id)
	}
	for _, id := range r.Stale {
		fmt.Fprintf(&b, "stale    %s (made with another command; vigil batch run --rerun stale runs it again)\n", id)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// OutcomeList writes counts of run outcomes as "2 success, 1 timeout"
// (sorted by outcome), or "none".
func OutcomeList(errs map[string]int) string {
	var keys []string
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", errs[k], k))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
