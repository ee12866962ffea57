package verify

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// wideNetModel writes the network of session 17's bfs-polling test
// (inputs 2, three ReLU layers of 500, outputs 2: a JSON file of 5 MB) and
// its model to a fresh directory and loads the model.
func wideNetModel(b *testing.B) *symbolic.Model {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	layer := func(in, out int, relu bool) map[string]any {
		w := make([][]float64, out)
		for i := range w {
			w[i] = make([]float64, in)
			for j := range w[i] {
				w[i][j] = r.Float64()*0.1 - 0.05
			}
		}
		l := map[string]any{"weights": w, "bias": make([]float64, out)}
		if relu {
			l["activation"] = "relu"
		}
		return l
	}
	last := layer(500, 2, false)
	last["bias"] = []float64{100, 0}
	net := map[string]any{"format": "vigil-nn", "version": 1, "layers": []any{layer(2, 500, true), layer(500, 500, true), layer(500, 500, true), last}}
	data, err := json.Marshal(net)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "net.json"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	spec := filepath.Join(dir, "slow.spec")
	src := "model slow\nconst N = 1000000\nvar d : 0 .. N\nvar v : 0 .. 3\n" +
		"action go when d > 0 -> d' = d - 1\naction up when v < 3 -> v' = v + 1\n" +
		"policy nn net \"net.json\" {\n    inputs d / N, v\n    outputs go, up\n}\n" +
		"property p {\n    start v == 0 && d >= N - 3\n    unsafe v == 3 && d == 0\n}\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	m, diags := lang.Load(spec, lang.Options{})
	if diags.HasErrors() {
		b.Fatal(diags.Render())
	}
	return m
}

// BenchmarkS29vLoadWideNetwork: reading and binding the wide network
// (what prepare waited for: 0.2 s, 2.6 s under -race; verify/FIGURES.md).
func BenchmarkS29vLoadWideNetwork(b *testing.B) {
	m := wideNetModel(b)
	decl := m.Policy("net")
	for b.Loop() {
		if _, err := nn.Load(decl.File); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkS29vWideNetworkDecision: one decision of the wide network
// (bfs polls its context every 64 of them).
func BenchmarkS29vWideNetworkDecision(b *testing.B) {
	m := wideNetModel(b)
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Property("p"), Policy: m.Policy("net"), Engine: "bfs"})
	if err != nil {
		b.Fatal(err)
	}
	s := symbolic.State{1000000, 0}
	var x explicit.Expansion
	q.Gen.Applicable(s, &x)
	i := 0
	for b.Loop() {
		s[0] = 1000000 - i%1000 // a different state each time, past any cache
		i++
		if _, err := q.Dec.Decide(s, x.App); err != nil {
			b.Fatal(err)
		}
	}
}
