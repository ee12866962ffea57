package syntax

import (
	"strings"
	"testing"
)

// TestRenderLongLine: a source line longer than maxShown is cut to a
// window around the caret, and the caret still points at the column.
func TestRenderLongLine(t *testing.T) {
	src := "const C = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n"
	_, ds := Parse("deep.spec", []byte(src))
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got %v", ds)
	}
	out := ds.Render()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got:\n%s", out)
	}
	if len(lines[1]) > maxShown+20 {
		t.Fatalf("source line not cut (%d bytes)", len(lines[1]))
	}
	if !strings.HasPrefix(lines[0], "deep.spec:1:1011: error[E0001]: expression nested too deeply") {
		t.Fatalf("unexpected message %q", lines[0])
	}
	// the caret is under the column the message names: the window starts
	// at column 1011-60 behind "...", and the line and caret rows share the
	// " 1 | " prefix
	caret := strings.IndexByte(lines[2], '^')
	if caret != len(" 1 | ")+len("...")+maxShown/2 {
		t.Fatalf("caret at %d:\n%s", caret, out)
	}
	if lines[1][caret] != '(' {
		t.Fatalf("caret under %q:\n%s", lines[1][caret], out)
	}
	// short lines are shown whole
	_, ds = Parse("short.spec", []byte("const C = (1 2\n"))
	if !strings.Contains(ds.Render(), " 1 | const C = (1 2\n") {
		t.Fatalf("short line cut:\n%s", ds.Render())
	}
}
