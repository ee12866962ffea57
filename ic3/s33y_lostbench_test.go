package ic3_test

import (
	"bytes"
	"context"
	"flag"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/lang"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

var s33ySeeds = flag.Int("s33y.seeds", 0, "seeds per spec and rate of TestS33yLostBench (0: the default)")

// TestS33yLostBench: bench/ic3scaling's families (N = 1000; rules
// policies, all labels, and the learned ones, a network and an ensemble)
// under seeded lost checks (s33yInjector, a check in ten, or one in
// forty; -short: one in forty only), each spec with several seeds (a run
// the losses leave searching ends unknown at 10 s): every verdict must be BFS's, and
// every safe answer's certificate (checked by verify.Decide's checker)
// passes the stock z3 binary too.
func TestS33yLostBench(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	if *s33ySeeds > 0 {
		seeds = *s33ySeeds
	}
	rates := []float64{0.1, 0.025}
	if testing.Short() {
		rates = rates[1:]
	}
	defer ic3.S33yCheckHooks(nil, nil)
	in := &s33yInjector{}
	ic3.S33yCheckHooks(in.hook, in.hook)
	var certs []string
	var runs, decidedAfterLoss, unknown int
	for _, spec := range []string{"tank", "counters", "yx", "transfer", "follow", "braking", "deep", "leak", "gap", "learned/tank_net", "learned/braking_net", "learned/braking_trees"} {
		m, diags := lang.Load(filepath.Join("..", "bench", "ic3scaling", spec+".spec"), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop := m.Property("")
		var pd = m.Policy("")
		if len(m.Policies) == 0 {
			pd = nil
		}
		bfs, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "bfs"})
		if err != nil {
			t.Fatalf("%s: bfs: %v", spec, err)
		}
		for s := range seeds {
			for _, p := range rates {
				in.mu.Lock()
				in.rng, in.p, in.limited = rand.New(rand.NewPCG(uint64(s), uint64(p*1000))), p, nil
				lost0 := in.lost
				in.mu.Unlock()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "ic3", Header: cert.Header{Model: m.Name}})
				cancel()
				in.mu.Lock()
				if in.limited != nil && in.limited.Lost() != "" {
					in.lost++
				}
				lostHere := in.lost > lost0
				in.rng, in.limited = nil, nil
				in.mu.Unlock()
				runs++
				if err != nil {
					t.Fatalf("%s seed %d p %v: %v", spec, s, p, err)
				}
				switch {
				case v.Answer == explicit.Unknown:
					unknown++
					continue
				case v.Answer != bfs.Answer:
					t.Fatalf("%s seed %d p %v: %v, bfs says %v", spec, s, p, v.Answer, bfs.Answer)
				}
				if lostHere {
					decidedAfterLoss++
				}
				if v.Answer == explicit.Safe {
					var buf bytes.Buffer
					if err := v.Invariant.Write(&buf, m, prop, pd); err != nil {
						t.Fatal(err)
					}
					certs = append(certs, buf.String())
				}
			}
		}
	}
	s33yZ3(t, certs)
	t.Logf("%d runs: %d checks limited, %d of them lost; %d runs decided after a lost check, %d unknown; %d certificates", runs, in.injected, in.lost, decidedAfterLoss, unknown, len(certs))
	if decidedAfterLoss == 0 {
		t.Errorf("no run decided after a lost check")
	}
}
