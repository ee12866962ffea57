package cert

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/smt"
)

// rlimitReached1 is the reason of a query that reached WithRlimit's limit
// of 1.
const rlimitReached1 = "the resource limit was reached (--rlimit 1 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)"

// noEvaluation turns off the exact evaluation of small models' checks
// until the test ends, so that Z3 decides them (under a resource limit,
// when the test sets one).
func noEvaluation(t *testing.T) {
	t.Helper()
	old := evaluation
	evaluation = false
	t.Cleanup(func() { evaluation = old })
}

// wholeBoxQueries makes network facts go to the SMT query over the whole
// box (no interval search, no enumeration, no float64 witness search)
// until the test ends.
func wholeBoxQueries(t *testing.T) {
	t.Helper()
	exactStates, sampleWitnesses, useIntervals = 0, false, false
	t.Cleanup(func() { exactStates, sampleWitnesses, useIntervals = ExactStates, true, true })
}

// brakingSpec is braking_net (bench/adversarial
// cert_learned_region_fact_widened) with N = 100: 101 x 101 states, few
// enough that the certificate's init, consecution and safety conditions
// are decided by exact evaluation, without Z3.
const brakingSpec = `model braking_net
const N = 100
var d : 0 .. N = N
var v : 0 .. N = 0
action go when d > 0 -> d' = d - 1
action up when v < N -> v' = v + 1
action down when v > 0 -> v' = v - 1
action stop -> skip
policy nn net "braking_net.json" {
    inputs  (d - v - 1) / N, (v - d + 1) / N
    outputs go, stop, up, down
}
property stoppable {
    unsafe v > d
}
`

const brakingNetJSON = `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1, 0], [0, 1]], "bias": [0, 0], "activation": "relu"}, {"weights": [[0, 0], [0, 0], [1, 0], [0, 1]], "bias": [0, 0, 0, 0]}]}`

// TestS30cPolicyFactInconclusive: a certificate whose policy fact (a
// network's label fact over a box) Z3 answers unknown on, without the
// context ending, is an *Inconclusive naming the fact and the resource
// limit reached: never valid, never a *Failure. The model is small, so
// that init, consecution and safety are decided by exact evaluation (no
// Z3, no limit) and only the facts' whole-box queries meet the limit of 1.
// Without the limit the certificate is valid and a widened fact (false:
// up wins below the diagonal) still fails; under the limit the false fact
// is not valid either.
func TestS30cPolicyFactInconclusive(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"braking_net.spec": brakingSpec, "braking_net.json": brakingNetJSON} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, diags := lang.Load(filepath.Join(dir, "braking_net.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop, pol := m.Properties[0], m.Policies[0]
	// the certificate vigil verify braking_net.spec --engine polic3
	// --cert wrote (without its cert-dir line)
	text, err := os.ReadFile("testdata/s30c_braking_net.smt2")
	if err != nil {
		t.Fatal(err)
	}
	read := func(text string) *Cert {
		t.Helper()
		p := filepath.Join(dir, "c.smt2")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// the invariant of the certificate PolIC3 wrote: v <= d, and d = v = 0
	good := read(string(text))
	if len(good.Inv) != 2 || len(good.Facts) != 4 {
		t.Fatalf("the certificate reads as %d boxes and %d facts, want 2 and 4", len(good.Inv), len(good.Facts))
	}
	wide := read(strings.Replace(string(text), "label=up sure=go,up,down,stop within=d>=1,1*d+-1*v>=0,1*d+-1*v<=0,", "label=up sure=go,up,down,stop within=d>=1,1*d+-1*v>=0,1*d+-1*v<=2,", 1))
	ctx := context.Background()
	if err := Check(ctx, good, m, prop, pol); err != nil {
		t.Fatalf("without a limit: %v, want valid", err)
	}
	if err := Check(ctx, wide, m, prop, pol); err == nil {
		t.Fatal("the widened fact is valid without a limit")
	} else if f, ok := errors.AsType[*Failure](err); !ok || f.Condition != "fact" {
		t.Fatalf("the widened fact without a limit: %v, want the fact to fail", err)
	}
	// Every fact to Z3's query over its whole box (which, relaxed by the
	// rounding bounds, cannot prove this network's ties and rejects the
	// good facts too, the conservative direction): under the limit no
	// query is decided.
	wholeBoxQueries(t)
	for _, c := range []*Cert{good, wide} {
		err := Check(WithRlimit(ctx, 1), c, m, prop, pol)
		u, ok := errors.AsType[*Inconclusive](err)
		if !ok {
			t.Fatalf("under rlimit 1: %v (%T), want an *Inconclusive", err, err)
		}
		if _, failed := errors.AsType[*Failure](err); failed {
			t.Errorf("an undecided fact is a *Failure: %v", err)
		}
		if !strings.HasPrefix(u.Condition, "policy fact on box 0 (label ") || u.Rlimit != 1 || u.Reason != rlimitReached1 {
			t.Errorf("under rlimit 1: condition %q, rlimit %d, reason %q", u.Condition, u.Rlimit, u.Reason)
		}
		if want := "Z3 answered unknown on the " + u.Condition + " condition: " + rlimitReached1; Message(err) != want {
			t.Errorf("message %q, want %q", Message(err), want)
		}
	}
	// the limit bounds Z3 only: with the facts decided without Z3 (the
	// interval search, small boxes evaluated), the limit changes nothing
	exactStates, sampleWitnesses, useIntervals = ExactStates, true, true
	if err := Check(WithRlimit(ctx, 1), good, m, prop, pol); err != nil {
		t.Errorf("facts decided without Z3 under rlimit 1: %v, want valid", err)
	}
	if err := Check(WithRlimit(ctx, 1), wide, m, prop, pol); err == nil {
		t.Error("the widened fact is valid under rlimit 1")
	}
}

// TestS30cCanceledReason: Z3's reason "canceled" for a query whose
// context did not end reads as a resource limit, never as an
// interruption: the caller's limit when it set one (with how to raise
// it), else a limit of Z3's own.
func TestS30cCanceledReason(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		ctx    context.Context
		reason string
		want   string
		rlimit uint32
	}{
		{WithRlimit(ctx, 1), "canceled", rlimitReached1, 1},
		{WithRlimit(ctx, 1), "max. resource limit exceeded", rlimitReached1, 1},
		{WithRlimit(ctx, 70000), "canceled", "the resource limit was reached (--rlimit 70000 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)", 70000},
		{ctx, "canceled", `Z3 stopped at a resource limit of its own (reason "canceled"), not interrupted`, 0},
		{WithRlimit(ctx, 1), "unknown", rlimitReached1, 1},
		{ctx, "unknown", "unknown", 0},
		{WithRlimit(ctx, 1), "(incomplete (theory arithmetic))", "(incomplete (theory arithmetic))", 0},
		{ctx, "", "no reason given", 0},
	} {
		u := undecided(c.ctx, "init", c.reason)
		if u.Reason != c.want || u.Rlimit != c.rlimit {
			t.Errorf("reason %q: got %q (rlimit %d), want %q (rlimit %d)", c.reason, u.Reason, u.Rlimit, c.want, c.rlimit)
		}
		if strings.Contains(u.Message(), "interrupted") && !strings.Contains(u.Message(), "not interrupted") {
			t.Errorf("reason %q reads as an interruption: %s", c.reason, u.Message())
		}
	}
	// what Z3 says, with the limit on a real query: the message is the
	// limit's
	noEvaluation(t)
	m, prop := counter()
	c := &Cert{Inv: [][]smt.Lit{{{Var: 0, Upper: true, K: 3}}}, Vars: []string{"mod"}}
	c.Property, c.Boxes = "p", 1
	c.Hash, _ = ModelHash(m, "p", "")
	err := Check(WithRlimit(ctx, 1), c, m, prop, nil)
	if u, ok := errors.AsType[*Inconclusive](err); !ok || u.Reason != rlimitReached1 {
		t.Errorf("rlimit 1: %v, want the limit's reason", err)
	}
	// a context that ends is a stop, not an *Inconclusive
	stopped, cancel := context.WithCancel(WithRlimit(ctx, 1))
	cancel()
	err = Check(stopped, c, m, prop, nil)
	if _, ok := errors.AsType[*Inconclusive](err); ok || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled check: %v, want the context's cause, not inconclusive", err)
	}
}
