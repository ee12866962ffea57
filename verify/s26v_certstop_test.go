package verify_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety/cert"
	"vigil/verify"
)

// 200,000 reachable states: a bfs certificate of some megabytes, which
// reaches the file (plain or compressed) long before its end.
const longLine = "model line\nvar x : 0 .. 49999 = 0\nvar y : 0 .. 3 = 0\n" +
	"action up when x < 49999 -> x' = x + 1\naction hop when y < 3 -> y' = y + 1\n" +
	"property p { unsafe x > 50000 }\n"

// TestS26vStopWhileWriting: the bfs certificate is written as it is made
// and a stop while it is written ends the writing with ctx's error and
// removes the partial file; the report does not claim it.
func TestS26vStopWhileWriting(t *testing.T) {
	q, v := decide(t, longLine, "", "bfs")
	for _, name := range []string{"c.json", "c.json.gz"} {
		path := filepath.Join(t.TempDir(), name)
		ctx := testutil.WritingContext(path)
		rep := verify.NewReport(q, v)
		wrote, err := verify.WriteCertificate(ctx, path, q, v, rep)
		if ctx.Err() == nil {
			t.Fatalf("%s: the context never ended: the certificate was not written as it was made", name)
		}
		if wrote || !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: wrote %v, err %v; want the stop's error", name, wrote, err)
		}
		if _, serr := os.Stat(path); !os.IsNotExist(serr) {
			t.Fatalf("%s: the interrupted certificate was left behind: %v", name, serr)
		}
		if rep.Certificate != "" {
			t.Fatalf("%s: the report names the certificate that was not written", name)
		}
	}
}

// TestS26vStreamedSame: the streamed certificate is the one
// ReachCertificate holds, and reads back with every state.
func TestS26vStreamedSame(t *testing.T) {
	q, v := decide(t, longLine, "", "bfs")
	dir := t.TempDir()
	c, err := verify.ReachCertificate(q, v)
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.json")
	if err := cert.WriteFile(whole, c); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"s.json", "s.json.gz"} {
		path := filepath.Join(dir, name)
		if _, err := verify.WriteCertificate(context.Background(), path, q, v, nil); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		back, err := cert.Read(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(back.Entries) != 200000 || len(c.Entries) != 200000 {
			t.Fatalf("%s: %d entries read back, %d made; want 200000", name, len(back.Entries), len(c.Entries))
		}
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(filepath.Join(dir, "s.json"))
	if string(a) != string(b) {
		t.Fatal("the streamed certificate differs from the one written whole")
	}
}

// TestS26vStoppedInvariant: an ic3 invariant certificate under a stopped
// context is not left behind (nor written), and a failed write leaves a
// device alone.
func TestS26vStoppedInvariant(t *testing.T) {
	q, v := decide(t, counter, "slow", "ic3")
	path := filepath.Join(t.TempDir(), "inv.smt2")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if wrote, err := verify.WriteCertificate(ctx, path, q, v, nil); wrote || !errors.Is(err, context.Canceled) {
		t.Fatalf("wrote %v, err %v; want the stop's error", wrote, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the stopped certificate was left behind: %v", err)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		return
	}
	link := filepath.Join(t.TempDir(), "full.smt2")
	if err := os.Symlink("/dev/full", link); err != nil {
		t.Fatal(err)
	}
	_, err := verify.WriteCertificate(context.Background(), link, q, v, nil)
	if err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("writing to /dev/full: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link to /dev/full was removed: %v", err)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Fatalf("/dev/full is gone: %v", err)
	}
}
