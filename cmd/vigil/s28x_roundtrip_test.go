package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// s28xSeeds is the number of generated models TestS28xTranslations takes;
// VIGIL_S28X_SEEDS raises it for a longer local campaign.
func s28xSeeds(short int) int {
	if s := os.Getenv("VIGIL_S28X_SEEDS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return short
}

// s28xModel is the generated model of seed, varied over the generator's
// options and transforms (large constants, range errors, a start in the
// initial state, deep expressions, shifted ranges).
func s28xModel(seed uint64) (*symbolic.Model, string) {
	opt := gen.Options{}
	kind := "plain"
	switch seed % 5 {
	case 1:
		opt.Large, kind = true, "large"
	case 2:
		opt.RangeErrors, kind = true, "rangeerr"
	case 3:
		opt.InitialStart, kind = true, "initial"
	case 4:
		opt.MaxDepth, opt.MaxVars, kind = 4, 3, "deep"
	}
	m := gen.Model(seed, opt)
	r := rand.New(rand.NewPCG(seed, 28))
	if seed%3 == 2 {
		m, kind = gen.Shift(m, r), kind+"+shift"
	}
	return m, kind
}

// TestS28xTranslations is the seeded differential test of vigil's
// translations on generated models (s28x review): vigil fmt is idempotent
// and keeps the lowered model; vigil export --jani then vigil explore on
// the .jani reaches the .spec's states, with each rules and table policy
// and with every label; vigil import --goals of that .jani gives a .spec
// with the same counts and bfs verdict; and where z3 is installed, Spacer
// on vigil export --chc gives bfs's verdict.
func TestS28xTranslations(t *testing.T) {
	n := s28xSeeds(30)
	if testing.Short() {
		n = s28xSeeds(10)
	}
	z3, _ := exec.LookPath("z3")
	dir := t.TempDir()
	for seed := uint64(0); seed < uint64(n); seed++ {
		m, kind := s28xModel(seed)
		var src bytes.Buffer
		symbolic.Print(&src, m)
		name := fmt.Sprintf("seed%d_%s", seed, kind)
		spec := filepath.Join(dir, name+".spec")
		t.Run(name, func(t *testing.T) {
			// vigil fmt: idempotent, same model.
			once, diags := lang.Format(spec, src.Bytes())
			if once == nil {
				t.Fatalf("fmt: %s\n%s", diags.Render(), src.String())
			}
			if twice, _ := lang.Format(spec, once); !bytes.Equal(once, twice) {
				t.Fatalf("fmt is not idempotent:\n%s\n---\n%s", once, twice)
			}
			m1, d1 := lang.LoadSource(spec, src.Bytes(), lang.Options{})
			m2, d2 := lang.LoadSource(spec, once, lang.Options{})
			if m1 == nil || m2 == nil {
				t.Fatalf("load: %s / %s\n%s", d1.Render(), d2.Render(), src.String())
			}
			if !bytes.Equal(printModel(m1), printModel(m2)) {
				t.Fatalf("fmt changed the model:\n%s\n---\n%s", src.String(), once)
			}
			if err := os.WriteFile(spec, once, 0o644); err != nil {
				t.Fatal(err)
			}
			// the model over all labels, for vigil verify
			bare := *m1
			bare.Policies = nil
			if err := os.WriteFile(strings.TrimSuffix(spec, ".spec")+"_bare.spec", printModel(&bare), 0o644); err != nil {
				t.Fatal(err)
			}
			pols := []string{""}
			for _, d := range m1.Policies {
				pols = append(pols, d.Name)
			}
			for _, pol := range pols {
				s28xJANI(t, dir, spec, name, m1, pol)
				if z3 != "" {
					s28xCHC(t, z3, dir, spec, name, pol)
				}
			}
		})
	}
}

func printModel(m *symbolic.Model) []byte {
	var b bytes.Buffer
	symbolic.Print(&b, m)
	return b.Bytes()
}

// s28xVerdict is vigil verify's exit code with bfs (0 safe, 3 unsafe, 1
// a range error) and its stdout.
func s28xVerdict(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, stderr := vigilRun(append([]string{"verify", "--engine", "bfs"}, args...)...)
	if code != 0 && code != 1 && code != 3 {
		t.Fatalf("vigil verify %s: exit %d\n%s%s", strings.Join(args, " "), code, out, stderr)
	}
	return code, out
}

func s28xJANI(t *testing.T, dir, spec, name string, m *symbolic.Model, pol string) {
	t.Helper()
	p := m.Properties[0]
	out := filepath.Join(dir, name+"_"+pol+".jani")
	exp := []string{"export", "--jani", spec, "-o", out}
	explore := []string{"explore", spec, "--engine", "bfs", "--json"}
	verify := []string{spec}
	if pol == "" {
		exp = append(exp, "--all-labels")
		verify = []string{strings.TrimSuffix(spec, ".spec") + "_bare.spec"}
		explore[1] = verify[0]
	} else {
		exp = append(exp, "--policy", pol)
		explore = append(explore, "--policy", pol)
		verify = append(verify, "--policy", pol)
	}
	code, _, stderr := vigilRun(exp...)
	if code != 0 && strings.Contains(stderr, "no state satisfies the start condition") {
		// every engine refuses it too
		if c, _, _ := vigilRun(append([]string{"verify", "--engine", "bfs"}, verify...)...); c != 1 {
			t.Fatalf("export refuses an empty start, verify exits %d", c)
		}
		return
	}
	if code != 0 {
		t.Fatalf("vigil %s: exit %d\n%s", strings.Join(exp, " "), code, stderr)
	}
	if strings.Contains(stderr, "beyond ±2^31") || strings.Contains(stderr, "refuses the file it writes") || strings.Contains(stderr, "leaves out property") {
		return // vigil's JANI import keeps bounds within ±2^31 and factors within ±2^40, as the note says
	}
	janiProp := p.Name
	if p.Goal == nil {
		janiProp += "_avoid"
	}
	c1, _ := s28xVerdict(t, verify...)
	c2, o2 := s28xVerdict(t, out, "--property", janiProp)
	if c1 != c2 {
		src, _ := os.ReadFile(verify[0])
		t.Fatalf("policy %q: bfs on the spec exits %d, on the JANI export %d\n%s\n%s", pol, c1, c2, o2, src)
	}
	if c1 == 1 {
		return // a range error: explore stops at it on both sides
	}
	want := s28xExplore(t, explore)
	got := s28xExplore(t, []string{"explore", out, "--property", janiProp, "--engine", "bfs", "--json"})
	if got != want {
		src, _ := os.ReadFile(spec)
		t.Fatalf("policy %q: explore on the JANI export: %s\nexplore on the spec:        %s\n%s", pol, got, want, src)
	}
	// vigil import --goals: the .spec of the .jani.
	imp := filepath.Join(dir, name+"_"+pol+"_imp.spec")
	if code, _, stderr := vigilRun("import", "--goals", out, "-o", imp); code != 0 {
		t.Fatalf("vigil import --goals %s: exit %d\n%s", out, code, stderr)
	}
	got2 := s28xExplore(t, []string{"explore", imp, "--property", janiProp, "--engine", "bfs", "--json"})
	if got2 != want {
		b, _ := os.ReadFile(imp)
		t.Fatalf("policy %q: explore on the imported .spec: %s\nexplore on the spec:            %s\n%s", pol, got2, want, b)
	}
	if c3, _ := s28xVerdict(t, imp, "--property", janiProp); c3 != c1 {
		t.Fatalf("policy %q: bfs on the spec exits %d, on the imported .spec %d", pol, c1, c3)
	}
}

func s28xCHC(t *testing.T, z3, dir, spec, name, pol string) {
	t.Helper()
	out := filepath.Join(dir, name+"_"+pol+".smt2")
	exp := []string{"export", "--chc", spec, "-o", out}
	verify := []string{spec}
	if pol == "" {
		exp = append(exp, "--all-labels")
		verify = []string{strings.TrimSuffix(spec, ".spec") + "_bare.spec"}
	} else {
		exp = append(exp, "--policy", pol)
		verify = append(verify, "--policy", pol)
	}
	if code, _, stderr := vigilRun(exp...); code != 0 {
		if strings.Contains(stderr, "no state satisfies the start condition") {
			return
		}
		t.Fatalf("vigil %s: exit %d\n%s", strings.Join(exp, " "), code, stderr)
	}
	code, vout := s28xVerdict(t, verify...)
	want := map[int]string{0: "sat", 1: "unsat", 3: "unsat"}[code]
	res, err := exec.Command("nice", z3, "-T:20", out).Output()
	got := strings.TrimSpace(string(res))
	if got == "unknown" || got == "timeout" {
		t.Logf("policy %q: z3 answers %s (bfs: %s)", pol, got, want)
		return
	}
	if err != nil && got == "" {
		t.Fatalf("z3 %s: %v", out, err)
	}
	if got != want {
		src, _ := os.ReadFile(spec)
		t.Fatalf("policy %q: z3 on the CHC export answers %q, bfs exits %d (%s)\n%s\n%s", pol, got, code, want, vout, src)
	}
}

// s28xExplore is exploreCounts, or "range error" where explore stops at
// one.
func s28xExplore(t *testing.T, args []string) string {
	t.Helper()
	if code, _, stderr := vigilRun(args...); code == 1 && strings.Contains(stderr, "range error") {
		return "range error"
	}
	return exploreCounts(t, args)
}
