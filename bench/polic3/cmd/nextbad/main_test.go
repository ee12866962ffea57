package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestNp2x3 counts on the 2x3 puzzle, where BFS decides: the safe-trained
// network never moves a tile onto its forbidden cell, the unsafe-trained
// one does in 36 of the 90 placements next to them.
func TestNp2x3(t *testing.T) {
	for _, c := range []struct {
		policy, want string
	}{
		{"np2x3_16x16_safe", "np2x3_16x16_safe: 0 of 90 placements"},
		{"np2x3_16x16_unsafe", "np2x3_16x16_unsafe: 36 of 90 placements"},
	} {
		out := capture(t, func() error {
			return run("../../npuzzle.spec", defines{"R": "2", "C": "3"}, c.policy)
		})
		if !strings.Contains(out, c.want) {
			t.Errorf("%s: want %q in\n%s", c.policy, c.want, out)
		}
	}
}

func TestNotNpuzzle(t *testing.T) {
	err := run("../../transport.spec", defines{}, "tr1_16x16_safe")
	if err == nil {
		t.Fatal("transport.spec accepted as an npuzzle model")
	}
}

func capture(t *testing.T, f func() error) string {
	t.Helper()
	old := os.Stdout
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = w
	done := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, r)
		done <- b.String()
	}()
	ferr := f()
	w.Close()
	os.Stdout = old
	out := <-done
	if ferr != nil {
		t.Fatal(ferr)
	}
	return out
}
