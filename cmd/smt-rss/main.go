// Command rss measures smt over a long run of IC3-sized queries: queries
// per second and the process's resident set size, printed every -every
// queries, so that growth (a leak, or Z3 state piling up) shows.
//
//	go run ./cmd/smt-rss -n 1000000 -mode assume specs/oneway_line.spec
//	go run ./cmd/smt-rss -n 30000 -every 5000 -recycle 0   # without solver rebuilds
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"vigil/internal/smtbench"
	"vigil/lang"
	"vigil/smt"
)

func main() {
	n := flag.Int("n", 1000000, "queries to run")
	every := flag.Int("every", 100000, "report every this many queries")
	mode := flag.String("mode", "assume", "assume: box and frame as assumption literals; push: push/assert/pop")
	clauses := flag.Int("clauses", 20, "frame clauses")
	rebuild := flag.Int("rebuild", 0, "rebuild the solver every this many queries (0: never)")
	recycle := flag.Int("recycle", smt.DefaultRecycle, "the solver rebuilds itself every this many checks (0: never)")
	flag.Parse()
	smt.DefaultRecycle = *recycle
	path := "specs/oneway_line.spec"
	if flag.NArg() > 0 {
		path = flag.Arg(0)
	}
	m, diags := lang.Load(path, lang.Options{})
	if m == nil {
		fmt.Fprint(os.Stderr, diags.Render())
		os.Exit(1)
	}
	w, err := smtbench.New(m, 1, *clauses)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("model %s, %d frame clauses, mode %s; before: RSS %s\n", m.Name, *clauses, *mode, rss())
	start, block, cpuBlock := time.Now(), time.Now(), cpu()
	for i := 1; i <= *n; i++ {
		if *rebuild > 0 && i%*rebuild == 0 {
			w.Close()
			if w, err = smtbench.New(m, uint64(i), *clauses); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if *mode == "push" {
			err = w.Push()
		} else {
			err = w.Assume()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if i%*every == 0 {
			runtime.GC()
			fmt.Printf("%8d queries: %7.0f queries/s (%7.0f per CPU second) in this block, RSS %s, live terms %d, solver rebuilds %d\n",
				i, float64(*every)/time.Since(block).Seconds(), float64(*every)/(cpu()-cpuBlock).Seconds(), rss(), w.X.Terms(), w.S.Recycles)
			block, cpuBlock = time.Now(), cpu()
		}
	}
	fmt.Printf("total: %d queries in %v (%.0f/s, %.0f per CPU second); after: RSS %s\n", *n, time.Since(start).Round(time.Millisecond),
		float64(*n)/time.Since(start).Seconds(), float64(*n)/cpu().Seconds(), rss())
	w.Close()
}

// cpu returns the process's user+system CPU time.
func cpu() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rss reads VmRSS from /proc/self/status.
func rss() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
		}
	}
	return "?"
}
