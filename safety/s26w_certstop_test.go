package safety_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
)

// TestS26wCheckStopWhileWriting: Check stopped after every state was
// decided, while the certificate was written: the verdicts stand (3 of
// the 4 start states are safe), the partial file is removed, the report
// names it as not written (text and JSON), and no state claims it.
func TestS26wCheckStopWhileWriting(t *testing.T) {
	m := testutil.LoadSource(t, "line.spec", `model line
var x : 0 .. 4999 = 0
var y : 0 .. 3 = 0
action up when x < 4999 -> x' = x + 1
action hop when x < 4999 && y < 3 -> y' = y + 1
property p { start x == 0 unsafe x == 4999 && y == 3 }
`)
	for _, name := range []string{"c.json", "c.json.gz"} {
		g, dec, err := testutil.Explicit(m, m.Property(""), nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := safety.New("tarjan", safety.NewSpace(g, dec), safety.Inf, safety.Options{})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), name)
		ctx := testutil.WritingContext(path)
		rep, err := safety.Check(ctx, d, safety.Inf, safety.CheckOptions{Cert: path, Source: safety.Source{Spec: "line.spec", Property: "p"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ctx.Err() == nil {
			t.Fatalf("%s: the context never ended: the certificate was not written as it was made", name)
		}
		if _, serr := os.Stat(path); !os.IsNotExist(serr) {
			t.Fatalf("%s: the interrupted certificate was left behind: %v", name, serr)
		}
		if rep.CertNotWritten != path || rep.Safe != 3 || rep.Unsafe != 1 || rep.Unknown != 0 || rep.Verdict != "unsafe" {
			t.Fatalf("%s: report %+v", name, rep)
		}
		for _, s := range rep.States {
			if s.Cert != "" {
				t.Fatalf("%s: state %s names the certificate that was not written", name, s.State)
			}
		}
		var text strings.Builder
		rep.WriteText(&text)
		if !strings.Contains(text.String(), "certificate: "+path+" not written: ") {
			t.Fatalf("%s: text report without the certificate line:\n%s", name, text.String())
		}
		js, _ := json.Marshal(rep)
		if !strings.Contains(string(js), `"certificate_not_written":`) {
			t.Fatalf("%s: JSON report without certificate_not_written: %s", name, js)
		}
	}
}
