package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"vigil/batch"
	"vigil/lang"
	"vigil/symbolic"
)

// errorLog records, in order, what a command reports on stderr while it
// runs under --json, so that the dispatcher can build the JSON error
// object (JSONError) from values rather than from rendered text:
//
//   - diagnostics the command prints with PrintDiags, and positioned
//     library errors it prints with PrintErr (batch.Error), are recorded as
//     values with their position, severity and code;
//   - warnings and notes, which every command prints with Notice, are
//     recorded as notices: never the error;
//   - everything else written on stderr (plain "vigil CMD: ..." errors,
//     usage blocks) is recorded as text.
type errorLog struct {
	entries []logEntry
}

// logEntry is one report: a diagnostic, a notice, or a chunk of stderr
// text.
type logEntry struct {
	diag   *lang.Diagnostic // a diagnostic, or a positioned library error as one
	text   string
	notice bool // text is a warning or a note
}

// stderrLog is the stderr writer under --json: it writes through to w and
// records the text in log.
type stderrLog struct {
	w   io.Writer
	log *errorLog
}

func (s stderrLog) Write(p []byte) (int, error) {
	s.log.entries = append(s.log.entries, logEntry{text: string(p)})
	return s.w.Write(p)
}

// PrintDiags prints diags on the command's stderr, with their source lines
// and carets, and under --json records them as values for the JSON error.
func (e *Env) PrintDiags(diags lang.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	s, ok := e.Stderr.(stderrLog)
	if !ok {
		fmt.Fprint(e.Stderr, diags.Render())
		return
	}
	for _, d := range diags {
		s.log.entries = append(s.log.entries, logEntry{diag: &d})
	}
	fmt.Fprint(s.w, diags.Render())
}

// Notice prints a warning or a note, msg, on the command's stderr, on a
// line of its own, and under --json records it as a notice: the JSON
// error object lists it but never takes it for the error.
func (e *Env) Notice(msg string) {
	s, ok := e.Stderr.(stderrLog)
	if !ok {
		fmt.Fprintln(e.Stderr, msg)
		return
	}
	s.log.entries = append(s.log.entries, logEntry{text: msg, notice: true})
	fmt.Fprintln(s.w, msg)
}

// PrintErr prints err on the command's stderr, on a line of its own, and
// under --json records a positioned library error (batch.Error) as a
// value for the JSON error.
func (e *Env) PrintErr(err error) {
	s, ok := e.Stderr.(stderrLog)
	var be *batch.Error
	if !ok || !errors.As(err, &be) {
		fmt.Fprintln(e.Stderr, err)
		return
	}
	pos := symbolic.Pos{File: be.File, Line: be.Line, Col: be.Col}
	s.log.entries = append(s.log.entries, logEntry{diag: &lang.Diagnostic{Pos: pos, Severity: lang.Error, Code: be.Code, Msg: be.Msg}})
	fmt.Fprintln(s.w, err)
}

// jsonError builds the JSON error object of a command that failed with
// exit code exit. The error is the first positioned error diagnostic
// (with its file, line, column and code), else the first message that is
// not a notice (a warning or a note printed before the error is not the
// error), else the first message. Messages lists every message
// when there are several: a diagnostic's first line, and each non-empty
// line of the other text except usage blocks.
func (l *errorLog) jsonError(exit int) JSONError {
	je := JSONError{Exit: exit}
	var msgs []string
	firstError := ""
	note := func(msg string, notice bool) {
		if firstError == "" && !notice {
			firstError = msg
		}
		msgs = append(msgs, msg)
	}
	var text strings.Builder
	flush := func() {
		for _, t := range stderrMessages(text.String()) {
			note(t, false)
		}
		text.Reset()
	}
	for _, en := range l.entries {
		switch {
		case en.notice:
			flush()
			for _, t := range stderrMessages(en.text) {
				note(t, true)
			}
			continue
		case en.diag == nil:
			text.WriteString(en.text)
			continue
		}
		flush()
		d := en.diag
		msg, _, _ := strings.Cut(d.Msg, "\n")
		warning := d.Severity == lang.Warning
		if je.File == "" && !warning && d.Pos.Line > 0 {
			// The first positioned error is the one to fix first.
			je.File, je.Line, je.Column, je.Code, je.Error = d.Pos.File, d.Pos.Line, d.Pos.Col, d.Code, msg
		}
		for _, t := range strings.Split(d.String(), "\n") {
			if t = strings.TrimSpace(t); t != "" {
				note(t, warning)
			}
		}
	}
	flush()
	if je.Error == "" {
		je.Error = firstError
	}
	if je.Error == "" && len(msgs) > 0 {
		je.Error = msgs[0]
	}
	if je.Error == "" {
		je.Error = fmt.Sprintf("failed with exit code %d", exit)
	}
	if len(msgs) > 1 {
		je.Messages = msgs
	}
	return je
}

// stderrMessages splits a command's plain stderr text into its messages:
// the trimmed non-empty lines, without usage blocks (the synopsis and the
// flag listing under it).
func stderrMessages(stderr string) []string {
	var msgs []string
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "usage:") || strings.HasPrefix(t, "Run 'vigil help"):
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t") || strings.HasPrefix(lines[i+1], "Run 'vigil help")) {
				i++
			}
			continue
		}
		msgs = append(msgs, t)
	}
	return msgs
}
