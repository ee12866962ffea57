package smt_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/lang"
	"vigil/smt"
)

// BenchmarkS33zIC3GivenUpRSS is BenchmarkS33zGivenUpRSS on ic3's own
// path: ic3.Check on the 14,400-command model of FIGURES.md, its context
// cancelled VIGIL_S33Z_STOP after the start (default 12s: in the first
// check, on the development machine under load), then the process's
// resident memory every 250 ms until the run's contexts are deleted (its
// given-up check has returned in Z3). With VIGIL_S33Z_RLIMIT=N every
// check runs under a resource limit of N (smt.WithRlimit, as verify
// --rlimit); set VIGIL_S33Z_STOP=1000s with it to see how long the first
// check takes to run out of it. Run once:
//
//	go test ./smt -run '^$' -bench S33zIC3GivenUpRSS -benchtime 1x
func BenchmarkS33zIC3GivenUpRSS(b *testing.B) {
	const src = `model big
const N = 120
var a : [0 .. N - 1] of 0 .. 10
action move(i in 0 .. N - 1, j in 0 .. N - 1) when i != j && a[i] > 0 && a[j] < 10 -> a[i]' = a[i] - 1, a[j]' = a[j] + 1
property p { start a[0] <= 1 unsafe a[1] == 10 && a[2] == 10 && a[3] == 10 }
`
	m, diags := lang.LoadSource("big.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		b.Fatal(diags.Render())
	}
	stopAfter := 12 * time.Second
	if s := os.Getenv("VIGIL_S33Z_STOP"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		stopAfter = d
	}
	var rlimit uint64
	if s := os.Getenv("VIGIL_S33Z_RLIMIT"); s != "" {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			b.Fatal(err)
		}
		rlimit = n
	}
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(smt.WithRlimit(context.Background(), uint32(rlimit)))
		start := time.Now()
		var stopped time.Time
		done := make(chan struct{})
		go func() {
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				c, _ := smt.LiveContexts()
				ref, what := start, "start"
				if !stopped.IsZero() {
					ref, what = stopped, "stop"
				}
				fmt.Printf("%7.2f s after the %s  RSS %s  live contexts %d  CPU %.2f s\n", time.Since(ref).Seconds(), what, rss(), c, cpu())
			}
		}()
		time.AfterFunc(stopAfter, func() { stopped = time.Now(); fmt.Printf("stop: process CPU %.2f s\n", cpu()); cancel() })
		res, err := ic3.Check(ctx, m, m.Property(""), nil, ic3.Options{Generalize: true})
		ret := time.Now()
		if err != nil {
			fmt.Printf("ic3: %v", err)
		} else {
			fmt.Printf("ic3: %v (%s)", res.Verdict, res.Reason)
		}
		if !stopped.IsZero() {
			fmt.Printf(", returned %v after the stop", ret.Sub(stopped).Round(time.Millisecond))
		} else {
			fmt.Printf(", returned %v after the start", ret.Sub(start).Round(time.Millisecond))
		}
		fmt.Printf("; RSS %s\n", rss())
		for c, _ := smt.LiveContexts(); c > 0; c, _ = smt.LiveContexts() {
			time.Sleep(20 * time.Millisecond)
		}
		close(done)
		if !stopped.IsZero() {
			fmt.Printf("contexts deleted %v after the stop; RSS %s; process CPU %.2f s\n", time.Since(stopped).Round(time.Millisecond), rss(), cpu())
		}
		cancel()
	}
}

// rss is VmRSS from /proc/self/status, in MB.
func rss() string {
	buf, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(buf), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			if k, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return fmt.Sprintf("%d MB", k/1024)
			}
		}
	}
	return "?"
}

// cpu is the process's user and system CPU time, in seconds.
func cpu() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
