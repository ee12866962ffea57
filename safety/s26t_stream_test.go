package safety_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
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
				if err := safety.WriteCertificate(path, d, ids, safety.Source{Spec: spec, Property: g.Prop.Name, Policy: pol}); err != nil {
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
