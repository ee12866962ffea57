package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStopSignalEcho: Ctrl-C under GNU timeout (or another wrapper that
// passes the signal on to its child and to its process group) reaches
// vigil twice within microseconds. The echo is not a second signal: the
// command stops as on one Ctrl-C, with its partial results (--json: a
// valid document, verdict unknown) and exit 4, where it used to exit 130
// without results ("interrupted again") about one time in three
// (review20x).
func TestStopSignalEcho(t *testing.T) {
	if testing.Short() {
		t.Skip("starts vigil in a subprocess")
	}
	spec := filepath.Join(t.TempDir(), "big.spec")
	text := `model m
var x : 0 .. 100000000 = 0
var y : 0 .. 100000000 = 0
action a when x < 100000000 -> x' = x + 1
action b when y < 100000000 -> y' = y + 1
property p { unsafe x >= 100000000 && y >= 100000000 }
`
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		code, stdout, stderr, _ := signalVigil(t, []string{"verify", spec, "--engine", "bfs", "--json"}, 6*time.Second,
			timedSignal{400 * time.Millisecond, syscall.SIGINT}, timedSignal{time.Millisecond, syscall.SIGINT})
		var doc struct {
			Verdict, Reason string
		}
		if code != 4 || json.Unmarshal([]byte(stdout), &doc) != nil || doc.Verdict != "unknown" || doc.Reason != "interrupted" {
			t.Fatalf("try %d: exit %d, stdout %q, stderr %q; want 4 and a JSON report, verdict unknown (interrupted)", i, code, stdout, stderr)
		}
	}
}
