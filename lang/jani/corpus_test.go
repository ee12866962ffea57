package jani

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"vigil/symbolic"
)

// corpusDir is the external corpus (see ../shared/corpus/README.md); tests
// that use it skip when it is absent.
const corpusDir = "../../../shared/corpus/jani"

func corpus(t testing.TB, sub string) string {
	dir := filepath.Join(corpusDir, sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus %s absent: %v", dir, err)
	}
	return dir
}

type qvbsCase struct {
	file    string
	defines map[string]string
	want    []int
}

func qvbsCases(t testing.TB) []qvbsCase {
	dir := corpus(t, "qvbs")
	data, err := os.ReadFile(filepath.Join(dir, "states.json"))
	if err != nil {
		t.Fatal(err)
	}
	var states map[string][]struct {
		Open   map[string]json.Number `json:"open-parameters"`
		States []int                  `json:"states"`
	}
	if err := json.Unmarshal(data, &states); err != nil {
		t.Fatal(err)
	}
	var cases []qvbsCase
	for f, runs := range states {
		for _, r := range runs {
			d := map[string]string{}
			for k, v := range r.Open {
				d[k] = v.String()
			}
			cases = append(cases, qvbsCase{filepath.Join(dir, f), d, r.States})
		}
	}
	sort.Slice(cases, func(i, j int) bool {
		if cases[i].file != cases[j].file {
			return cases[i].file < cases[j].file
		}
		return len(cases[i].defines["K"]) < len(cases[j].defines["K"]) || cases[i].defines["K"] < cases[j].defines["K"]
	})
	return cases
}

// TestQVBSStateCounts explores every QVBS model of the corpus and compares
// the number of reachable states with Storm's and mcsta's (states.json).
// Set VIGIL_JANI_FIGURES=1 to log import and exploration times.
func TestQVBSStateCounts(t *testing.T) {
	for _, c := range qvbsCases(t) {
		name := filepath.Base(c.file)
		for k, v := range c.defines {
			name += "/" + k + "=" + v
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && c.want[0] > 5000 {
				t.Skip("large model in -short mode")
			}
			t0 := time.Now()
			m, err := Load(c.file, c.defines)
			if err != nil {
				t.Fatal(err)
			}
			t1 := time.Now()
			n, err := reachable(m, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			t2 := time.Now()
			// Storm and mcsta explore with the property's target states
			// absorbing; count that way too.
			goal := targetOf(t, c.file, m)
			ng := n
			if goal != nil {
				if ng, err = reachable(stopAt(m, goal), 1_000_000); err != nil {
					t.Fatal(err)
				}
			}
			ok := false
			for _, w := range c.want {
				ok = ok || n == w || ng == w
			}
			if !ok {
				t.Errorf("%d reachable states (%d with target states absorbing), want one of %v", n, ng, c.want)
			}
			if os.Getenv("VIGIL_JANI_FIGURES") != "" {
				t.Logf("FIGURE | %s | %d vars | %d commands | %d | %d | %v | %s | %s |",
					name, len(m.Vars), len(m.Commands), n, ng, c.want, t1.Sub(t0).Round(time.Microsecond), t2.Sub(t1).Round(time.Microsecond))
			}
		})
	}
}

// targetOf returns the goal of the model's first reachability property
// (see GoalProperties), or nil.
func targetOf(t testing.TB, file string, m *symbolic.Model) *symbolic.Cond {
	ps := GoalProperties(m)
	if len(ps) == 0 {
		return nil
	}
	return ps[0].Goal
}

// stopAt returns a copy of m in which no command is enabled where goal holds.
func stopAt(m *symbolic.Model, goal *symbolic.Cond) *symbolic.Model {
	m2 := *m
	m2.Commands = nil
	for _, c := range m.Commands {
		c.Guard = symbolic.And(c.Guard, symbolic.Not(goal))
		m2.Commands = append(m2.Commands, c)
	}
	return &m2
}

// BenchmarkImportQVBS measures import time per corpus model:
// go test ./lang/jani -run XXX -bench QVBS.
func BenchmarkImportQVBS(b *testing.B) {
	for _, c := range qvbsCases(b) {
		b.Run(filepath.Base(c.file), func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(c.file, c.defines); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStormStateCounts checks every QVBS model of the corpus against
// Storm's state count (storm_states.json): Storm builds the model for the
// file's properties, so its count is either the whole model (nothing
// terminal) or the model with a property's goal and unsafe states terminal,
// which is what `vigil explore FILE --property NAME` explores. The figure in
// lang/jani/FIGURES.md is this test's log: VIGIL_JANI_FIGURES=1 go test
// ./lang/jani -run StormStateCounts -v.
func TestStormStateCounts(t *testing.T) {
	dir := corpus(t, "qvbs")
	data, err := os.ReadFile(filepath.Join(dir, "storm_states.json"))
	if err != nil {
		t.Fatal(err)
	}
	var storm map[string][]struct {
		Params map[string]json.Number `json:"params"`
		States int                    `json:"states"`
	}
	if err := json.Unmarshal(data, &storm); err != nil {
		t.Fatal(err)
	}
	files := make([]string, 0, len(storm))
	for f := range storm {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		for _, r := range storm[f] {
			defs := map[string]string{}
			name := f
			for k, v := range r.Params {
				defs[k] = v.String()
				name += "/" + k + "=" + v.String()
			}
			t.Run(name, func(t *testing.T) {
				m, err := Load(filepath.Join(dir, f), defs)
				if err != nil {
					t.Fatal(err)
				}
				full, err := reachable(m, 1_000_000)
				if err != nil {
					t.Fatal(err)
				}
				how := "none"
				if full != r.States {
					how = ""
					for _, p := range m.Properties {
						n, err := reachable(stopAt(m, symbolic.Or(p.Unsafe, orFalse(p.Goal))), 1_000_000)
						if err != nil {
							t.Fatal(err)
						}
						if n == r.States {
							how = "--property " + p.Name
							break
						}
					}
				}
				if how == "" {
					t.Fatalf("Storm has %d states; vigil has %d with nothing terminal and no property of %v gives Storm's count", r.States, full, propertyNames(m))
				}
				if os.Getenv("VIGIL_JANI_FIGURES") != "" {
					t.Logf("FIGURE | %s | %d | %d | %s |", name, r.States, full, how)
				}
			})
		}
	}
}

func orFalse(c *symbolic.Cond) *symbolic.Cond {
	if c == nil {
		return symbolic.False()
	}
	return c
}

func propertyNames(m *symbolic.Model) []string {
	var out []string
	for _, p := range m.Properties {
		out = append(out, p.Name)
	}
	return out
}
