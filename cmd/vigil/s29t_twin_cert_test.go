package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	ic3cert "vigil/ic3/cert"
	"vigil/internal/cli"
	"vigil/lang"
)

// s29tTwinXGB is a two-class XGBoost JSON ensemble over x: class 0 (stay)
// scores 0.5 everywhere, class 1 (go) 1 where float32(x) < 2 and goHigh
// elsewhere.
func s29tTwinXGB(goHigh string) string {
	return `{"learner":{"learner_model_param":{"base_score":"0","num_class":"2","num_feature":"1"},"objective":{"name":"multi:softprob"},` +
		`"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_trees":"2"},"tree_info":[0,1],"trees":[` +
		`{"tree_param":{"num_nodes":"1"},"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[0.5],"default_left":[0]},` +
		`{"tree_param":{"num_nodes":"3"},"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[2,1,` + goHigh + `],"default_left":[1,0,0]}]}}}}`
}

const s29tTwinSpec = `// A walker that the ensemble stops at x = 2, where stay and go tie
// exactly (0.5 each) and the tie goes to stay, the output listed first.
model line
var x : 0 .. 4 = 0
action stay when true -> skip
action go when x < 4 -> x' = x + 1
policy trees pi "e.json" {
    inputs  x
    outputs stay, go
}
property p { unsafe x >= 3 }
`

func s29tVigil(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := cli.Main(args, &cli.Env{Stdout: &out, Stderr: &errb})
	return code, out.String() + errb.String()
}

// s29tForgeForTwin runs vigil verify --engine polic3 --cert on dir's
// line.spec with e.json = genuine, checks that the certificate holds a
// fact about label go and is valid, then replaces e.json by twin (which
// must make the model unsafe), rewrites the certificate's model and
// policy hashes to the twin's, and returns vigil cert check's exit code
// and output on the forged certificate.
func s29tForgeForTwin(t *testing.T, dir, spec, genuine, twin string) (int, string) {
	t.Helper()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("line.spec", spec)
	write("e.json", genuine)
	code, out := s29tVigil(t, dir, "verify", "line.spec", "--engine", "polic3", "--cert", "c.smt2")
	if code != cli.ExitOK || !strings.HasPrefix(out, "safe: ") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
	cert, err := os.ReadFile(filepath.Join(dir, "c.smt2"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^; fact: box=\d+ label=go sure=stay`).Match(cert) {
		t.Fatalf("the certificate has no fact about go:\n%s", cert)
	}
	if code, out := s29tVigil(t, dir, "cert", "check", "c.smt2"); code != cli.ExitOK || !strings.HasPrefix(out, "valid: ") {
		t.Fatalf("cert check of the genuine certificate: exit %d\n%s", code, out)
	}
	write("e.json", twin)
	if code, out := s29tVigil(t, dir, "verify", "line.spec", "--engine", "bfs"); !strings.HasPrefix(out, "unsafe: ") {
		t.Fatalf("the twin should be unsafe (go is chosen at x = 2): exit %d\n%s", code, out)
	}
	m, diags := lang.Load(filepath.Join(dir, "line.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	mh, err := ic3cert.ModelHash(m, "p", "pi")
	if err != nil {
		t.Fatal(err)
	}
	ph, err := ic3cert.PolicyHash(m.Policy("pi"))
	if err != nil {
		t.Fatal(err)
	}
	forged := regexp.MustCompile(`(?m)^; model-sha256: [0-9a-f]+$`).ReplaceAllString(string(cert), "; model-sha256: "+mh)
	forged = regexp.MustCompile(`(?m)^; policy-sha256: [0-9a-f]+$`).ReplaceAllString(forged, "; policy-sha256: "+ph)
	if forged == string(cert) {
		t.Fatal("no hash rewritten")
	}
	write("forged.smt2", forged)
	return s29tVigil(t, dir, "cert", "check", "forged.smt2")
}

// TestS29tTwinEnsembleFact: a PolIC3 certificate of a tree-ensemble
// policy rests on the policy fact "go is never chosen at x = 2", true
// because stay and go tie there and ties go to stay. Moved to a twin
// ensemble whose one leaf (go's 0.5) is one float32 ulp larger
// (0.50000006), with both hashes of the certificate recomputed for the
// twin so that they match, the fact is false (go wins at x = 2, and the
// twin reaches x = 3): vigil cert check must refuse it naming the fact
// and the state, not accept the invariant.
func TestS29tTwinEnsembleFact(t *testing.T) {
	code, out := s29tForgeForTwin(t, t.TempDir(), s29tTwinSpec, s29tTwinXGB("0.5"), s29tTwinXGB("0.50000006"))
	if code == cli.ExitOK || !regexp.MustCompile(`^invalid: policy fact on box \d+, label go: policy fact fails: in state x=2 `).MatchString(out) {
		t.Fatalf("cert check of the certificate moved to the twin: exit %d\n%s", code, out)
	}
}

// s29tSumSpec lists go first: a tie goes to go.
var s29tSumSpec = strings.Replace(strings.Replace(s29tTwinSpec, "outputs stay, go", "outputs go, stay", 1),
	"exactly (0.5 each) and the tie goes to stay, the output listed first.",
	"stay scores 1 + delta, go 1; ties go to go, listed first.", 1)

// s29tSumXGB: go (class 0) scores 2 where float32(x) < 2 and 1 elsewhere;
// stay (class 1) sums two trees, 1 and delta, in float32.
func s29tSumXGB(delta string) string {
	return `{"learner":{"learner_model_param":{"base_score":"0","num_class":"2","num_feature":"1"},"objective":{"name":"multi:softprob"},` +
		`"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_trees":"3"},"tree_info":[0,1,1],"trees":[` +
		`{"tree_param":{"num_nodes":"3"},"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[2,2,1],"default_left":[1,0,0]},` +
		`{"tree_param":{"num_nodes":"1"},"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[1],"default_left":[0]},` +
		`{"tree_param":{"num_nodes":"1"},"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[` + delta + `],"default_left":[0]}]}}}}`
}

// TestS29tTwinEnsembleFloat32Sum: the fact "go is never chosen at
// x = 2" holds for stay = 1 + 2^-23 against go = 1. Moved (hashes
// recomputed) to a twin whose delta leaf is 2^-24, it would still hold
// in float64 sums (1 + 2^-24 > 1), but XGBoost sums in float32, where
// 1 + 2^-24 rounds to 1: stay and go tie, go wins as the first output,
// and the twin is unsafe. vigil cert check must sum as XGBoost does and
// refuse the fact.
func TestS29tTwinEnsembleFloat32Sum(t *testing.T) {
	if !strings.Contains(s29tSumSpec, "outputs go, stay") {
		t.Fatal("s29tSumSpec does not list go first")
	}
	code, out := s29tForgeForTwin(t, t.TempDir(), s29tSumSpec, s29tSumXGB("1.1920929E-7"), s29tSumXGB("5.9604645E-8"))
	if code == cli.ExitOK || !regexp.MustCompile(`^invalid: policy fact on box \d+, label go: policy fact fails: in state x=2 `).MatchString(out) {
		t.Fatalf("cert check of the certificate moved to the twin: exit %d\n%s", code, out)
	}
}
