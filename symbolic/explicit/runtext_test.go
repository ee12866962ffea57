package explicit_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// A counterexample reads with the first state in full, then the changed
// variables, each label with its command and the rule that chose it, and
// the end; WriteTrace writes every state in full; WriteRunFile's file
// reads back.
func TestWriteCexAndTrace(t *testing.T) {
	m := testutil.LoadFile(t, "../../specs/tarjansafe.spec")
	g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("hasty"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil || len(res.Trace) < 2 {
		t.Fatalf("no counterexample: %v", err)
	}
	var b bytes.Buffer
	explicit.WriteCex(&b, g, dec, "hasty", res.Trace, false)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[0] != "   0  "+m.FormatState(res.Trace[0].State) {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "      -> ") || !strings.Contains(lines[1], "tarjansafe.spec:") {
		t.Errorf("second line %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "         policy hasty") {
		t.Errorf("third line %q, want the policy's reason", lines[2])
	}
	if want := fmt.Sprintf("end: unsafe after %d steps", len(res.Trace)-1); lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	b.Reset()
	explicit.WriteTrace(&b, m, res.Trace, explicit.EndSteps)
	lines = strings.Split(b.String(), "\n")
	if lines[2] != fmt.Sprintf("%4d  %s", 1, m.FormatState(res.Trace[1].State)) || !strings.HasSuffix(b.String(), fmt.Sprintf("end: step limit after %d steps\n", len(res.Trace)-1)) {
		t.Errorf("trace:\n%s", b.String())
	}
	path := filepath.Join(t.TempDir(), "cex.json")
	if err := explicit.WriteRunFile(path, explicit.NewRun(m, m.Property("").Name, "hasty", explicit.EndUnsafe, res.Trace)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, steps, err := explicit.ReadRun(f, m); err != nil || len(steps) != len(res.Trace) {
		t.Errorf("read back: %d steps, %v", len(steps), err)
	}
}
