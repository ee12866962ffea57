package batch

// What vigil batch prints besides the reports of summary.go: the progress
// line of a running batch, a report written to its directory and printed
// in one format, and the disagreement that fails a report.

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"vigil/internal/phrase"
)

// Line is the progress line of experiment name's batch, as vigil batch
// run shows it: "batch NAME: 3/9 done, 1 failed, 2 timeout, ETA 1m5s".
func (p Progress) Line(name string) string {
	eta := "-"
	if p.ETA > 0 {
		eta = p.ETA.Round(time.Second).String()
	}
	return fmt.Sprintf("batch %s: %d/%d done, %d failed%s, ETA %s", name, p.Done, p.Total, p.Failed, LimitCounts(p.Errors), eta)
}

// LimitCounts is the part of a progress line that counts the runs that hit
// a limit: ", 2 timeout, 1 out-of-memory", or "" when none did.
func LimitCounts(errs map[string]int) string {
	var b strings.Builder
	for _, k := range []string{"timeout", "out-of-memory"} {
		if errs[k] > 0 {
			fmt.Fprintf(&b, ", %d %s", errs[k], k)
		}
	}
	return b.String()
}

// Publish fetches the report o asks for (Fetch) and writes its files
// (Write) into dir, by default DATA/report, which must then lie inside the
// data directory. It returns the report and the files written.
func (x *Experiment) Publish(o ReportOptions, dir string) (*Report, []string, error) {
	rep, err := x.Fetch(o)
	if err != nil {
		return nil, nil, err
	}
	if dir == "" {
		dir = filepath.Join(x.Data, "report")
		if err := x.Within(filepath.Join(dir, "report.md")); err != nil {
			return nil, nil, err
		}
	}
	files, err := rep.Write(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("batch: writing the report in %s: %w", dir, err)
	}
	return rep, files, nil
}

// WriteFormat writes the report to w in format: md (Markdown), html, csv
// or none (nothing).
func (rep *Report) WriteFormat(w io.Writer, format string) error {
	switch format {
	case "md":
		rep.Markdown(w)
	case "html":
		plots, err := rep.Plots()
		rep.HTML(w, plots)
		return err
	case "csv":
		return rep.CSV(w)
	case "none":
	default:
		return fmt.Errorf("format %q: want md, html, csv or none", format)
	}
	return nil
}

// Disagreement is the error of a report whose algorithms give different
// answers on some instance (Disagreements): one of them is wrong. It is
// nil when they agree.
func (rep *Report) Disagreement() error {
	list, _ := rep.Disagreements()
	if len(list) == 0 {
		return nil
	}
	return fmt.Errorf("DISAGREEMENT on %s: algorithms that decided give different answers, so one of them is wrong:\n  %s", phrase.Plural(len(list), "instance"), strings.Join(list, "\n  "))
}
