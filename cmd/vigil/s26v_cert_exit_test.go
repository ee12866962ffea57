package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/verify"
)

// TestS26vVerifyCertStopped: vigil verify --cert FILE (bfs, 200,000
// states) stopped while FILE is written prints the safe verdict and
// "certificate: FILE not written: interrupted while it was written",
// removes the file and exits 4; --json carries certificate_not_written
// and the reason, as vigil safe's report does. A safe run that writes its
// certificate exits 0 and names it.
func TestS26vVerifyCertStopped(t *testing.T) {
	m, diags := lang.LoadSource("line.spec", []byte("model line\nvar x : 0 .. 49999 = 0\nvar y : 0 .. 3 = 0\n"+
		"action up when x < 49999 -> x' = x + 1\naction hop when y < 3 -> y' = y + 1\nproperty p { unsafe x > 50000 }\n"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q := &verify.Question{Model: m, Property: m.Properties[0], Engine: "bfs", Certificate: true}
	v, err := verify.Decide(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for _, asJSON := range []bool{false, true} {
		for _, name := range []string{"c.json", "c.json.gz"} {
			path := filepath.Join(t.TempDir(), name)
			ctx := testutil.WritingContext(path)
			var out, errb bytes.Buffer
			code := writeVerify(&cli.Env{Stdout: &out, Stderr: &errb}, ctx, q, v, verifyOut{lm: &loadedModel{}, cert: path, json: asJSON})
			if ctx.Err() == nil {
				t.Fatalf("%s: the context never ended: the certificate was not written as it was made", name)
			}
			if code != cli.ExitUnknown {
				t.Errorf("%s json %v: exit %d; want 4\n%s%s", name, asJSON, code, out.String(), errb.String())
			}
			if _, serr := os.Stat(path); !os.IsNotExist(serr) {
				t.Errorf("%s: the interrupted certificate was left behind: %v", name, serr)
			}
			if asJSON {
				var r map[string]any
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("%s: %v\n%s", name, err, out.String())
				}
				if r["verdict"] != "safe" || r["certificate_not_written"] != path || r["reason"] != "interrupted" || r["certificate"] != nil {
					t.Errorf("%s: JSON %s", name, out.String())
				}
				continue
			}
			if s := out.String(); !strings.HasPrefix(s, "safe: ") || !strings.Contains(s, "certificate: "+path+" not written: interrupted while it was written\n") || strings.Contains(s, "check with") {
				t.Errorf("%s: report:\n%s", name, s)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "whole.json.gz")
	var out, errb bytes.Buffer
	if code := writeVerify(&cli.Env{Stdout: &out, Stderr: &errb}, context.Background(), q, v, verifyOut{lm: &loadedModel{}, cert: path}); code != cli.ExitOK || !strings.Contains(out.String(), "certificate: "+path+", the 200000 states reached") {
		t.Errorf("uninterrupted: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
