package verify

import (
	"context"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS29vPolicyLoadStops: the end of the question's context stops Decide
// while the policy is still loading from its file (which looks at no
// context): the answer is unknown at once, without waiting for the load.
// Session 29's flaky TestReview17bBFSPollsUnderNetwork spent 2.6 s of its
// 1 s timeout reading a network under -race. The loader here cancels the
// context and then blocks until Decide has returned, so the test needs no
// clock: a Decide that waited for the load would never return.
func TestS29vPolicyLoadStops(t *testing.T) {
	const kind symbolic.PolicyKind = "s29v-slow"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	symbolic.RegisterKind(kind, func(m *symbolic.Model, d *symbolic.PolicyDecl) (symbolic.Policy, error) {
		cancel()
		<-release
		return nil, context.Canceled
	})
	m, diags := lang.LoadSource("m.spec", []byte(s29vUnsafe), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	decl := &symbolic.PolicyDecl{Name: "slow", Kind: kind, File: "slow.bin", Outputs: []symbolic.LabelID{0}}
	v, err := Decide(ctx, &Question{Model: m, Property: m.Properties[0], Policy: decl, Engine: "bfs"})
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if v.Answer != explicit.Unknown || !strings.Contains(v.Reason, "while loading the policy") {
		t.Fatalf("got %s (%s); want unknown while loading the policy", v.Answer, v.Reason)
	}
}

// TestS29vBDDStopReason: a bdd run stopped by an interrupt gives the
// reason every engine gives ("interrupted", which --json prints), not
// bdd's own "canceled".
func TestS29vBDDStopReason(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s29vUnsafe), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	for _, engine := range []string{"bdd"} {
		ctx, cancel := context.WithCancel(context.Background())
		q, err := prepare(ctx, &Question{Model: m, Property: m.Properties[0], Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		e, _ := Lookup(engine)
		v, err := decide(ctx, q, e)
		if err != nil {
			t.Fatal(err)
		}
		if v.Answer != explicit.Unknown || v.Reason != stopReason(ctx) {
			t.Errorf("%s: %s (%q); want unknown (%q)", engine, v.Answer, v.Reason, stopReason(ctx))
		}
	}
}
