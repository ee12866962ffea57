package explicit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vigil/symbolic"
	. "vigil/symbolic/explicit"
)

// Bench measures the packed, parallel and naive searches in alternation,
// and they agree on the states and transitions; a stopped context ends it
// with a *BenchStopped.
func TestBenchReport(t *testing.T) {
	m := wideModel(1, symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(0)))
	g, err := New(m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	rep, err := Bench(context.Background(), g, "", BenchOptions{Workers: 2, Naive: true, Runs: 3, CPUProfile: prof})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != 3 || rep.Packed.States != 1000 || rep.Parallel == nil || rep.Naive == nil ||
		rep.Parallel.States != rep.Packed.States || rep.Naive.Transitions != rep.Packed.Transitions || rep.Parallel.Workers != 2 {
		t.Fatalf("report %+v", rep)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("CPU profile: %v", err)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "policy none:") || !strings.Contains(b.String(), "medians of 3 alternating runs") {
		t.Errorf("text %q, %v", b.String(), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Bench(ctx, g, "", BenchOptions{})
	if stop, ok := errors.AsType[*BenchStopped](err); !ok || stop.Engine != "packed" || !errors.Is(err, context.Canceled) {
		t.Errorf("Bench on a cancelled context: %v, want a *BenchStopped of packed", err)
	} else {
		var b bytes.Buffer
		stop.WriteText(&b)
		j, _ := json.Marshal(stop)
		if !strings.HasPrefix(b.String(), "interrupted after ") || string(j) != `{"engine":"packed","reason":"interrupted","states":`+strconv.Itoa(stop.States)+`,"verdict":"unknown"}` {
			t.Errorf("stop: %q, %s", b.String(), j)
		}
	}
}
