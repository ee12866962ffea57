package safety_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/safety/cert"
)

// TestS26tStreamedCertificate: WriteCertificate, which encodes each entry
// as it is made, writes the bytes cert.Write writes for CertifyStarts'
// certificate (with the same header), plain and under gzip, for every
// decider that keeps certificates and radii inf, 0 and 1; the checker
// accepts them.
func TestS26tStreamedCertificate(t *testing.T) {
	m := testutil.LoadFile(t, "../specs/tarjansafe.spec")
	pol := m.Policy("hasty")
	spec, _ := filepath.Abs("../specs/tarjansafe.spec")
	dir := t.TempDir()
	for _, algo := range []string{"tarjan", "ipi", "lrtdp"} {
		for _, r := range []safety.Radius{safety.Inf, 0, 1} {
			g, dec, err := testutil.Explicit(m, m.Property(""), pol)
			if err != nil {
				t.Fatal(err)
			}
			sp := safety.NewSpace(g, dec)
			d, err := safety.New(algo, sp, r, safety.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := safety.DecideStarts(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			var rep safety.Report
			ids := rep.Add(sp, res)
			want, err := safety.CertifyStarts(d, ids)
			if err != nil {
				t.Logf("%s r=%v: %v", algo, r, err) // a decider without certificates
				continue
			}
			for _, name := range []string{"c.json", "c.json.gz"} {
				path := filepath.Join(dir, name)
				if err := safety.WriteCertificate(context.Background(), path, d, ids, safety.Source{Spec: spec, Property: g.Prop.Name, Policy: pol}); err != nil {
					t.Fatal(err)
				}
				got := readMaybeGzip(t, path)
				c, err := cert.Read(bytes.NewReader(got))
				if err != nil {
					t.Fatalf("%s r=%v %s: %v", algo, r, name, err)
				}
				if !reflect.DeepEqual(c.Entries, want.Entries) || c.Kind != want.Kind || !reflect.DeepEqual(c.State, want.State) ||
					!reflect.DeepEqual(c.SafeStates, want.SafeStates) || !reflect.DeepEqual(c.UnsafeStates, want.UnsafeStates) {
					t.Fatalf("%s r=%v %s: the streamed certificate differs from CertifyStarts'", algo, r, name)
				}
				var buf bytes.Buffer
				if err := cert.Write(&buf, c); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), got) {
					t.Fatalf("%s r=%v %s: the streamed bytes differ from cert.Write's:\n%s\nwant\n%s", algo, r, name, got, buf.Bytes())
				}
				if _, err := cert.Check(g.M, g.Prop, pol, c); err != nil {
					t.Fatalf("%s r=%v %s: the checker refuses it: %v", algo, r, name, err)
				}
			}
		}
	}
}

// readMaybeGzip returns the file's bytes, decompressed when its name ends
// in .gz (which it must then be).
func readMaybeGzip(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Ext(path) != ".gz" {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not gzip: %v", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestS26tCertificateStops: a certificate whose writing a stop interrupts
// (millions of entries take seconds to write) is removed, with the
// context's error; Check keeps the verdicts and says the certificate was
// not written.
func TestS26tCertificateStops(t *testing.T) {
	m := testutil.LoadSource(t, "line.spec", `model line
var x : 0 .. 4999 = 0
action up when x < 4999 -> x' = x + 1
property p { start x == 0 unsafe x == 4999 }
`)
	g, dec, err := testutil.Explicit(m, m.Property(""), nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d, err := safety.New("tarjan", sp, safety.Inf, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := safety.DecideStarts(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rep safety.Report
	ids := rep.Add(sp, res)
	ctx, cancel := testutil.EndedContext("timeout")
	defer cancel()
	path := filepath.Join(t.TempDir(), "c.json.gz")
	err = safety.WriteCertificate(ctx, path, d, ids, safety.Source{Spec: "line.spec", Property: "p"})
	if !errors.Is(err, ctx.Err()) {
		t.Fatalf("WriteCertificate under an ended context: %v, want %v", err, ctx.Err())
	}
	if _, serr := os.Stat(path); !os.IsNotExist(serr) {
		t.Fatalf("the interrupted certificate was left behind: %v", serr)
	}
	d2, err := safety.New("tarjan", safety.NewSpace(g, dec), safety.Inf, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Check under the ended context decides nothing (no certificate); the
	// same certificate written whole is 5,000 entries.
	r, err := safety.Check(ctx, d2, safety.Inf, safety.CheckOptions{Cert: path})
	if err != nil || r.CertNotWritten != "" || r.Verdict != "unknown" {
		t.Fatalf("Check stopped before deciding: %v, %+v", err, r)
	}
	if err := safety.WriteCertificate(context.Background(), path, d, ids, safety.Source{Spec: "line.spec", Property: "p"}); err != nil {
		t.Fatal(err)
	}
	c, err := cert.Read(bytes.NewReader(readMaybeGzip(t, path)))
	if err != nil || len(c.Entries) != 4999 {
		t.Fatalf("whole: %v, %d entries", err, len(c.Entries))
	}
	rep.Reason, rep.CertNotWritten = "timeout", path
	var w bytes.Buffer
	rep.WriteText(&w)
	if want := "certificate: " + path + " not written: stopped by the timeout while it was written\n"; !strings.Contains(w.String(), want) {
		t.Fatalf("report:\n%s\nwant a line %q", w.String(), want)
	}
}
