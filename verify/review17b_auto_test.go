package verify

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview17bAutoGrace: the user's timeout stops the portfolio within
// autoGrace even when no member looks at its context: session 17 waited
// for every member to end (a member slow to poll held `vigil verify
// --timeout 3s` for 28 s); the members still running are named.
func TestReview17bAutoGrace(t *testing.T) {
	m, diags := lang.LoadSource("parity.spec", []byte(parity), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Property("p"), Policy: m.Policy("pi"), Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	deaf := func(name string) autoMember {
		return autoMember{name, func(context.Context, *Prepared) (*Verdict, error) {
			select { // a member that looks at its context late
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return &Verdict{Engine: name, Answer: explicit.Unknown}, nil
		}}
	}
	const timeout = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p := newPortfolio(ctx, q, []autoMember{deaf("bfs"), deaf("ic3"), deaf("hunt")})
	t0 := time.Now()
	p.loop()
	p.markStragglers()
	v, err := p.result(time.Since(t0))
	if el := time.Since(t0); el > timeout+autoGrace+time.Second {
		t.Errorf("the portfolio took %s to stop after a timeout of %s", el, timeout)
	}
	if err != nil || v.Answer != explicit.Unknown || v.Engine != "auto" || !strings.Contains(v.Reason, "timeout") {
		t.Fatalf("got %+v, %v; want auto's unknown for the timeout", v, err)
	}
	for _, m := range v.Auto.Members {
		if m.Outcome != "unknown" || !strings.Contains(m.Reason, "still running") {
			t.Errorf("member %s: %s (%s), want unknown (timeout; still running ...)", m.Engine, m.Outcome, m.Reason)
		}
	}
}

// TestReview17bBFSPollsUnderNetwork: bfs under a network policy looks at
// its context every 64 expansions (learnedPollEvery for its progress), not
// every 65,536: in session 17 it looked every 65,536 states, some 3 s under
// a network of a few wide layers. The test counts the network's decisions
// after the context ends (a cancel from inside the network's 100th
// evaluation) rather than the seconds bfs takes to stop, which the race
// detector and a loaded machine stretch: session 29 saw 2.99 s under
// -race, all of it the network's loading before the search (now stopped
// by the context too: TestS29vPolicyLoadStops). verify/FIGURES.md
// measures the stop latency.
func TestReview17bBFSPollsUnderNetwork(t *testing.T) {
	dir := t.TempDir()
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
	last := layer(16, 2, false)
	last["bias"] = []float64{100, 0}
	net := map[string]any{"format": "vigil-nn", "version": 1, "layers": []any{layer(2, 16, true), last}}
	b, err := json.Marshal(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "net.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "slow.spec")
	if err := os.WriteFile(spec, []byte(`
model slow
const N = 1000000
var d : 0 .. N
var v : 0 .. 3
action go when d > 0 -> d' = d - 1
action up when v < 3 -> v' = v + 1
policy nn net "net.json" {
    inputs d / N, v
    outputs go, up
}
property p {
    start v == 0 && d >= N - 3
    unsafe v == 3 && d == 0
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(spec, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	pol, err := symbolic.Instantiate(m, m.Policy("net"))
	if err != nil {
		t.Fatal(err)
	}
	const cancelAt = 100
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	counted := &countingPolicy{Policy: pol, at: cancelAt, cancel: cancel}
	v, err := Decide(ctx, &Question{Model: m, Property: m.Property("p"), Policy: m.Policy("net"), Executable: counted, Engine: "bfs"})
	if err != nil {
		t.Fatal(err)
	}
	if after := counted.n - cancelAt; after > 64 {
		t.Errorf("bfs evaluated the network %d times after its context ended; want at most 64", after)
	}
	t.Logf("%d evaluations after the cancel", counted.n-cancelAt)
	if v.Answer != explicit.Unknown || v.BFS == nil || v.BFS.Stats.States < cancelAt {
		t.Errorf("bfs answered %s with %+v; want unknown with the states it reached", v.Answer, v.BFS)
	}
}

// countingPolicy counts the evaluations of its Policy and calls cancel at
// the at-th.
type countingPolicy struct {
	symbolic.Policy
	n, at  int
	cancel func()
}

func (c *countingPolicy) Scores(s symbolic.State, dst []float64) error {
	c.n++
	if c.n == c.at {
		c.cancel()
	}
	return c.Policy.Scores(s, dst)
}
