package certfile_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	invcert "vigil/ic3/cert"
	"vigil/internal/certpath"
	"vigil/load"
	"vigil/safety/cert"
	"vigil/verify"
	"vigil/verify/certfile"
)

const counter = "model m\nconst N = 5\nvar x : 0 .. N = 0\naction up when x < N -> x' = x + 1\naction down when x > 0 -> x' = x - 1\n" +
	"policy rules slow {\n    when x < 2 -> up\n    otherwise -> down\n}\nproperty p { unsafe x == 4 }\n"

// certify writes the model to dir/m.spec, decides it with engine (with
// -D N=5) and writes the certificate to dir/name as vigil verify --cert
// does, recording the paths relative to the certificate.
func certify(t testing.TB, dir, engine, name string) string {
	t.Helper()
	return certifyModel(t, dir, "m.spec", counter, []string{"N=5"}, "slow", engine, name)
}

// certifyModel writes src to dir/spec, decides it with engine, the
// defines (NAME=VALUE) and the policy, and writes the certificate to
// dir/name as vigil verify --cert does, recording the paths relative to
// the certificate.
func certifyModel(t testing.TB, dir, specName, src string, defines []string, policy, engine, name string) string {
	t.Helper()
	spec := filepath.Join(dir, specName)
	if err := os.WriteFile(spec, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{}
	for _, d := range defines {
		k, v, _ := strings.Cut(d, "=")
		defs[k] = v
	}
	l, err := load.Load(spec, load.Options{Defines: defs, Policy: policy, PropertyRequired: true})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	h := invcert.Header{Model: spec, Defines: defines}
	if h.Dir, err = certpath.Record(path, &h.Model); err != nil {
		t.Fatal(err)
	}
	q := &verify.Question{Model: l.Model, Property: l.Property, Policy: l.Policy, Engine: engine, Header: h, Certificate: true}
	v, err := verify.Decide(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if v.Invariant != nil {
		err = invcert.WriteFile(path, v.Invariant, q.Model, q.Property, q.Policy)
	} else {
		var c *cert.Certificate
		if c, err = verify.ReachCertificate(q, v); err == nil {
			err = cert.WriteFile(path, c)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// A certificate of either kind checks from its recorded files; -D values
// it was not made with are refused as the answer, a model that is gone is
// an input problem naming where it was looked for, and a model with
// errors is the loader's failure, with its diagnostics.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		engine, name string
		report       string
		loadFault    certfile.Fault
	}{
		{"bfs", "reach.json", "*verify.SafetyCheck", certfile.Loading},
		{"ic3", "inv.smt2", "*verify.InvariantCheck", certfile.Input},
	} {
		t.Run(c.engine, func(t *testing.T) {
			dir := t.TempDir()
			path := certify(t, dir, c.engine, c.name)
			r := certfile.Check(ctx, path, certfile.Options{})
			if r.Err != nil || !strings.HasPrefix(r.Valid, "valid: ") || r.Checked == nil || r.Checked.Policy != "slow" {
				t.Fatalf("check: %v (%s)", r.Err, r.Valid)
			}
			if got := fmt.Sprintf("%T", r.Report); got != c.report {
				t.Errorf("report %s, want %s", got, c.report)
			}
			if r.Checked.DefinesFrom != "certificate" || r.Checked.Defines["N"] != "5" {
				t.Errorf("checked against %+v", r.Checked)
			}

			r = certfile.Check(ctx, path, certfile.Options{Defines: map[string]string{"N": "4"}})
			if r.Fault != certfile.Invalid || !strings.Contains(r.Msg, "it proves nothing about -D N=4") {
				t.Errorf("-D N=4: fault %d, %q", r.Fault, r.Msg)
			}

			spec := filepath.Join(dir, "m.spec")
			if err := os.WriteFile(spec, []byte("model m\naction up -> y' = 1\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			r = certfile.Check(ctx, path, certfile.Options{})
			if _, ok := errors.AsType[*load.DiagnosticsError](r.LoadErr); !ok || r.Fault != c.loadFault || len(r.Diagnostics) == 0 {
				t.Errorf("broken model: fault %d, load error %v", r.Fault, r.LoadErr)
			}

			if err := os.Remove(spec); err != nil {
				t.Fatal(err)
			}
			r = certfile.Check(ctx, path, certfile.Options{})
			if r.Fault != certfile.Input || !strings.Contains(r.Msg, "which is not found: looked for") || !strings.HasSuffix(r.Msg, "give it with --spec") {
				t.Errorf("missing model: fault %d, %q", r.Fault, r.Msg)
			}
		})
	}
}

// An edited certificate is invalid, with the report saying why.
func TestCheckEdited(t *testing.T) {
	dir := t.TempDir()
	path := certify(t, dir, "bfs", "reach.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o666); err != nil {
		t.Fatal(err)
	}
	r := certfile.Check(context.Background(), path, certfile.Options{})
	rep, ok := r.Report.(*verify.SafetyCheck)
	if r.Err == nil || r.Fault != certfile.Invalid || !ok || rep.Valid || rep.Error != r.Msg {
		t.Errorf("truncated certificate: %v, report %+v", r.Err, r.Report)
	}
}

// A check that its context stops before a verdict is no verdict: Fault
// Stopped, the report's verdict unknown with the reason, never invalid
// (review21c: vigil cert check said "invalid: context canceled" for a
// valid certificate interrupted by SIGTERM). The model has too many
// states for the checker to decide it by evaluation, so the check reaches
// Z3, which the cancelled context stops.
func TestCheckStopped(t *testing.T) {
	dir := t.TempDir()
	path := certifyModel(t, dir, "m.spec", counter, []string{"N=100000"}, "slow", "ic3", "inv.smt2")
	if r := certfile.Check(context.Background(), path, certfile.Options{}); r.Err != nil {
		t.Fatalf("check: %v", r.Err)
	}
	for _, c := range []struct {
		reason, msg string
		ctx         func() (context.Context, context.CancelFunc)
	}{
		{"interrupted", "interrupted before a verdict", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
		{"timeout", "stopped by the timeout before a verdict", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), -time.Second)
		}},
	} {
		ctx, cancel := c.ctx()
		r := certfile.Check(ctx, path, certfile.Options{})
		cancel()
		rep, ok := r.Report.(*verify.InvariantCheck)
		if r.Fault != certfile.Stopped || r.Stop != c.reason || r.Msg != c.msg || r.Valid != "" || !ok ||
			rep.Verdict != "unknown" || rep.Valid || rep.Reason != c.reason || rep.Error != "" || rep.Condition != "" {
			t.Errorf("%s: fault %d, stop %q, msg %q, report %+v", c.reason, r.Fault, r.Stop, r.Msg, r.Report)
		}
	}
}
