// Package certpath is how vigil's certificates (safety certificates and
// invariant certificates alike) record the files they are about, so that
// they check from any current directory, and from a new place when moved
// together with their model (relative paths) or alone (an absolute
// fallback): Record writes the paths, Locate finds them again.
// Certificates written before this recorded paths as given on the command
// line; those are tried from the current directory and then from the
// certificate's directory.
package certpath

import (
	"os"
	"path/filepath"
	"strings"
)

// Record turns paths given on the command line into the form a
// certificate at certPath records: relative to the certificate's
// directory where possible (absolute otherwise). dir is that directory,
// absolute, for the certificate's fallback. Empty paths stay empty.
func Record(certPath string, paths ...*string) (dir string, err error) {
	abs, err := filepath.Abs(certPath)
	if err != nil {
		return "", err
	}
	dir = filepath.Dir(abs)
	for _, p := range paths {
		if *p == "" {
			continue
		}
		ap, err := filepath.Abs(*p)
		if err != nil {
			return "", err
		}
		if rel, err := filepath.Rel(dir, ap); err == nil {
			*p = filepath.ToSlash(rel)
		} else {
			*p = ap
		}
	}
	return dir, nil
}

// Try is one place Locate looked for a file, and why there.
type Try struct {
	Path string
	Why  string // "as recorded", "beside the certificate", ...
}

// NotFoundError is Locate's error: no place it tried holds the file.
type NotFoundError struct {
	Cert     string // the certificate's path
	What     string // the kind of file: model, start, unsafe, policy
	Recorded string // the path the certificate records
	Looked   []Try  // every place tried, in order
}

func (e *NotFoundError) Error() string {
	var looked []string
	for _, t := range e.Looked {
		looked = append(looked, t.Path+" ("+t.Why+")")
	}
	return e.Cert + " records " + e.What + " file " + e.Recorded + ", which is not found: looked for " + strings.Join(looked, " and ")
}

// Locate finds a file (of kind what) that a certificate at certPath
// records as recorded, the certificate having been written in directory
// written ("" for older certificates). It returns the path to load, or a
// *NotFoundError naming every place it looked.
func Locate(what, recorded, certPath, written string) (string, error) {
	here := filepath.Dir(certPath)
	var tries []Try
	switch {
	case filepath.IsAbs(recorded):
		tries = []Try{{recorded, "as recorded"}}
	case written != "":
		tries = []Try{{filepath.Join(here, recorded), "beside the certificate"},
			{filepath.Join(written, recorded), "where the certificate was written"}}
	default: // an older certificate: paths as given to the command that wrote it
		tries = []Try{{recorded, "from the current directory"},
			{filepath.Join(here, recorded), "from the certificate's directory"}}
	}
	nf := &NotFoundError{Cert: certPath, What: what, Recorded: recorded}
	seen := map[string]bool{}
	for _, t := range tries {
		if seen[filepath.Clean(t.Path)] {
			continue
		}
		seen[filepath.Clean(t.Path)] = true
		if fi, err := os.Stat(t.Path); err == nil && !fi.IsDir() {
			return t.Path, nil
		}
		nf.Looked = append(nf.Looked, t)
	}
	return "", nf
}
