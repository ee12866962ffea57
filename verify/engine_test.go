package verify_test

import (
	"context"
	"errors"
	"testing"

	"vigil/lang"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// liar is an engine that plugs into the registry and claims whatever it
// is told, with a counterexample cut short or no invariant: Decide must
// refuse both as internal errors, never return them as verdicts.
type liar struct {
	name   string
	answer explicit.Verdict
}

func (l liar) Name() string { return l.name }

func (l liar) Decide(ctx context.Context, q *verify.Prepared) (*verify.Verdict, error) {
	v := &verify.Verdict{Answer: l.answer, Engine: l.name}
	if l.answer == explicit.UnsafeVerdict {
		s, err := q.Gen.StartAt(0)
		if err != nil {
			return nil, err
		}
		v.Trace = []explicit.Step{{State: s, Label: -1, Cmd: -1}}
	}
	return v, nil
}

func TestRegisteredEngineIsChecked(t *testing.T) {
	src := "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p { unsafe x == 3 && x == 0 }\n"
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	verify.Register(liar{"liar-unsafe", explicit.UnsafeVerdict})
	verify.Register(liar{"liar-safe", explicit.Safe})
	found := 0
	for _, n := range verify.Names() {
		if n == "liar-safe" || n == "liar-unsafe" {
			found++
		}
	}
	if found != 2 {
		t.Errorf("Names() = %v, want the registered engines in it", verify.Names())
	}
	for _, name := range []string{"liar-unsafe", "liar-safe"} {
		v, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: m.Properties[0], Engine: name})
		var ie *verify.InternalError
		if !errors.As(err, &ie) {
			t.Errorf("%s: Decide returned %+v, %v; want an internal error", name, v, err)
		}
	}
	// The real engines answer the same question (safe), checked.
	for _, name := range []string{"bfs", "ic3", "ic3-nog", "bdd", "ppa", "auto"} {
		v, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: m.Properties[0], Engine: name})
		if err != nil || v.Answer != explicit.Safe {
			t.Errorf("%s: %+v, %v; want safe", name, v, err)
		}
	}
}
