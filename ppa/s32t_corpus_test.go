package ppa

// s32t: the adversarial corpus (bench/adversarial/*.txtar) through ppa
// with its SMT encoding of every cube (NoEnumeration) and with the region
// search (cube limit 8), against bfs: each archive is unpacked, and each
// .spec in it that loads without -D values is asked, for each property
// and each trees policy (with VIGIL_S32T_CORPUS=all, each network policy
// too), by both. The corpus holds the float32, tie and threshold cases
// that earlier sessions found for the explicit engine and PolIC3; ppa's
// small cubes are normally enumerated, so its encoding never saw them.
// Archives whose name has "xgb", "tree" or "veritas" are asked by
// default; VIGIL_S32T_CORPUS=all asks all.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func TestS32tCorpusPPA(t *testing.T) {
	all := os.Getenv("VIGIL_S32T_CORPUS") == "all"
	files, err := filepath.Glob("../bench/adversarial/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	tally := map[string]int{}
	for _, f := range files {
		base := filepath.Base(f)
		if !all && !strings.Contains(base, "xgb") && !strings.Contains(base, "tree") && !strings.Contains(base, "veritas") {
			continue
		}
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for _, af := range ar.Files {
			p := filepath.Join(dir, af.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, af.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, af := range ar.Files {
			if !strings.HasSuffix(af.Name, ".spec") {
				continue
			}
			m, diags := lang.LoadFile(filepath.Join(dir, af.Name), lang.Options{})
			if m == nil || diags.HasErrors() {
				tally["not loaded"]++
				continue
			}
			for _, pd := range m.Policies {
				if pd.Kind != symbolic.KindTrees && !(all && pd.Kind == symbolic.KindNN) {
					continue
				}
				pol, err := symbolic.Instantiate(m, pd)
				if err != nil {
					tally["policy not loaded"]++
					continue
				}
				for _, prop := range m.Properties {
					if Validate(m, prop, pd) != nil {
						tally["not for ppa"]++
						continue
					}
					where := base + ": " + af.Name + ", policy " + pd.Name + ", property " + prop.Name
					g, err := explicit.New(m, prop)
					if err != nil {
						tally["no question"]++
						continue
					}
					dec, err := explicit.PolicyDecider(m, pol)
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
					cancel()
					if err != nil {
						tally["bfs error"]++
						continue
					}
					for _, o := range []Options{{NoEnumeration: true}, {cubeLimit: 8}} {
						o.Policy = pol
						o.MaxIterations = 40
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
						res, err := Check(ctx, m, prop, pd, o)
						cancel()
						if err != nil {
							tally["ppa error"]++
							t.Logf("%s: ppa: %v", where, err)
							continue
						}
						tally[res.Verdict.String()]++
						if res.Verdict != explicit.Unknown && res.Verdict != want.Verdict {
							t.Errorf("%s (no enumeration %v, cube limit %d): ppa %v, bfs %v", where, o.NoEnumeration, o.cubeLimit, res.Verdict, want.Verdict)
						}
					}
				}
			}
		}
	}
	t.Logf("%v", tally)
}
