package smt

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// vmRSS returns the process's resident set in KiB (/proc/self/status),
// or -1 where there is no such file.
func vmRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			k, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return k
			}
		}
	}
	return -1
}

// TestS29mLiveCounts checks LiveContexts' bookkeeping: a context and its
// solvers count until they are closed, whichever way (Solver.Close, the
// context's Close, both, twice), and a solver's recycling (a fresh Z3
// solver for the old one) does not change the count.
func TestS29mLiveCounts(t *testing.T) {
	quiesce(t)
	c0, s0 := LiveContexts()
	want := func(what string, dc, ds int) {
		t.Helper()
		if c, s := LiveContexts(); c != c0+dc || s != s0+ds {
			t.Fatalf("%s: %d contexts and %d solvers alive, want %d and %d", what, c, s, c0+dc, s0+ds)
		}
	}
	x, err := NewContext()
	must(t, err)
	want("a context", 1, 0)
	a, err := x.NewSolver()
	must(t, err)
	b, err := x.NewOneShotSolver()
	must(t, err)
	want("two solvers", 1, 2)
	must(t, a.SetParams(Param{"relevancy", "0"}))
	a.SetRecycle(1)
	p := x.IntConst("p")
	for i := range 3 {
		must(t, a.Assert(x.Ge(p, x.Int(int64(i)))))
		if r, err := a.Check(); err != nil || r != Sat {
			t.Fatalf("check %d: %v %v", i, r, err)
		}
	}
	if a.Recycles == 0 {
		t.Fatal("the solver was not recycled")
	}
	want("after recycling", 1, 2)
	b.Close()
	b.Close()
	want("one solver closed", 1, 1)
	x.Close()
	want("the context closed", 0, 0)
	a.Close()
	x.Close()
	want("closed again", 0, 0)
}

// TestS29mContextRSS runs the edge suite's per-model work (a context, an
// encoder, the transition relation, two solvers and every check of
// edgeTransitions, then Close) over 200 models and checks that neither
// the live contexts nor the resident memory grow: each Z3 context costs
// about 16 MB, so a context (or a solver holding one's tables) left alive
// per model would pass the bound within a dozen models, long before the
// test could hurt the machine. The bound is on memory, not time.
func TestS29mContextRSS(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 60
	}
	const warm, slackKiB = 10, 160 << 10
	quiesce(t)
	c0, s0 := LiveContexts()
	base, peak := int64(-1), int64(0)
	loaded := 0
	for seed := uint64(1); loaded < n && seed < uint64(4*n+10); seed++ {
		m, src, _ := loadEdge(seed, seed%2 == 0)
		if m == nil {
			continue
		}
		loaded++
		edgeTransitions(t, m, src, seed)
		if t.Failed() {
			return
		}
		if c, s := LiveContexts(); c != c0 || s != s0 {
			t.Fatalf("after model %d (seed %d): %d contexts and %d solvers alive, %d and %d before", loaded, seed, c, s, c0, s0)
		}
		rss := vmRSS()
		if rss < 0 {
			continue // no /proc: the count above is the check
		}
		if loaded == warm {
			base = rss
		}
		peak = max(peak, rss)
		if base >= 0 && rss > base+slackKiB {
			t.Fatalf("resident memory grew from %d MB after %d models to %d MB after %d", base>>10, warm, rss>>10, loaded)
		}
	}
	if loaded < n {
		t.Fatalf("only %d of %d models loaded", loaded, n)
	}
	t.Logf("%d models: resident %d MB after %d, at most %d MB", loaded, base>>10, warm, peak>>10)
}
