package jani_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// FuzzExportRoundTrip is a semantic fuzz of the JANI exporter and importer:
// for every .spec text that loads, each property's JANI export (every
// label, no policy) imports back, and breadth-first search of both
// models from the property's start states gives the same verdict and
// the same counts of states, transitions, start states and deadlocks
// (when both finish within 2,000 states). Seeds: the shipped specs and
// the front end's golden inputs; crashers stay in
// testdata/fuzz/FuzzExportRoundTrip.
func FuzzExportRoundTrip(f *testing.F) {
	specs, _ := filepath.Glob("../../specs/*.spec")
	for _, s := range specs {
		if src, err := os.ReadFile(s); err == nil && len(src) < 8000 {
			f.Add(src)
		}
	}
	goldens, _ := filepath.Glob("../testdata/golden/*.txtar")
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if file.Name == "in.spec" {
				f.Add(file.Data)
			}
		}
	}
	f.Add([]byte("var x : 0 .. 4 = 0\nvar b : bool\naction move(d in 1 .. 2) when x + d <= 4 cost 3 * d -> x' = x + d | 1/3: x' = x, b' = !b\nproperty p { unsafe b && x == 3 goal x == 4 }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := lang.LoadSource("fuzz.spec", src, lang.Options{})
		if m == nil {
			return
		}
		for _, p := range m.Properties {
			var b bytes.Buffer
			if err := jani.Export(&b, m, p, nil); err != nil {
				continue // a model JANI cannot say: the exporter says why
			}
			back, _, err := jani.Decode("fuzz.jani", b.Bytes(), nil)
			if err != nil {
				t.Fatalf("property %s: the export does not import back: %v\n%s", p.Name, err, b.String())
			}
			// A property without a goal exports as P of F unsafe, which
			// imports as NAME (unsafe as a goal) and NAME_avoid.
			name := p.Name
			if p.Goal == nil {
				name += "_avoid"
			}
			bp := back.Property(name)
			if bp == nil {
				var names []string
				for _, q := range back.Properties {
					names = append(names, q.Name)
				}
				t.Fatalf("property %s does not come back as %s (got %s)\n%s", p.Name, name, strings.Join(names, ", "), b.String())
			}
			want, ok1 := search(m, p)
			got, ok2 := search(back, bp)
			if ok1 && ok2 && (want.Verdict != got.Verdict || want.Stats.States != got.Stats.States ||
				want.Stats.Transitions != got.Stats.Transitions || want.Stats.Starts != got.Stats.Starts ||
				want.Stats.Deadlocks != got.Stats.Deadlocks) {
				t.Fatalf("property %s: the spec searches to %v %+v, its export to %v %+v\n%s", p.Name,
					want.Verdict, want.Stats, got.Verdict, got.Stats, b.String())
			}
		}
	})
}

// search runs breadth-first search on m from p's start states over every
// label; ok is false when it fails or stops at its 2,000-state limit.
func search(m *symbolic.Model, p *symbolic.Property) (*explicit.Result, bool) {
	g, err := explicit.New(m, p)
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	res, err := explicit.Search(ctx, g, explicit.Options{MaxStates: 2000})
	if err != nil || res.Verdict == explicit.Unknown {
		return nil, false
	}
	return res, true
}
