package cert

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// repeat is an io.Reader of n copies of the byte c.
type repeat struct {
	c byte
	n int64
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= k
	return int(k), nil
}

// A value longer than maxValue is refused where it starts, before the
// decoder holds it whole: a 400 KB gzip certificate whose "spec" was a
// 400 MB string took 1.4 GB of memory (session 31's fuzzing). Entries of
// a certificate, however many, are read one at a time as before.
func TestS31zValueTooLarge(t *testing.T) {
	for want, parts := range map[string][3]string{
		"spec: the value that starts at byte 47 ":       {`{"format": "vigil-safety-certificate", "spec": "`, "a", `"}`},
		"entries[1]: the value that starts at byte 25 ": {`{"entries": [{"s": [0]}, {"s": [`, "1", `]}]}`},
		"the value that starts at byte 1 ":              {`{"`, "k", `": 1}`},
	} {
		r := io.MultiReader(strings.NewReader(parts[0]), &repeat{parts[1][0], maxValue + 1}, strings.NewReader(parts[2]))
		_, err := Read(r)
		var ce *Error
		if !errors.As(err, &ce) || !errors.Is(err, errValueTooLarge) || !strings.HasPrefix(ce.Msg, want+"is longer than 64 MiB") {
			t.Errorf("%v, want %q", err, want)
		}
	}
	// just under the bound, a long string reads; the header's check
	// then names the field it is in
	var b bytes.Buffer
	b.WriteString(`{"format": "x", "spec": "`)
	b.Write(bytes.Repeat([]byte("a"), 1<<20))
	b.WriteString(`"}`)
	if _, err := Read(&b); err == nil || !strings.Contains(err.Error(), `format "x"`) {
		t.Errorf("a 1 MiB spec: %v, want the format refused", err)
	}
}

// The bound is per value: a certificate read through more than maxValue
// bytes of short values (here 80 entries, each after 1 MiB of white
// space) is not refused for its length.
func TestS31zLongCertificateOfShortValues(t *testing.T) {
	var parts []io.Reader
	parts = append(parts, strings.NewReader(`{"entries": [`))
	for i := range 80 {
		if i > 0 {
			parts = append(parts, strings.NewReader(","))
		}
		parts = append(parts, &repeat{' ', 1 << 20}, strings.NewReader(`{"s": [0]}`))
	}
	parts = append(parts, strings.NewReader(`], "format": "x"}`))
	_, err := Read(io.MultiReader(parts...))
	if errors.Is(err, errValueTooLarge) || err == nil || !strings.Contains(err.Error(), `format "x"`) {
		t.Errorf("%v, want the header's format refused after the entries", err)
	}
}
