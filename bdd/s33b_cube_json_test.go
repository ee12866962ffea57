package bdd_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
)

// TestS33bWholeSpaceCubeJSON: where every state is unsafe, the cover of
// the unsafe region is one cube that constrains nothing ("true"); its
// JSON is [], not null (vigil safe --algo propu-bdd --all --json printed
// "cubes": [null]). A cube that constrains something keeps its list.
func TestS33bWholeSpaceCubeJSON(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "all.spec")
	src := `model all
var x : 0 .. 5 = 0
var b : bool = false
action go -> x' = x
policy rules p { otherwise -> go }
property everywhere { start x == 0 unsafe x >= 0 }
property some { start x == 0 unsafe x >= 3 }
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(f, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	for _, tc := range []struct {
		prop string
		want string
	}{
		{"everywhere", `[[]]`},
		{"some", `[[{"var":"x","ranges":[{"lower":3,"upper":5}]}]]`},
	} {
		res, err := bdd.PropU(context.Background(), m, m.Property(tc.prop), nil, safety.Inf, nil, bdd.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cubes, _ := res.Cubes(10)
		js, err := json.Marshal(cubes)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(js); got != tc.want || strings.Contains(got, "null") {
			t.Errorf("property %s: cubes %v as JSON %s, want %s", tc.prop, cubes, got, tc.want)
		}
	}
}
