package cert

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
)

// WriteFile writes c to the file path, gzip-compressed when path ends in
// .gz (Read takes both).
func WriteFile(path string, c *Certificate) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	err = Write(w, c)
	if zw != nil && err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
