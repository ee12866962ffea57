package batch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// s32kParse parses src as an experiment in bench/ and returns the
// bytes Parse allocated and its error.
func s32kParse(t *testing.T, src string) (uint64, error) {
	t.Helper()
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := Parse(filepath.Join("..", "bench", "s32k.toml"), []byte(src))
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, err
}

// TestS32kCommandArgs (review of s32-fuzz's MaxCommandBytes): the bound
// on the runs' expanded arguments counted their bytes after each run's
// arguments were built, so (1) one run's own expansion was unbounded: a
// 124 KB file whose algorithm names {name} 4000 times in one argument,
// with an instance name of 100 KB, allocated 2.5 GB before the bound
// refused it (a 1 MB file of the kind asks for some 35 GB); (2) empty
// strings count no bytes: an instance's args list of 3000 empty strings
// named 3000 times ({args}) by an algorithm, a 42 KB file, was accepted
// as one run of 9 million arguments (825 MiB, 4 s). Both are now
// refused, naming the algorithm's args line, before anything is built.
func TestS32kCommandArgs(t *testing.T) {
	var name strings.Builder
	fmt.Fprintf(&name, "name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"%s\"]\n", strings.Repeat("{name}", 4000))
	fmt.Fprintf(&name, "[[instances]]\nname = \"%s\"\nmodels = [\"../specs/oneway.spec\"]\n", strings.Repeat("a", 100000))
	var list strings.Builder
	fmt.Fprintf(&list, "name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"check\"%s]\n", strings.Repeat(", \"{args}\"", 3000))
	fmt.Fprintf(&list, "[[instances]]\nmodels = [\"../specs/oneway.spec\"]\nargs = [%s\"\"]\n", strings.Repeat("\"\", ", 2999))
	for _, c := range []struct{ name, src, want string }{
		{"name", name.String(), "the arguments of the experiment's runs add up to more than 64 MiB once {...} is expanded (run 1, a/specs/" + strings.Repeat("a", 100000) + ", has 400000005 bytes of them)"},
		{"list", list.String(), "the experiment's runs have more than 4194304 arguments in all once {...} is expanded (run 1, a/specs/oneway, has 9000001 of them)"},
	} {
		alloc, err := s32kParse(t, c.src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) || e.Line != 4 {
			t.Errorf("%s: got %.300v; want a positioned error at line 4 containing %.300q", c.name, err, c.want)
		}
		if alloc > 256<<20 {
			t.Errorf("%s: Parse allocated %d MiB before refusing", c.name, alloc>>20)
		}
	}
}

// TestS32kExpandSize: expandSize, which bounds a run's arguments before
// they are built, is the size of what expand builds, on random
// arguments mixing placeholders, lists, {policy} and {run_dir}.
func TestS32kExpandSize(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 0x532b))
	names := []string{"model", "policy", "property", "name", "rep", "run_dir", "defines", "args", "nosuch", ""}
	for it := range 20000 {
		vars := map[string]string{}
		for _, v := range []string{"model", "policy", "property", "name", "rep"} {
			if r.IntN(4) != 0 {
				vars[v] = strings.Repeat("v", r.IntN(5))
			}
		}
		lists := map[string][]string{}
		for _, l := range []string{"defines", "args"} {
			var xs []string
			for range r.IntN(4) {
				xs = append(xs, strings.Repeat("x", r.IntN(3)))
			}
			lists[l] = xs
		}
		var args []string
		for range r.IntN(6) {
			var b strings.Builder
			for range r.IntN(4) {
				switch r.IntN(4) {
				case 0:
					b.WriteString("-")
				case 1:
					b.WriteString("{" + names[r.IntN(len(names))] + "}")
				case 2:
					b.WriteString("{{")
				default:
					b.WriteString("}x")
				}
			}
			args = append(args, b.String())
		}
		out, err := expand(args, vars, lists)
		if err != nil {
			continue
		}
		n := 0
		for _, s := range out {
			n += len(s)
		}
		if bytes, nargs := expandSize(args, vars, lists); bytes != n || nargs != len(out) {
			t.Fatalf("case %d: expandSize %d bytes, %d arguments; expand built %d, %d: %q with %v %v", it, bytes, nargs, n, len(out), args, vars, lists)
		}
	}
}
