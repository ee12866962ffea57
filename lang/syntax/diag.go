package syntax

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"vigil/symbolic"
)

// Severity of a diagnostic.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MaxErrors caps the number of errors one run reports.
const MaxErrors = 50

// Diagnostic is one positioned message with a stable code (see spec.md,
// "Diagnostic codes").
type Diagnostic struct {
	Pos      symbolic.Pos
	End      int // end column on the same line (exclusive), 0 if unknown
	Severity Severity
	Code     string
	Msg      string
	Line     string // the source line, for rendering
}

// Diagnostics is a list of diagnostics. Sort orders it by position and
// drops duplicates.
type Diagnostics []Diagnostic

// HasErrors reports whether some diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns nil when there are no errors, else an error whose message is
// the rendered list.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return diagError(ds)
}

type diagError Diagnostics

func (e diagError) Error() string { return strings.TrimRight(Diagnostics(e).Render(), "\n") }

// Sort sorts by file, line, column, code and message and drops duplicates.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Msg < b.Msg
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d.Pos == ds[i-1].Pos && d.Code == ds[i-1].Code && d.Msg == ds[i-1].Msg {
			continue
		}
		out = append(out, d)
	}
	return out
}

// String renders one diagnostic as `file:line:col: error[CODE]: message`.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s[%s]: %s", d.Pos, d.Severity, d.Code, d.Msg)
}

// Render writes each diagnostic with its source line and a caret under the
// offending text, as in spec.md's "Diagnostics".
func (ds Diagnostics) Render() string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
		if d.Line == "" || d.Pos.Line == 0 {
			continue
		}
		num := fmt.Sprint(d.Pos.Line)
		pad := strings.Repeat(" ", len(num))
		line := strings.ReplaceAll(d.Line, "\t", " ")
		col := max(d.Pos.Col, 1)
		width := 1
		if d.End > col {
			width = d.End - col
		}
		if col-1+width > len(line)+1 {
			width = max(1, len(line)+1-(col-1))
		}
		if utf8.RuneCountInString(line) > maxShown {
			line, col, width = window(line, col, width)
		}
		fmt.Fprintf(&b, " %s | %s\n", num, line)
		fmt.Fprintf(&b, " %s | %s%s\n", pad, strings.Repeat(" ", col-1), strings.Repeat("^", width))
	}
	return b.String()
}

// maxShown is the most columns of a source line Render shows: a longer
// line (a generated expression can be megabytes on one line) is cut to a
// window around the caret, with "..." where text is left out.
const maxShown = 120

// window cuts line to maxShown runes around column col (1-based, in runes)
// and returns the cut line and the caret's column and width in it.
func window(line string, col, width int) (string, int, int) {
	r := []rune(line)
	start := max(0, min(col-1-maxShown/2, len(r)-maxShown))
	end := min(len(r), start+maxShown)
	pre, post := "", ""
	if start > 0 {
		pre = "..."
	}
	if end < len(r) {
		post = "..."
	}
	col = col - start + len(pre)
	width = max(1, min(width, end-start+len(pre)+1-(col-1)))
	return pre + string(r[start:end]) + post, col, width
}

// jsonDiag is the --json form of a diagnostic.
type jsonDiag struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	EndCol   int    `json:"end_col,omitempty"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// MarshalJSON writes the diagnostics as a JSON array of objects with the
// fields file, line, col, end_col, severity, code, message.
func (ds Diagnostics) MarshalJSON() ([]byte, error) {
	out := make([]jsonDiag, 0, len(ds))
	for _, d := range ds {
		out = append(out, jsonDiag{d.Pos.File, d.Pos.Line, d.Pos.Col, d.End, d.Severity.String(), d.Code, d.Msg})
	}
	return json.Marshal(out)
}
