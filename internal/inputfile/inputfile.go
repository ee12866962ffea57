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
	var size int64 // a regular file's size: read into one buffer of it
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, &TooLargeError{Name: path}
		}
		size = fi.Size()
	}
	b, err := readAll(f, path, size)
	// os.File's read errors name the file already ("read d: is a
	// directory"); wrapping them again said "read d: read d: ...".
	if err != nil && !errors.As(err, new(*TooLargeError)) && !errors.As(err, new(*os.PathError)) {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	return b, err
}

// ReadAll reads r to its end as io.ReadAll does, refusing more than Max
// bytes with a *TooLargeError that calls the input name (give "" when the
// caller's error names it).
func ReadAll(r io.Reader, name string) ([]byte, error) {
	return readAll(r, name, 0)
}

// chunk is the largest piece readAll reads a stream in.
const chunk = 1 << 20

// readAll reads r as ReadAll does, into one buffer when size (a regular
// file's size, 0 when unknown) is right. Otherwise, or beyond it, r is
// read in pieces of at most chunk bytes, joined once at its end: io.ReadAll
// grows one buffer by copying it, so that an endless stream held about
// 1.3 GB (the last buffer and the copies not yet collected) before it was
// refused at 512 MiB; the pieces hold no more than the limit.
func readAll(r io.Reader, name string, size int64) ([]byte, error) {
	lr := io.LimitReader(r, limit+1)
	// a regular file's size is read with one byte more, to see its end
	b := make([]byte, 0, min(size, limit)+1)
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			break // larger than its size said, or a stream: in pieces
		}
	}
	pieces := [][]byte{b}
	total := int64(len(b))
	for {
		// Pieces grow with what was read (4 KiB, then the total so far)
		// up to chunk: a small stream, as a certificate checked from
		// memory, costs no 1 MiB piece (the safety conformance suite,
		// which checks thousands, took 10x longer with them).
		p := make([]byte, min(chunk, max(4096, total)))
		n, err := io.ReadFull(lr, p)
		pieces = append(pieces, p[:n])
		total += int64(n)
		if total > limit {
			return nil, &TooLargeError{Name: name}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, total)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}

// Special names what a file that is not a regular file is (a pipe, a
// device, a socket, a directory), for the callers that read a file more
// than once and so must refuse one that gives its bytes only once or
// blocks; "" for a regular file.
func Special(fi os.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a pipe (as <(...) or mkfifo make)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
