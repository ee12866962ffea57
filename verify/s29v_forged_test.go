package verify_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vigil/bdd"
	invcert "vigil/ic3/cert"
	"vigil/lang"
	"vigil/ppa"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// unsafeCounter is unsafe (x reaches 3 from 0), so that every "safe" a
// forger claims about it is wrong.
const unsafeCounter = "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p { unsafe x == 3 }\n"

// forger is an engine registered from outside package verify that forges
// its answer with whatever make builds.
type forger struct {
	name string
	make func(ctx context.Context, q *verify.Prepared) (*verify.Verdict, error)
}

func (f forger) Name() string { return f.name }
func (f forger) Decide(ctx context.Context, q *verify.Prepared) (*verify.Verdict, error) {
	return f.make(ctx, q)
}

// TestS29vForgedSafe: a registered engine that claims safe about an
// unsafe model is refused (an internal error, never a verdict) however
// it dresses the claim: with the statistics of an exhaustive engine
// (Verdict.BFS, BDD or PPA: session 28 trusted those fields, so any
// engine that filled one in said safe unchecked), with Verdict.Auto (which
// skipped every check), with a genuine safe verdict of another question,
// with bfs's own undecided answer turned into safe, with a bogus
// invariant, or with an answer that is no verdict at all; and an engine
// that returns neither a verdict nor an error is an internal error, not a
// panic.
func TestS29vForgedSafe(t *testing.T) {
	_, safeV := decide(t, "model s\nvar x : 0 .. 3 = 0\naction a when x < 2 -> x' = x + 1\nproperty p { unsafe x == 3 }\n", "", "bfs")
	if safeV.Answer != explicit.Safe {
		t.Fatalf("the other question: %s, want safe", safeV.Answer)
	}
	safe := func(fill func(v *verify.Verdict)) func(context.Context, *verify.Prepared) (*verify.Verdict, error) {
		return func(context.Context, *verify.Prepared) (*verify.Verdict, error) {
			v := &verify.Verdict{Answer: explicit.Safe, Engine: "forger"}
			fill(v)
			return v, nil
		}
	}
	cases := []forger{
		{"s29v-bfs-stats", safe(func(v *verify.Verdict) { v.BFS = &explicit.Result{Verdict: explicit.Safe} })},
		{"s29v-bdd-stats", safe(func(v *verify.Verdict) { v.BDD = &bdd.Result{Verdict: bdd.Safe} })},
		{"s29v-ppa-stats", safe(func(v *verify.Verdict) {
			v.PPA = &verify.PPAResult{Result: &ppa.Result{Verdict: explicit.Safe}}
		})},
		{"s29v-auto-stats", safe(func(v *verify.Verdict) { v.Auto = &verify.AutoStats{Winner: "bfs"} })},
		{"s29v-auto-stats-unsafe", func(_ context.Context, q *verify.Prepared) (*verify.Verdict, error) {
			s, err := q.Gen.StartAt(0)
			if err != nil {
				return nil, err
			}
			return &verify.Verdict{Answer: explicit.UnsafeVerdict, Engine: "forger", Auto: &verify.AutoStats{},
				Trace: []explicit.Step{{State: s, Label: -1, Cmd: -1}}}, nil
		}},
		{"s29v-launder", func(context.Context, *verify.Prepared) (*verify.Verdict, error) { return safeV, nil }},
		{"s29v-flip", func(ctx context.Context, q *verify.Prepared) (*verify.Verdict, error) {
			bfs, _ := verify.Lookup("bfs")
			own := *q.Question
			own.Limits.MaxStates = 1 // bfs gives way: unknown
			qq := *q
			qq.Question = &own
			v, err := bfs.Decide(ctx, &qq)
			if err != nil || v.Answer != explicit.Unknown {
				return nil, errors.New("bfs did not give way")
			}
			v.Answer = explicit.Safe
			return v, nil
		}},
		{"s29v-bogus-invariant", safe(func(v *verify.Verdict) {
			v.Invariant = &invcert.Cert{Vars: []string{"x"}, Inv: [][]smt.Lit{}}
		})},
		{"s29v-no-verdict", safe(func(v *verify.Verdict) { v.Answer = 7 })},
		{"s29v-nil", func(context.Context, *verify.Prepared) (*verify.Verdict, error) { return nil, nil }},
	}
	for _, f := range cases {
		verify.Register(f)
		_, diagsFree := decideErr(t, unsafeCounter, f.name)
		var ie *verify.InternalError
		if !errors.As(diagsFree, &ie) {
			t.Errorf("%s: %v; want an internal error", f.name, diagsFree)
		}
	}
}

// decideErr decides src's first property with engine and returns what
// Decide returned.
func decideErr(t *testing.T, src, engine string) (*verify.Verdict, error) {
	t.Helper()
	m := loadSrc(t, src)
	v, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: m.Properties[0], Engine: engine})
	if err == nil && v != nil && v.Answer != explicit.Unknown {
		t.Errorf("%s: the forged verdict %s got through (%+v)", engine, v.Answer, v)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "internal error") {
		t.Errorf("%s: %v", engine, err)
	}
	return v, err
}

func loadSrc(t *testing.T, src string) *symbolic.Model {
	t.Helper()
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	return m
}
