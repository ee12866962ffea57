package main

// Certificates travel (package internal/certpath); this file says so in
// the words of the command line.

import (
	"errors"
	"fmt"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/internal/certpath"
)

// locate finds a file a certificate at certPath records (certpath.Locate),
// or says every place it looked and the flag that gives the file.
func locate(what, recorded, certPath, written string) (string, error) {
	p, err := certpath.Locate(what, recorded, certPath, written)
	nf, ok := errors.AsType[*certpath.NotFoundError](err)
	if !ok {
		return p, err
	}
	var looked []string
	for _, t := range nf.Looked {
		looked = append(looked, fmt.Sprintf("%s (%s)", invcert.Quote(t.Path), t.Why))
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
