package ic3_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/smt/smtlib"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
	"vigil/verify"
)

// TestS29sEdgeEngines is the adversary's whole-engine cross-check on
// models written as .spec text at the edges of the integer semantics
// (gen.EdgeSpec: ranges next to ±2^53, constants -2^63 and 2^63-1 whose
// sums, negations, abs, min, max and divisions leave the 64-bit integers,
// arrays read and written at variable indices, enums, duplicate outcomes,
// swaps, unclamped assignments that may leave their range). bfs, ic3
// (with and without generalization) and bdd (where it takes the model)
// must not contradict each other: a safe answer of one excludes a
// counterexample or a range error of another; verify.Decide replays every
// counterexample in the explicit semantics and checks every invariant
// with the certificate checker. A tenth of the models also go through
// the portfolio (auto). VIGIL_S29S_MODELS widens the run (default 120).
func TestS29sEdgeEngines(t *testing.T) {
	n := 120
	if v := os.Getenv("VIGIL_S29S_MODELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			t.Fatalf("VIGIL_S29S_MODELS=%q: want a positive number of models", v)
		}
	}
	if testing.Short() {
		n /= 3
	}
	begin := time.Now()
	ctx := context.Background()
	loaded := 0
	tally := map[string]int{}
	var chc, want []string // vigil export --chc of each model bfs decided, and z3's answer for bfs's
	var chcSeeds []uint64
	for seed := uint64(1000); loaded < n && seed < 1000+uint64(4*n+10); seed++ {
		src := gen.EdgeSpec(seed, false)
		m, _ := lang.LoadSource(fmt.Sprintf("edge%d.spec", seed), []byte(src), lang.Options{})
		if m == nil {
			continue
		}
		loaded++
		engines := []string{"bfs", "ic3", "ic3-nog", "bdd"}
		if seed%10 == 0 {
			engines = append(engines, "auto")
		}
		got := map[string]string{}
		for _, eng := range engines {
			q := &verify.Question{Model: m, Property: m.Properties[0], Engine: eng, Limits: verify.Limits{Timeout: 20 * time.Second, MaxStates: 200000}}
			v, err := verify.Decide(ctx, q)
			var re *explicit.RangeError
			switch {
			case err == nil && v.Answer == explicit.Safe:
				got[eng] = "safe"
			case err == nil && v.Answer == explicit.UnsafeVerdict:
				got[eng] = "unsafe"
			case err == nil:
				got[eng] = "unknown"
				t.Logf("seed %d: %s: unknown: %s", seed, eng, v.Reason)
			case errors.As(err, &re) || strings.Contains(err.Error(), "has an outcome that leaves a variable's range"):
				got[eng] = "range error"
			case strings.Contains(err.Error(), "no state satisfies the start condition"):
				got[eng] = "no start"
			case eng == "bdd" && strings.Contains(err.Error(), "more than 64 bits"),
				strings.HasPrefix(eng, "ic3") && strings.Contains(err.Error(), "is always false (after constants are folded)"):
				got[eng] = "refused"
			default:
				t.Errorf("seed %d: %s: %v\n%s", seed, eng, err, src)
				got[eng] = "error"
			}
			tally[eng+" "+got[eng]]++
		}
		bad := func(a string) bool { return a == "unsafe" || a == "range error" }
		for _, a := range engines {
			for _, b := range engines {
				if got[a] == "safe" && bad(got[b]) || got[a] == "no start" && got[b] != "no start" && got[b] != "refused" {
					t.Errorf("seed %d: %s says %s, %s says %s\n%s", seed, a, got[a], b, got[b], src)
				}
			}
		}
		if t.Failed() {
			return
		}
		if w := got["bfs"]; w == "safe" || w == "unsafe" || w == "range error" {
			var buf bytes.Buffer
			if err := smtlib.WriteCHC(&buf, smtlib.Question{Model: m, Property: m.Properties[0]}); err != nil {
				t.Fatalf("seed %d: chc: %v", seed, err)
			}
			chc = append(chc, buf.String())
			want = append(want, map[bool]string{true: "sat", false: "unsat"}[w == "safe"])
			chcSeeds = append(chcSeeds, seed)
		}
	}
	t.Logf("%d models: %v, %v", loaded, tally, time.Since(begin).Round(time.Millisecond))
	checkCHC(t, chc, want, chcSeeds)
	if loaded < n || tally["ic3 safe"] == 0 || tally["ic3 unsafe"] == 0 || tally["bfs range error"] == 0 {
		t.Errorf("%d of %d models loaded, answers %v: the test compares too little", loaded, n, tally)
	}
}

// checkCHC runs the z3 binary once on the Horn clauses (vigil export
// --chc) of the models, separated by (reset), and expects sat (safe) or
// unsat (unsafe, or a range error: a bad state) as bfs answered.
func checkCHC(t *testing.T, chc, want []string, seeds []uint64) {
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("the Horn clauses are not checked by the z3 binary: %v", err)
	}
	file := filepath.Join(t.TempDir(), "chc.smt2")
	if err := os.WriteFile(file, []byte(strings.Join(chc, "\n(reset)\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := smtlib.RunZ3(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(out)
	if len(lines) != len(want) {
		t.Fatalf("z3 printed %d answers for %d systems: %.500s", len(lines), len(want), out)
	}
	for i, l := range lines {
		if l != want[i] {
			t.Errorf("seed %d: z3 on the Horn clauses says %s, bfs %s\n%s", seeds[i], l, want[i], chc[i])
		}
	}
	t.Logf("z3 agreed with bfs on the Horn clauses of %d models", len(want))
}
