// Package inputfile reads the files vigil takes as input (models, networks,
// ensembles, properties, certificates, run files) whole, up to a limit:
// without one, a device such as /dev/zero, an endless pipe or a file of
// many gigabytes given by mistake is read until memory runs out, and vigil
// dies with Go's "fatal error: out of memory" instead of saying which
// file it was.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Max is the most bytes an input file may hold: 512 MiB, far above any
// model, network or certificate vigil can decide.
const Max = 512 << 20

// limit is Max, lowered by the tests.
var limit int64 = Max

// TooLargeError is the error of an input of more than Max bytes.
type TooLargeError struct {
	// Name is the file's path ("" when the caller names it).
	Name string
}

func (e *TooLargeError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("more than %d MiB (or endless, as a device or a pipe can be); vigil reads its inputs whole: is it the right file?", limit>>20)
	}
	return fmt.Sprintf("%s: more than %d MiB (or endless, as a device or a pipe can be); vigil reads its inputs whole: is it the right file?", e.Name, limit>>20)
}

// ReadFile reads the file at path as os.ReadFile does, refusing one of
// more than Max bytes with a *TooLargeError; a regular file's size is
// checked before it is read.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &TooLargeError{Name: path}
	}
	b, err := ReadAll(f, path)
	if err != nil && !errors.As(err, new(*TooLargeError)) {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	return b, err
}

// ReadAll reads r to its end as io.ReadAll does, refusing more than Max
// bytes with a *TooLargeError that calls the input name (give "" when the
// caller's error names it).
func ReadAll(r io.Reader, name string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Name: name}
	}
	return b, nil
}
