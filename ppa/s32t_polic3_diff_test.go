package ppa_test

// s32t: the models of S32tGen (s32t_trees_diff_test.go: tree-ensemble
// files with thresholds at and one ulp around the inputs' values, exact
// ties, inexact and float32 sums, inputs over two variables, argmax all)
// asked of polic3, ppa and bdd through verify.Decide, with certificates
// (a safe answer's certificate is checked), against bfs.
// VIGIL_S32T_PPA_MODELS sets the number of models (default 8).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/ppa"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

func TestS32tTreesEnginesAgainstBFS(t *testing.T) {
	n := 8
	if v := os.Getenv("VIGIL_S32T_PPA_MODELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	first := uint64(1)
	if v := os.Getenv("VIGIL_S32T_PPA_FIRST"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		first = uint64(k)
	}
	dir := t.TempDir()
	tally := map[string]int{}
	for seed := first; seed < first+uint64(n); seed++ {
		src, ens := ppa.S32tGen(seed, dir)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%d.json", seed)), []byte(ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32t%d.spec", seed), src)
		prop, pd := m.Properties[0], m.Policies[0]
		ask := func(eng string) (*verify.Verdict, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Engine: eng, Certificate: eng != "bfs"})
		}
		want, err := ask("bfs")
		if err != nil {
			tally["bfs error"]++
			continue
		}
		for _, eng := range []string{"polic3", "ppa", "bdd"} {
			got, err := ask(eng)
			if err != nil {
				if eng == "ppa" && strings.Contains(err.Error(), "--engine polic3 or bfs") && strings.Contains(ens, "vigil-nn") {
					tally["ppa refused (network)"]++ // Tanh, Sigmoid: no SMT encoding
					continue
				}
				t.Errorf("seed %d, %s: %v\n%s\n%s", seed, eng, err, src, ens)
				continue
			}
			tally[eng+" "+got.Answer.String()]++
			if got.Answer != explicit.Unknown && got.Answer != want.Answer {
				t.Errorf("seed %d: %s says %v, bfs %v\n%s\n%s", seed, eng, got.Answer, want.Answer, src, ens)
			}
		}
	}
	t.Logf("%d models: %v", n, tally)
}
