package smtlib

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// needZ3 skips t when the z3 binary is absent.
func needZ3(t *testing.T) {
	t.Helper()
	if _, err := Z3Path(); err != nil {
		t.Skip("z3 binary not found: apt-get install z3")
	}
}

// problem is one SMT-LIB script of a batch, named so that its answers can
// be told apart.
type problem struct {
	name string
	text string
}

// runBatch runs the problems through z3, a few processes at once, each on
// a file that runs its share one after the other separated by (reset).
// It returns, per problem, the lines z3 printed for it.
func runBatch(t *testing.T, ps []problem, procs int, args ...string) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	out := map[string][]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for k := 0; k < procs; k++ {
		var b strings.Builder
		for i := k; i < len(ps); i += procs {
			fmt.Fprintf(&b, "(echo \"@%s\")\n%s(reset)\n", ps[i].name, ps[i].text)
		}
		file := filepath.Join(dir, fmt.Sprintf("batch%d.smt2", k))
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			stdout, err := RunZ3(ctx, file, args...)
			errs[k] = err
			mu.Lock()
			defer mu.Unlock()
			name := ""
			sc := bufio.NewScanner(strings.NewReader(stdout))
			for sc.Scan() {
				l := sc.Text()
				if n, ok := strings.CutPrefix(l, "@"); ok {
					name = n
					out[name] = nil
					continue
				}
				out[name] = append(out[name], l)
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestRunZ3Errors(t *testing.T) {
	needZ3(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.smt2")
	os.WriteFile(bad, []byte("(assert (> x 0))\n(check-sat)\n"), 0o644)
	if _, err := RunZ3(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "unknown constant x") {
		t.Errorf("RunZ3 on an undeclared constant: got %v, want z3's error", err)
	}
	good := filepath.Join(dir, "good.smt2")
	os.WriteFile(good, []byte("(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"), 0o644)
	if out, err := RunZ3(context.Background(), good, "-T:10"); err != nil || out != "sat\n" {
		t.Errorf("RunZ3: got %q, %v; want sat", out, err)
	}
	t.Setenv("PATH", dir)
	if _, err := RunZ3(context.Background(), good); err != ErrNoZ3 {
		t.Errorf("RunZ3 without z3 on PATH: got %v, want %v", err, ErrNoZ3)
	}
}
