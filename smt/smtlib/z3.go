package smtlib

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrNoZ3 is returned by RunZ3 when no z3 binary is on PATH.
var ErrNoZ3 = errors.New("z3 binary not found; apt-get install z3")

// Z3Path returns the path of the z3 binary on PATH, or ErrNoZ3.
func Z3Path() (string, error) {
	p, err := exec.LookPath("z3")
	if err != nil {
		return "", ErrNoZ3
	}
	return p, nil
}

// RunZ3 runs the z3 binary on file with args before it (e.g. "-T:60")
// and returns what it printed on standard output. A non-zero exit (Z3
// exits 1 when the file has an error) is an error that quotes Z3's first
// (error ...) line; stdout is returned with it. Cancelling ctx kills z3.
func RunZ3(ctx context.Context, file string, args ...string) (string, error) {
	z3, err := Z3Path()
	if err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, z3, append(append([]string(nil), args...), file)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	out := stdout.String()
	if err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("z3 %s: %w", file, context.Cause(ctx))
		}
		msg := strings.TrimSpace(stderr.String())
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "(error") {
				msg = l
				break
			}
		}
		if msg == "" {
			msg = strings.TrimSpace(out)
		}
		return out, fmt.Errorf("z3 %s: %v: %s", file, err, msg)
	}
	return out, nil
}
