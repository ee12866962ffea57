package lang_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	_ "vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	_ "vigil/trees"
)

// TestPolIC3Rewrite proves the rewrite of bench/polic3's domains with
// arrays, schemas and quantifiers: for the instances of suite.json small
// enough for a unit test, the file gen_specs.py wrote (kept in
// bench/polic3/testdata) and the rewritten one reach the same number of
// states, transitions, unsafe, goal and deadlock states at the same depth,
// over all labels and under every policy of the instance (the networks
// and ensembles of models/, whose inputs and outputs now name array
// elements and indexed labels). Instances whose state spaces are too
// large to enumerate in a unit test (be3, be4) are compared over all
// labels with the BDD engine, whose counts are exact at any size: the
// same reached, start, unsafe, goal and deadlock states, transitions and
// depth. With -polic3.large the test also compares np3x4 over all labels
// (BDDs) and be3 under each of its eight policies (explicit, up to 2.2
// million states each), 10 minutes and 3.4 GB in all (lang/FIGURES.md):
//
//	go test ./lang -run TestPolIC3Rewrite -polic3.large -timeout 30m -v
//
// np3x4 and be4 under their policies stay out of reach (BFS stops at 120
// s in instances.csv; their start states alone number 7.4·10^7 and
// 2.6·10^8), and transport is not rewritten (lang/FIGURES.md says why).
func TestPolIC3Rewrite(t *testing.T) {
	dir := filepath.Join("..", "bench", "polic3")
	data, err := os.ReadFile(filepath.Join(dir, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Domains []struct {
			Name      string
			Spec      string
			Instances []struct {
				Name    string
				Defines map[string]int
			}
		}
	}
	if err := json.Unmarshal(data, &suite); err != nil {
		t.Fatal(err)
	}
	// what each instance runs: all labels (a), its policies (p)
	// a: all labels (explicit), b: all labels (BDDs), p: its policies
	runs := map[string]string{"bl4": "ap", "bl6": "ap", "bl8": "p", "bl10": "p",
		"np2x3": "ap", "np2x4": "ap", "np3x3": "p", "be1": "ap", "be2": "p", "be3": "b", "be4": "b"}
	maxStates := 400_000
	if *polic3Large {
		runs["np3x4"] = "b"
		runs["be3"] = "bp"
		maxStates = 2_200_000
	}
	if testing.Short() {
		runs = map[string]string{"bl4": "ap", "bl6": "p", "np2x3": "ap", "be1": "ap", "be4": "b"}
	}
	n := 0
	for _, d := range suite.Domains {
		oldSrc, err := os.ReadFile(filepath.Join(dir, "testdata", d.Name+"_gen.spec"))
		if os.IsNotExist(err) {
			continue // not rewritten (transport has no repeated structure)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range d.Instances {
			what, ok := runs[in.Name]
			if !ok {
				continue
			}
			defs := map[string]string{}
			for k, v := range in.Defines {
				defs[k] = strconv.Itoa(v)
			}
			// the old file is read as if it stood beside the new one, so
			// that its policies' files resolve
			mOld, diags := lang.LoadSource(filepath.Join(dir, d.Name+"_gen.spec"), oldSrc, lang.Options{Defines: defs})
			if mOld == nil {
				t.Fatalf("%s (old): %s", in.Name, diags.Render())
			}
			mNew, diags := lang.Load(filepath.Join(dir, d.Spec), lang.Options{Defines: defs})
			if mNew == nil {
				t.Fatalf("%s: %s", in.Name, diags.Render())
			}
			switch what[0] {
			case 'a':
				compareRuns(t, in.Name+" (all labels)", mOld, nil, mNew, nil, maxStates)
				n++
			case 'b':
				compareBDD(t, in.Name+" (all labels, BDDs)", mOld, mNew)
				n++
			}
			if what[len(what)-1] != 'p' {
				continue
			}
			pols := 0
			for _, pNew := range mNew.Policies {
				if !strings.HasPrefix(pNew.Name, in.Name+"_") {
					continue // trained for another instance (beluga's fit every size)
				}
				pOld := mOld.Policy(pNew.Name)
				if pOld == nil {
					t.Errorf("%s: policy %s is not in the old file", in.Name, pNew.Name)
					continue
				}
				compareRuns(t, in.Name+" "+pNew.Name, mOld, pOld, mNew, pNew, maxStates)
				pols++
				n++
			}
			if pols != 8 {
				t.Errorf("%s: %d policies, want 8", in.Name, pols)
			}
		}
	}
	t.Logf("%d runs agree", n)
}

var polic3Large = flag.Bool("polic3.large", false, "TestPolIC3Rewrite: also np3x4 over all labels and be3 under its policies (minutes)")

// compareBDD explores both models over all labels with BDDs from their
// first property's start states and compares the exact counts.
func compareBDD(t *testing.T, what string, mOld, mNew *symbolic.Model) {
	t.Helper()
	explore := func(m *symbolic.Model) string {
		ex, err := bdd.Explore(context.Background(), m, m.Properties[0], nil, bdd.Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !ex.Complete {
			t.Fatalf("%s: %s", what, ex.Reason)
		}
		return fmt.Sprintf("states %v (%v start), transitions %v, depth %d, unsafe %v, goal %v, deadlocks %v",
			ex.States, ex.Starts, ex.Transitions, ex.Depth, ex.Unsafe, ex.Goal, ex.Deadlocks)
	}
	a, b := explore(mOld), explore(mNew)
	if a != b {
		t.Errorf("%s: the old file gives %s, the rewritten one %s", what, a, b)
	} else {
		t.Logf("%s: %s", what, a)
	}
}

// compareRuns explores both models (with their policies, if any) to the
// end, up to maxStates states, and compares what the explorations count.
func compareRuns(t *testing.T, what string, mOld *symbolic.Model, pOld *symbolic.PolicyDecl, mNew *symbolic.Model, pNew *symbolic.PolicyDecl, maxStates int) {
	t.Helper()
	explore := func(m *symbolic.Model, p *symbolic.PolicyDecl) explicit.Stats {
		g, err := explicit.New(m, m.Properties[0])
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		opt := explicit.Options{MaxStates: maxStates}
		if p != nil {
			d, err := explicit.NewDecider(m, p)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			opt.Policy = d
		}
		res, err := explicit.Search(context.Background(), g, opt)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Verdict == explicit.Unknown {
			t.Fatalf("%s: %s", what, res.Reason)
		}
		s := res.Stats
		return explicit.Stats{States: s.States, Transitions: s.Transitions, Depth: s.Depth, Starts: s.Starts,
			Unsafe: s.Unsafe, Goal: s.Goal, Deadlocks: s.Deadlocks, Stuck: s.Stuck}
	}
	a, b := explore(mOld, pOld), explore(mNew, pNew)
	if a != b {
		t.Errorf("%s: the old file gives %+v, the rewritten one %+v", what, a, b)
	}
}

// TestSpecsRewrite: specs/'s larger models, rewritten with arrays and
// schemas, reach what the files they replace (kept in
// testdata/rewrite) reach, over all labels and under their rules policy.
func TestSpecsRewrite(t *testing.T) {
	for _, c := range []struct{ name, policy string }{{"blocks", "tower"}, {"npuzzle", "ring"}} {
		if testing.Short() && c.name == "npuzzle" {
			continue // 313,200 states over all labels
		}
		mOld, diags := lang.Load(filepath.Join("testdata", "rewrite", c.name+"_old.spec"), lang.Options{})
		if mOld == nil {
			t.Fatal(diags.Render())
		}
		mNew, diags := lang.Load(filepath.Join("..", "specs", c.name+".spec"), lang.Options{})
		if mNew == nil {
			t.Fatal(diags.Render())
		}
		compareRuns(t, c.name+" (all labels)", mOld, nil, mNew, nil, 400_000)
		compareRuns(t, c.name+" "+c.policy, mOld, mOld.Policy(c.policy), mNew, mNew.Policy(c.policy), 400_000)
	}
}
