package ic3

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/lang"
)

// BenchmarkPolIC3 runs PolIC3 on a pair of bench/polic3, named by
// VIGIL_POLIC3_PAIR as SPEC:POLICY:NAME=VALUE,... (default beluga be2,
// be2_64x64_safe, about 35 s of CPU: run it with -benchtime 1x), for
// profiles of the engine alone:
//
//	VIGIL_POLIC3_PAIR=transport.spec:tr2_64x64_safe:L=12,P=4,VMAX=2,CAP=2 \
//	  go test ./ic3 -run '^$' -bench PolIC3 -benchtime 1x -cpuprofile /tmp/cpu.out
func BenchmarkPolIC3(b *testing.B) {
	pair := os.Getenv("VIGIL_POLIC3_PAIR")
	if pair == "" {
		pair = "beluga.spec:be2_64x64_safe:CAP=6,CAP3=4,J=8,PLANES=4,DMAX=3,PERIOD=2"
	}
	f := strings.SplitN(pair, ":", 3)
	if len(f) != 3 {
		b.Fatalf("VIGIL_POLIC3_PAIR=%q: want SPEC:POLICY:NAME=VALUE,...", pair)
	}
	defs := map[string]string{}
	for _, d := range strings.Split(f[2], ",") {
		if k, v, ok := strings.Cut(d, "="); ok {
			defs[k] = v
		}
	}
	m, diags := lang.Load(filepath.Join("..", "bench", "polic3", f[0]), lang.Options{Defines: defs})
	if diags.HasErrors() {
		b.Fatal(diags.Render())
	}
	pol := m.Policy(f[1])
	if pol == nil {
		b.Fatalf("%s has no policy %s", f[0], f[1])
	}
	// the engine as vigil runs it: without this package's tests' check of
	// every level the index answers (memo_test.go)
	defer func(c bool) { checkLevelIndex = c }(checkLevelIndex)
	checkLevelIndex = false
	b.ResetTimer()
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for i := 0; i < b.N; i++ {
		res, err := Check(context.Background(), m, m.Property(""), pol, Options{Generalize: true})
		if err != nil {
			b.Fatal(err)
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := time.Duration(syscall.TimevalToNsec(ru1.Utime) + syscall.TimevalToNsec(ru1.Stime) - syscall.TimevalToNsec(ru0.Utime) - syscall.TimevalToNsec(ru0.Stime))
		ru0 = ru1
		b.ReportMetric(cpu.Seconds(), "cpu-s")
		b.ReportMetric(float64(res.Stats.SMTCalls), "smt-calls")
		b.ReportMetric(float64(res.Stats.CertCalls), "cert-calls")
		b.ReportMetric(float64(res.Stats.Invariant), "boxes")
		b.Logf("%v: %+v", res.Verdict, res.Stats)
	}
}
