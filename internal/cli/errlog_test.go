package cli

import (
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// TestJSONErrorSkipsNotices: the "error" of a --json error object is the
// error, not a warning or note the command printed before it.
func TestJSONErrorSkipsNotices(t *testing.T) {
	warn := lang.Diagnostic{Pos: symbolic.Pos{File: "m.jani#properties[3]", Line: 19, Col: 5}, Severity: lang.Warning, Code: "W0901", Msg: `property "soon" not imported`}
	undeclared := lang.Diagnostic{Pos: symbolic.Pos{File: "a.spec", Line: 3, Col: 4}, Code: "E0101", Msg: "undeclared name y"}
	text := func(s string) logEntry { return logEntry{text: s} }
	notice := func(s string) logEntry { return logEntry{text: s, notice: true} }
	for n, c := range []struct {
		log  []logEntry
		want JSONError
	}{
		{[]logEntry{{diag: &warn}, text("vigil prob: model m has no property \"x\"\n")},
			JSONError{Error: `vigil prob: model m has no property "x"`, Exit: 1, Messages: []string{warn.String(), `vigil prob: model m has no property "x"`}}},
		{[]logEntry{notice("vigil: warning: the name \"\\u0430\" has characters outside ASCII"), text("vigil verify: no policy\n")},
			JSONError{Error: "vigil verify: no policy", Exit: 1, Messages: []string{`vigil: warning: the name "\u0430" has characters outside ASCII`, "vigil verify: no policy"}}},
		{[]logEntry{notice("vigil prob: note: at most 2^40 states"), text("vigil prob: out of memory\n")},
			JSONError{Error: "vigil prob: out of memory", Exit: 1, Messages: []string{"vigil prob: note: at most 2^40 states", "vigil prob: out of memory"}}},
		{[]logEntry{notice("a.spec:2:1: note: the transient variable t is dropped"), {diag: &undeclared}},
			JSONError{Error: "undeclared name y", File: "a.spec", Line: 3, Column: 4, Code: "E0101", Exit: 1, Messages: []string{"a.spec:2:1: note: the transient variable t is dropped", undeclared.String()}}},
		{[]logEntry{notice("vigil prob: note: only a note")}, JSONError{Error: "vigil prob: note: only a note", Exit: 1}},
		// Text is never read for its severity: only what a command
		// printed with notice is a notice.
		{[]logEntry{text("vigil x: bad file: warning: not a notice\n"), notice("vigil x: note: a note")},
			JSONError{Error: "vigil x: bad file: warning: not a notice", Exit: 1, Messages: []string{"vigil x: bad file: warning: not a notice", "vigil x: note: a note"}}},
		{[]logEntry{text("usage: vigil x FILE\n  -flag\n\tdoc\n"), text("vigil x: no files\n")}, JSONError{Error: "vigil x: no files", Exit: 1}},
		{nil, JSONError{Error: "failed with exit code 1", Exit: 1}},
	} {
		l := &errorLog{entries: c.log}
		got := l.jsonError(1)
		if got.Error != c.want.Error || got.File != c.want.File || got.Line != c.want.Line || got.Column != c.want.Column || got.Code != c.want.Code || got.Exit != c.want.Exit || len(got.Messages) != len(c.want.Messages) {
			t.Errorf("case %d: jsonError = %+v, want %+v", n, got, c.want)
			continue
		}
		for i := range got.Messages {
			if got.Messages[i] != c.want.Messages[i] {
				t.Errorf("case %d: Messages[%d] = %q, want %q", n, i, got.Messages[i], c.want.Messages[i])
			}
		}
	}
}
