package main

import (
	"bytes"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/safety"
)

// TestS26wCertNotWrittenExit: vigil safe --cert FILE stopped while FILE
// was written (the file removed) kept the verdicts' exit code, 0 for
// safe: a script that takes exit 0 for "safe, certificate written" then
// found no file. The verdicts still print; the exit code is 4.
func TestS26wCertNotWrittenExit(t *testing.T) {
	for _, tc := range []struct {
		safe, unsafe int
		verdict      string
	}{{1, 0, "safe"}, {0, 1, "unsafe"}} {
		for _, missing := range []bool{false, true} {
			rep := &safety.Report{Model: "m", Property: "p", Radius: "inf", Algo: "tarjan", Safe: tc.safe, Unsafe: tc.unsafe,
				States: []safety.StateReport{{State: "x=0", Verdict: tc.verdict}}}
			want := map[string]int{"safe": cli.ExitOK, "unsafe": cli.ExitUnsafe}[tc.verdict]
			if missing {
				rep.Reason, rep.CertNotWritten = "timeout", "c.json"
				want = cli.ExitUnknown
			}
			var out, errb bytes.Buffer
			code := finishSafe(&cli.Env{Stdout: &out, Stderr: &errb}, rep, false, rep)
			if code != want || rep.Verdict != tc.verdict {
				t.Errorf("%s, certificate missing %v: exit %d, verdict %s; want %d, %s", tc.verdict, missing, code, rep.Verdict, want, tc.verdict)
			}
			if missing && !strings.Contains(out.String(), "certificate: c.json not written") {
				t.Errorf("%s: the report does not say the certificate is missing:\n%s", tc.verdict, out.String())
			}
		}
	}
}
