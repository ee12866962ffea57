package inputfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// TestReview18bLimitEdges: a file or a stream of exactly the limit reads
// whole and equal, one byte more is refused, whatever the reads' sizes
// (a stream is read in pieces, a regular file in one buffer of its size).
func TestReview18bLimitEdges(t *testing.T) {
	defer func(l int64) { limit = l }(limit)
	limit = 3*chunk + 17
	data := make([]byte, limit+1)
	for i := range data {
		data[i] = byte(i * 7)
	}
	dir := t.TempDir()
	for _, n := range []int64{0, 1, chunk - 1, chunk, chunk + 1, limit - 1, limit, limit + 1} {
		want := data[:n]
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		streams := map[string]io.Reader{
			"stream":     bytes.NewReader(want),
			"one byte":   iotest.OneByteReader(bytes.NewReader(want)),
			"half reads": iotest.HalfReader(bytes.NewReader(want)),
			"data + EOF": iotest.DataErrReader(bytes.NewReader(want)),
		}
		for name, r := range streams {
			b, err := ReadAll(r, "s")
			check(t, name, n, want, b, err)
		}
		b, err := ReadFile(p)
		check(t, "file", n, want, b, err)
	}
}

func check(t *testing.T, how string, n int64, want, b []byte, err error) {
	t.Helper()
	if n > limit {
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			t.Errorf("%s of %d bytes (limit %d): %v", how, n, limit, err)
		}
		return
	}
	if err != nil || !bytes.Equal(b, want) {
		t.Errorf("%s of %d bytes: %d bytes read, equal %v, %v", how, n, len(b), bytes.Equal(b, want), err)
	}
}

// A reader's error other than the end is returned as it is.
func TestReview18bReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(bytes.NewReader(make([]byte, 2*chunk+5)), iotest.ErrReader(boom))
	if _, err := ReadAll(r, "s"); !errors.Is(err, boom) {
		t.Errorf("got %v", err)
	}
}

// A directory's read error names it once, as os.ReadFile's does: "read
// d: is a directory", not "read d: read d: is a directory".
func TestReview18bDirectory(t *testing.T) {
	d := t.TempDir()
	_, err := ReadFile(d)
	_, want := os.ReadFile(d)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("ReadFile(directory): %v, os.ReadFile: %v", err, want)
	}
}
