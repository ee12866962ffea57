package main

// Certificates travel: a certificate records the files it is about
// relative to its own directory, plus that directory's absolute path at
// the time of writing, so that it checks from any current directory, and
// from a new place when it is moved together with its model (the relative
// paths) or alone (the absolute fallback). Certificates written before
// this recorded paths as given on the command line; those are tried from
// the current directory and then from the certificate's directory.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	invcert "vigil/ic3/cert"
)

// certPaths turns paths given on the command line into the form a
// certificate at certPath records: relative to the certificate's
// directory where possible (absolute otherwise). dir is that directory,
// absolute, for the header's fallback. Empty paths stay empty.
func certPaths(certPath string, paths ...*string) (dir string, err error) {
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

// locate finds a file a certificate at certPath records as recorded, the
// certificate having been written in directory written ("" for older
// certificates). It returns the path to load, or an error that names every
// place it looked.
func locate(what, recorded, certPath, written string) (string, error) {
	here := filepath.Dir(certPath)
	type try struct{ path, why string }
	var tries []try
	switch {
	case filepath.IsAbs(recorded):
		tries = []try{{recorded, "as recorded"}}
	case written != "":
		tries = []try{{filepath.Join(here, recorded), "beside the certificate"},
			{filepath.Join(written, recorded), "where the certificate was written"}}
	default: // an older certificate: paths as given to the command that wrote it
		tries = []try{{recorded, "from the current directory"},
			{filepath.Join(here, recorded), "from the certificate's directory"}}
	}
	var looked []string
	seen := map[string]bool{}
	for _, t := range tries {
		if seen[filepath.Clean(t.path)] {
			continue
		}
		seen[filepath.Clean(t.path)] = true
		if fi, err := os.Stat(t.path); err == nil && !fi.IsDir() {
			return t.path, nil
		}
		looked = append(looked, fmt.Sprintf("%s (%s)", invcert.Quote(t.path), t.why))
	}
	return "", fmt.Errorf("%s records %s file %s, which is not found: looked for %s; give it with %s",
		invcert.Quote(certPath), what, invcert.Quote(recorded), strings.Join(looked, " and "), flagFor(what))
}

// flagFor names the flag that overrides a recorded file.
func flagFor(what string) string {
	switch what {
	case "start":
		return "--start"
	case "unsafe":
		return "--unsafe"
	case "policy":
		return "--policy-file"
	}
	return "--spec"
}
