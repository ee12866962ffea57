package batch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// s32zArgs is an experiment of nalg algorithms whose argument is k
// bytes and {model}, on one model, with reps repetitions.
func s32zArgs(nalg, k, reps int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"x\"\nrepetitions = %d\n", reps)
	for i := 0; i < nalg; i++ {
		fmt.Fprintf(&b, "[[algorithms]]\nname = \"a%d\"\nargs = [\"check\", \"%s\"]\n", i, strings.Repeat("x", k)+"{model}")
	}
	b.WriteString("[[instances]]\nmodels = [\"../specs/oneway.spec\"]\n")
	return []byte(b.String())
}

// TestS32zCommandBytes: the runs' expanded arguments are bounded in all
// (MaxCommandBytes). Each run holds its own: a 26 KB file (100 algorithms
// naming {model} 30 times, 10000 repetitions) expanded to 1000000 runs
// of 600 bytes, 2.4 GB, before anything ran. The error names the
// algorithm whose arguments passed the bound, at its line.
func TestS32zCommandBytes(t *testing.T) {
	path := filepath.Join("..", "bench", "s32z.toml")
	// 10 algorithms of 60 KB of arguments per run, 200 repetitions:
	// 2000 runs, 120 MB
	_, err := Parse(path, s32zArgs(10, 60000, 200))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a positioned *Error", err)
	}
	want := "the arguments of the experiment's runs add up to more than 64 MiB once {...} is expanded (run 1119, a5/specs/oneway/rep-119, has 60025 bytes of them)"
	if !strings.Contains(err.Error(), want) || e.Line != 5+5*3 {
		t.Fatalf("got %v (line %d); want line 20 and %q", err, e.Line, want)
	}
	// below the bound: 1000 runs of 60 KB
	x, err := Parse(path, s32zArgs(5, 60000, 200))
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Runs) != 1000 || len(x.Runs[999].Args[1]) != 60020 {
		t.Fatalf("%d runs, the last with %d bytes of argument; want 1000 of 60020", len(x.Runs), len(x.Runs[999].Args[1]))
	}
}
