package verify_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// A Go program gets vigil explore's report of either engine; both count
// the same states.
func TestExploreReports(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(counter), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Properties[0]
	g := testutil.Generator(t, m, prop)
	res, err := explicit.Search(context.Background(), g, explicit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := verify.NewExploreReport(m, prop, nil, res, "")
	var text bytes.Buffer
	rep.WriteText(&text)
	if s := text.String(); !rep.Complete || !strings.HasPrefix(s, "model m, property p, all applicable labels\nstates        5 (1 start)\n") {
		t.Errorf("explore text:\n%s", s)
	}
	ex, err := bdd.Explore(context.Background(), m, prop, nil, bdd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	brep := verify.NewBDDExploreReport(m, prop, nil, ex, "interleaved")
	text.Reset()
	brep.WriteText(&text)
	if s := text.String(); string(brep.States) != "5" || !strings.Contains(s, "states        5 (1 start)\n") || !strings.Contains(s, "engine bdd: ") {
		t.Errorf("bdd explore text:\n%s", s)
	}
}
