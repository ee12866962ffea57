package cert

import (
	"compress/gzip"
	"errors"
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
}

// Create creates the certificate file path (truncating it).
func Create(path string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	cf := &File{f: f, w: f, path: path}
	if strings.HasSuffix(path, ".gz") {
		cf.zw = gzip.NewWriter(f)
		cf.w = cf.zw
	}
	return cf, nil
}

func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// Close ends the compressed stream, if any, and closes the file; on an
// error the file is removed.
func (f *File) Close() error {
	var err error
	if f.zw != nil {
		err = f.zw.Close()
	}
	err = errors.Join(err, f.f.Close())
	if err != nil {
		os.Remove(f.path)
	}
	return err
}

// Abort closes and removes the file (a certificate that could not be
// written whole must not be left behind half-written).
func (f *File) Abort() {
	f.f.Close()
	os.Remove(f.path)
}
