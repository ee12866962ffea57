package rlenv_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vigil/rlenv"
)

// FuzzServe feeds the request protocol arbitrary lines: the session never
// panics or stops on a bad request, answers every line that is not blank up to a
// close with exactly one JSON line, and an error answer names the
// request's line. Crashers stay in testdata/fuzz/FuzzServe.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"op": "reset", "seed": 7}` + "\n" + `{"op": "step", "action": 0}` + "\n" + `{"op": "step_many", "actions": [0, 1, 0]}` + "\n" + `{"op": "close"}`))
	f.Add([]byte(`{"op": "reset", "state": {"x": 0, "y": 2}}` + "\n" + `{"op": "step", "action": 7}` + "\n" + `not json` + "\n" + `{"op": "jump"}`))
	f.Add([]byte(`{"op": "reset", "state": {"x": true, "y": 1e99}}` + "\n" + `{"op": "step", "action": -1}` + "\n" + `{"op": "reset", "state": {"x": 9, "y": 0}}{"op": "close"}`))
	f.Add([]byte(`{"op": "step_many", "actions": [1, 1]}` + "\n" + `{"op": "reset", "seed": 18446744073709551615}` + "\n" + `{"op": "step", "action": 9223372036854775807}`))
	g := dice(&testing.T{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := rlenv.New(g, rlenv.Options{StepReward: -1, GoalReward: 10, MaxSteps: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var out bytes.Buffer
		if err := e.Serve(ctx, bytes.NewReader(data), &out); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("the session did not end within 10 s: %v", err)
			}
			return // a line longer than the scanner's limit
		}
		want := 0
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 { // a blank line is no request
				want++
			}
		}
		n := 0
		for _, line := range strings.Split(out.String(), "\n") {
			if line == "" {
				continue
			}
			n++
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("reply %q is not JSON: %v", line, err)
			}
			if msg, ok := r["error"].(string); ok {
				if _, ok := r["line"].(float64); !ok || !strings.HasPrefix(msg, "rlenv: ") {
					t.Fatalf("error reply without a line or the rlenv prefix: %q", line)
				}
			}
		}
		if n > want || (n < want && !strings.Contains(out.String(), `"closed":true`)) {
			t.Fatalf("%d replies to %d request lines:\n%s", n, want, out.String())
		}
	})
}
