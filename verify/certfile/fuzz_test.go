package certfile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/internal/fuzzseed"
	"vigil/verify/certfile"
)

// goalTie is a network policy on a model with goal states
// (bench/adversarial/cert_polic3_goal_tie_facts.txtar): its PolIC3
// certificate carries policy facts.
const goalTie = `model g
var x : 0 .. 10 = 0
var y : 0 .. 3 = 0
action inc when x < 10 -> x' = x + 1
action jump when x >= 5 -> y' = min(y + 3, 3)
action stay when true -> y' = y
policy nn net "net.json" {
    inputs  x, y
    outputs inc, jump, stay
}
property p {
    start x <= 4 && y == 0
    unsafe y == 3
    goal x == 7
}
`

const goalTieNet = `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1,0],[0,1]], "bias": [0,0], "activation": "relu"}, {"weights": [[0.25,0],[0.25,0],[0,0]], "bias": [1, 0.875, 2]}]}`

// FuzzCheck is vigil cert check on arbitrary certificate files: bytes
// written as a certificate (a JSON safety certificate or an SMT-LIB2
// invariant certificate, as IsCertificate tells them apart) beside the
// models they were made for (the counter of certfile_test.go with -D N=5,
// and a network policy whose PolIC3 certificate carries policy facts), and
// checked as they name them. Check never panics and answers within 20 s;
// a failure has a message, with no Go internals in it, and a certificate
// that cannot be read is named in it. Seeds: the certificates bfs, ic3,
// ppa and polic3 write for those models, and their fuzzseed variants;
// crashers stay in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "net.json"), []byte(goalTieNet), 0o666); err != nil {
		f.Fatal(err)
	}
	var seeds []string
	for _, c := range []struct{ engine, name string }{{"bfs", "reach.json"}, {"ic3", "inv.smt2"}, {"ppa", "ppa.smt2"}} {
		seeds = append(seeds, certify(f, dir, c.engine, c.name))
	}
	seeds = append(seeds, certifyModel(f, dir, "g.spec", goalTie, nil, "net", "polic3", "facts.smt2"))
	seeds = append(seeds, certifyModel(f, dir, "g.spec", goalTie, nil, "net", "bfs", "g.json"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, v := range fuzzseed.Variants(data) {
			f.Add(v)
		}
	}
	path := filepath.Join(dir, "fuzz.cert")
	f.Fuzz(func(t *testing.T, data []byte) {
		// A certificate may name any file as its model: keep to the
		// directory's (a device such as /dev/zero never ends).
		if strings.Contains(string(data), "/dev") || strings.Contains(string(data), "/proc") || strings.Contains(string(data), "/sys") {
			return
		}
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done := make(chan *certfile.Result, 1)
		go func() { done <- certfile.Check(ctx, path, certfile.Options{}) }()
		var r *certfile.Result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("cert check: no answer within 20 s")
		}
		if r.Err == nil {
			if r.Valid == "" {
				t.Fatal("a valid certificate without its line")
			}
			return
		}
		if r.Msg == "" {
			t.Fatalf("error without a message: %v", r.Err)
		}
		for _, internal := range []string{"Go struct field", "cannot unmarshal", "runtime error", "goroutine "} {
			if strings.Contains(r.Msg, internal) {
				t.Fatalf("Go internals in the message: %s", r.Msg)
			}
		}
		if r.Fault == certfile.Invalid && r.Checked == nil && r.LoadErr == nil && !strings.Contains(r.Msg, "fuzz.cert") {
			t.Fatalf("an unreadable certificate's message does not name it: %s", r.Msg)
		}
	})
}
