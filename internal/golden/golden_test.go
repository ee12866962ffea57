package golden

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCompare: a section that differs, one not produced and one not in
// the archive are reported; with update they are rewritten, removed and
// added, and a second comparison finds nothing.
func TestCompare(t *testing.T) {
	ar := txtar.Parse([]byte("-- in --\nx\n-- want/a --\nold\n-- want/b --\ngone\n"))
	got := map[string][]byte{"want/a": []byte("new\n"), "want/c": []byte("added\n")}
	var msgs []string
	rec := func(format string, args ...any) { msgs = append(msgs, fmt.Sprintf(format, args...)) }
	if compare(rec, ar, got, false) {
		t.Fatal("compare without update changed the archive")
	}
	if len(msgs) != 3 || !strings.HasPrefix(msgs[0], "want/a differs") || !strings.HasPrefix(msgs[1], "want/b is in the archive but not produced") || !strings.HasPrefix(msgs[2], "want/c is produced but not in the archive") {
		t.Errorf("reports: %q", msgs)
	}
	if !compare(t.Errorf, ar, got, true) {
		t.Fatal("compare with update left the archive as it was")
	}
	want := "-- in --\nx\n-- want/a --\nnew\n-- want/c --\nadded\n"
	if s := string(txtar.Format(ar)); s != want {
		t.Fatalf("updated archive:\n%s\nwant:\n%s", s, want)
	}
	if compare(t.Errorf, ar, got, false) {
		t.Fatal("the updated archive still differs")
	}
}
