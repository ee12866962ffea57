package smt

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The allocator's set-up (malloc.go) is chosen at process start from
// VIGIL_Z3_MALLOC, so each mode runs in a process of its own. Every mode
// must report the state it asked for and give the same answers, models
// and cores: the set-up moves Z3's memory, never what Z3 computes.
func TestMallocModes(t *testing.T) {
	if os.Getenv("VIGIL_MALLOC_CHILD") != "" {
		mallocChild(t)
		return
	}
	// What each mode may report after a context: a kernel without
	// transparent huge pages refuses the advice and leaves "heap".
	want := map[string][]string{
		"":        {"heap+huge", "heap+huge+4k", "heap"},
		"huge":    {"heap+huge", "heap"},
		"heap":    {"heap"},
		"default": {"off"},
	}
	var first string
	for _, mode := range []string{"", "huge", "heap", "default"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMallocModes$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "VIGIL_MALLOC_CHILD=1", "VIGIL_Z3_MALLOC="+mode)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("VIGIL_Z3_MALLOC=%q: %v\n%s", mode, err, out)
		}
		tuning, answers, ok := childReport(string(out))
		if !ok {
			t.Fatalf("VIGIL_Z3_MALLOC=%q: no report in the child's output:\n%s", mode, out)
		}
		if !oneOf(tuning, want[mode]) {
			t.Errorf("VIGIL_Z3_MALLOC=%q: MallocTuning() = %q, want one of %q", mode, tuning, want[mode])
		}
		if first == "" {
			first = answers
		} else if answers != first {
			t.Errorf("VIGIL_Z3_MALLOC=%q: answers %s, want %s as in the default mode", mode, answers, first)
		}
	}
}

// mallocChild makes two contexts one after the other (as a checked
// verdict does), decides a few questions in each and prints the tuning
// state and the answers.
func mallocChild(t *testing.T) {
	var answers []string
	for range 2 {
		x := newCtx(t)
		s := newSolver(t, x)
		a, b := x.IntConst("a"), x.IntConst("b")
		p, q := x.BoolConst("p"), x.BoolConst("q")
		must(t, s.Assert(x.Eq(x.Add(a, x.MulK(3, b)), x.Int(10))))
		must(t, s.Assert(x.Implies(p, x.Gt(b, x.Int(2)))))
		must(t, s.Assert(x.Implies(q, x.Lt(b, x.Int(0)))))
		must(t, s.Assert(x.Ge(a, x.Int(0))))
		r, err := s.Check(p)
		must(t, err)
		var v [2]int64
		if r == Sat {
			must(t, s.Eval([]Term{a, b}, v[:]))
		}
		r2, err := s.Check(p, q)
		must(t, err)
		var core []int
		if r2 == Unsat {
			core, err = s.Core()
			must(t, err)
		}
		answers = append(answers, fmt.Sprintf("%v a=%d b=%d %v core=%v", r, v[0], v[1], r2, core))
		x.Close()
	}
	fmt.Printf("malloc-tuning=%s\nanswers=%s\n", MallocTuning(), strings.Join(answers, "; "))
}

// childReport reads mallocChild's two lines out of the child's output.
func childReport(out string) (tuning, answers string, ok bool) {
	var seen int
	for _, line := range strings.Split(out, "\n") {
		if v, found := strings.CutPrefix(line, "malloc-tuning="); found {
			tuning, seen = v, seen|1
		}
		if v, found := strings.CutPrefix(line, "answers="); found {
			answers, seen = v, seen|2
		}
	}
	return tuning, answers, seen == 3
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
