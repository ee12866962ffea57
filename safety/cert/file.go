package cert

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"strings"
)

// WriteFile writes c to the file path, gzip-compressed when path ends in
// .gz (Read takes both). The certificate is encoded as it is written (see
// Encoder); on an error the file is removed.
func WriteFile(path string, c *Certificate) error {
	if err := validate(c); err != nil {
		return err
	}
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, c); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// File is a certificate file being written, gzip-compressed when its path
// ends in .gz. Write to it (an Encoder's writer), then Close it, or Abort
// it on an error.
type File struct {
	f    *os.File
	zw   *gzip.Writer // nil: not compressed
	w    io.Writer
	path string
	// regular: f is a regular file, which a failed write may remove (a
	// certificate "file" may be /dev/stdout, /dev/null or a pipe, which
	// a failure must leave alone: os.Remove of /dev/stdout or /dev/full
	// as root deleted the device's name)
	regular bool
}

// Create creates the certificate file path (truncating it), compressed
// when path ends in .gz.
func Create(path string) (*File, error) { return create(path, strings.HasSuffix(path, ".gz")) }

// CreatePlain creates the file path (truncating it) as Create does, never
// compressed: a certificate of another format (vigil verify's SMT-LIB2
// invariants) with Abort's care for what path names.
func CreatePlain(path string) (*File, error) { return create(path, false) }

func create(path string, compress bool) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	cf := &File{f: f, w: f, path: path}
	if st, err := f.Stat(); err == nil {
		cf.regular = st.Mode().IsRegular()
	}
	if compress {
		cf.zw = gzip.NewWriter(f)
		cf.w = cf.zw
	}
	return cf, nil
}

func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// Close ends the compressed stream, if any, and closes the file; on an
// error the file is removed (discard).
func (f *File) Close() error {
	var err error
	if f.zw != nil {
		err = f.zw.Close()
	}
	if err != nil {
		f.discard()
		return err
	}
	if err = f.f.Close(); err != nil {
		f.discard()
	}
	return err
}

// Abort closes and removes the file (a certificate that could not be
// written whole must not be left behind half-written; see discard).
func (f *File) Abort() { f.discard() }

// discard closes f and removes what was written: the file when path
// still names it (not a symbolic link to it, whose target is emptied
// instead, leaving the link); a device or a pipe is left alone.
func (f *File) discard() {
	defer f.f.Close()
	if !f.regular {
		return
	}
	st, err := f.f.Stat()
	lst, lerr := os.Lstat(f.path)
	if err == nil && lerr == nil && os.SameFile(st, lst) {
		os.Remove(f.path)
		return
	}
	f.f.Truncate(0)
}

// Stopping returns a writer that writes to w until ctx ends, then fails
// with ctx.Err() (which stays: a stop while a certificate is written is
// told from a write error by errors.Is(err, ctx.Err())). Put a buffer
// above it: ctx is then checked once a buffer, not once a small write.
func Stopping(ctx context.Context, w io.Writer) io.Writer { return &stopWriter{ctx, w} }

type stopWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s *stopWriter) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}
