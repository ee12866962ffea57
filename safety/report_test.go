package safety_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/safety/cert"
	"vigil/symbolic/explicit"
)

// setup loads specs/tarjansafe.spec with policy hasty and a decider.
func setup(t *testing.T, r safety.Radius) (*safety.Space, safety.Decider, *explicit.Generator) {
	t.Helper()
	m := testutil.LoadFile(t, "../specs/tarjansafe.spec")
	g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("hasty"))
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d, err := safety.New("tarjan", sp, r, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sp, d, g
}

// Report counts the start states' verdicts as DecideStarts gave them, and
// its text and verdict follow the counts.
func TestReportStarts(t *testing.T) {
	sp, d, _ := setup(t, safety.Inf)
	res, err := safety.DecideStarts(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := &safety.Report{Model: "tarjansafe", Property: "p", Radius: safety.Inf.String(), Algo: d.Name()}
	decided := rep.Add(sp, res)
	rep.Finish()
	if len(decided) != rep.Safe+rep.Unsafe || rep.Safe+rep.Unsafe+rep.Unknown != len(res.States) {
		t.Fatalf("%d decided, counts %d/%d/%d for %d states", len(decided), rep.Safe, rep.Unsafe, rep.Unknown, len(res.States))
	}
	want := "safe"
	if rep.Unsafe > 0 {
		want = "unsafe"
	}
	if rep.Verdict != want {
		t.Errorf("verdict %q, want %q", rep.Verdict, want)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if len(res.States) > 1 && !strings.Contains(text, "start states of property p: ") {
		t.Errorf("text:\n%s", text)
	}
	if !strings.HasSuffix(text, "states stored, 0.000s\n") || !strings.Contains(text, d.Name()+": ") {
		t.Errorf("text lacks the decider's figures:\n%s", text)
	}
}

// One state reads as one line, with the deviations for a finite radius,
// and an unknown state says why.
func TestReportOneState(t *testing.T) {
	rep := &safety.Report{Radius: "1", Policy: "hasty", Algo: "tarjan", States: []safety.StateReport{{State: "x=1", Verdict: "unsafe"}}, Unsafe: 1}
	rep.Finish()
	var b bytes.Buffer
	rep.WriteText(&b)
	if got, want := b.String(), "not 1-safe: x=1 (at most 1 deviation from policy hasty along every run)\ntarjan: 0 expanded, 0 states stored, 0.000s\n"; got != want || rep.Verdict != "unsafe" {
		t.Errorf("got %q (verdict %s), want %q", got, rep.Verdict, want)
	}
	rep = &safety.Report{Radius: "inf", Algo: "tarjan", States: []safety.StateReport{{State: "x=1", Verdict: "unknown"}}, Unknown: 1, Reason: "timeout"}
	rep.Finish()
	b.Reset()
	rep.WriteText(&b)
	if got := b.String(); !strings.HasPrefix(got, "unknown: stopped by the timeout before deciding x=1\n") || rep.Verdict != "unknown" {
		t.Errorf("got %q (verdict %s)", got, rep.Verdict)
	}
}

// FaultsReport names the faults safety.Faults found on an unsafe run,
// and its JSON has the keys vigil faults --json prints.
func TestFaultsReport(t *testing.T) {
	sp, d, g := setup(t, safety.Inf)
	dec, _ := explicit.NewDecider(g.M, g.M.Policy("hasty"))
	cex, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil || cex.Trace == nil {
		t.Fatalf("policy hasty of tarjansafe.spec has no counterexample: %v", err)
	}
	run, err := safety.RunStates(sp, cex.Trace)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := safety.Faults(context.Background(), d, run)
	if err != nil {
		t.Fatal(err)
	}
	rep := safety.NewFaultsReport(g.M, d, sp, fr, len(run), 0, "")
	if len(rep.Faults) != len(fr.Faults) || rep.Steps != len(run) || rep.Bugs == nil || len(rep.Safe) != fr.Done {
		t.Fatalf("report %+v for %+v", rep, fr)
	}
	b, _ := json.Marshal(rep)
	for _, key := range []string{`"run_states":`, `"run_ends_unsafe":true`, `"faults":[`, `"cache_hits":`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
	var w bytes.Buffer
	rep.WriteText(&w)
	if !strings.Contains(w.String(), "ends in an unsafe state\n") || (len(rep.Faults) > 0 && !strings.Contains(w.String(), "policy takes ")) {
		t.Errorf("text:\n%s", w.String())
	}
}

// WriteCertificate writes a certificate that records the model's source
// relative to the certificate, the policy's hash, and that the
// independent checker accepts.
func TestWriteCertificate(t *testing.T) {
	sp, d, g := setup(t, 0)
	res, err := safety.DecideStarts(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rep safety.Report
	ids := rep.Add(sp, res)
	dir := t.TempDir()
	spec, _ := filepath.Abs("../specs/tarjansafe.spec")
	path := filepath.Join(dir, "c.json")
	if err := safety.WriteCertificate(context.Background(), path, d, ids, safety.Source{Spec: spec, Property: g.Prop.Name, Policy: g.M.Policy("hasty")}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := cert.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	// A rules policy has no files to hash.
	if c.Policy != "hasty" || c.PolicySHA256 != "" || c.CertDir != dir || c.Plaja != nil || len(c.Defines) != 0 || c.Spec == "" {
		t.Errorf("certificate records spec %q, policy %q (sha %q), dir %q, plaja %v, defines %v", c.Spec, c.Policy, c.PolicySHA256, c.CertDir, c.Plaja, c.Defines)
	}
	if _, err := cert.Check(g.M, g.Prop, g.M.Policy("hasty"), c); err != nil {
		t.Errorf("the checker refuses the certificate: %v", err)
	}
}

// DecideState gives a state the verdict DecideStarts gives it.
func TestDecideState(t *testing.T) {
	sp, d, _ := setup(t, 0)
	starts, err := safety.DecideStarts(context.Background(), d, nil)
	if err != nil || len(starts.States) == 0 {
		t.Fatal(err)
	}
	_, d2, _ := setup(t, 0)
	for _, sd := range starts.States {
		one, err := safety.DecideState(context.Background(), d2, sp.State(sd.ID))
		if err != nil {
			t.Fatal(err)
		}
		if len(one.States) != 1 || one.States[0].Verdict != sd.Verdict {
			t.Errorf("%s: %v alone, %v among the starts", sp.Format(sd.ID), one.States, sd.Verdict)
		}
	}
}
