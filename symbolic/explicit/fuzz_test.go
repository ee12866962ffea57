package explicit_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"vigil/internal/fuzzseed"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// FuzzReadRun: reading any bytes as a run file, or any text as a state,
// gives a run, a state or an error, never a panic.
func FuzzReadRun(f *testing.F) {
	m := gen.Model(3, gen.Options{})
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		f.Fatal(err)
	}
	start, err := g.SampleStart(rand.New(rand.NewPCG(1, 1)), 0)
	if err != nil {
		f.Fatal(err)
	}
	steps, end, err := explicit.Simulate(g, start, explicit.SimOptions{Steps: 5, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	if err := explicit.WriteRun(&b, explicit.NewRun(m, "p", "", end, steps)); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	for _, v := range fuzzseed.Variants(b.Bytes()) {
		f.Add(v)
	}
	f.Add(fuzzseed.Deep("[", "1", "]"))
	f.Add([]byte(`{"version": 1, "model": "gen3", "steps": [{"state": {"v0": true}}]}`))
	f.Add([]byte(`{"version": 1, "model": "gen3", "steps": [{"state": {}, "command_index": -1, "outcome": 99}, {"state": {}}]}`))
	f.Add([]byte(m.FormatState(start)))
	f.Fuzz(func(t *testing.T, data []byte) {
		explicit.ReadRun(bytes.NewReader(data), m)
		explicit.ParseState(m, string(data))
	})
}
