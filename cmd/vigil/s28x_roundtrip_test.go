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

	"github.com/rogpeppe/go-internal/txtar"

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

// TestS28xFmtComments: vigil fmt keeps every comment, whatever token it
// stands beside, is idempotent and keeps the model. Comments, block
// (/*cN*/) and line (//cN), are put at random spaces of the shipped
// and benchmark specs.
func TestS28xFmtComments(t *testing.T) {
	files, _ := filepath.Glob("../../specs/*.spec")
	more, _ := filepath.Glob("../../bench/*/*.spec")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no specs")
	}
	srcs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = b
	}
	// the .spec files of the adversarial scripts, in a directory of
	// their own (their policy files are not there: such a model does not
	// load, and only the comments and idempotence are checked)
	scripts, _ := filepath.Glob("../../bench/adversarial/*.txtar")
	for _, sc := range scripts {
		if strings.Contains(sc, "timeout") || strings.Contains(sc, "blowup") || strings.Contains(sc, "limit") {
			continue // models made to load slowly or to exceed a limit
		}
		a, err := txtar.ParseFile(sc)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".spec") {
				name := sc + "/" + f.Name
				files = append(files, name)
				srcs[name] = f.Data
			}
		}
	}
	n := s28xSeeds(40)
	for seed := 0; seed < n; seed++ {
		f := files[(seed*7919)%len(files)]
		src := srcs[f]
		if os.Getenv("VIGIL_S28X_TRACE") != "" {
			fmt.Fprintln(os.Stderr, "s28x:", seed, f)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 2828))
		var b strings.Builder
		var comments []string
		inside := s28xInside(string(src))
		for i, c := range string(src) {
			if c == ' ' && r.IntN(12) == 0 && !inside[i] {
				k := len(comments)
				if r.IntN(3) == 0 {
					comments = append(comments, fmt.Sprintf("//c%d", k))
					b.WriteString(" //c" + strconv.Itoa(k) + "\n")
				} else {
					comments = append(comments, fmt.Sprintf("/*c%d*/", k))
					b.WriteString(" /*c" + strconv.Itoa(k) + "*/ ")
				}
				continue
			}
			b.WriteRune(c)
		}
		in := []byte(b.String())
		m0, _ := lang.LoadSource(f, in, lang.Options{})
		once, diags := lang.Format(f, in)
		if once == nil {
			if orig, _ := lang.Format(f, src); orig != nil {
				t.Errorf("seed %d (%s): fmt refuses the file with comments, not without: %s", seed, f, diags.Render())
			}
			continue
		}
		for _, c := range comments {
			if !bytes.Contains(once, []byte(c)) {
				t.Errorf("seed %d (%s): fmt drops the comment %s\n%s", seed, f, c, once)
			}
		}
		twice, _ := lang.Format(f, once)
		if !bytes.Equal(once, twice) {
			t.Errorf("seed %d (%s): fmt is not idempotent:\n%s\n---\n%s", seed, f, once, twice)
		}
		m1, d1 := lang.LoadSource(f, once, lang.Options{})
		if (m0 == nil) != (m1 == nil) {
			t.Fatalf("seed %d (%s): fmt changed whether the file loads: %s\n%s", seed, f, d1.Render(), once)
		}
		if m0 != nil && !bytes.Equal(printModel(m0), printModel(m1)) {
			t.Errorf("seed %d (%s): fmt changed the model\n%s", seed, f, once)
		}
	}
}

// s28xInside marks the bytes of src inside a comment or a string.
func s28xInside(src string) []bool {
	in := make([]bool, len(src))
	for i := 0; i < len(src); i++ {
		end := -1
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end = strings.IndexByte(src[i:], '\n')
		case strings.HasPrefix(src[i:], "/*"):
			if end = strings.Index(src[i+2:], "*/"); end >= 0 {
				end += 4
			}
		case src[i] == '"':
			if end = strings.IndexByte(src[i+1:], '"'); end >= 0 {
				end += 2
			}
		default:
			continue
		}
		if end < 0 {
			end = len(src) - i
		}
		for k := i; k < i+end; k++ {
			in[k] = true
		}
		i += end - 1
	}
	return in
}

// s28xRich is a generated .spec source with what gen's models lack:
// arrays (indexed from 0 or 1, read and written at constant, parameter
// and variable indices, a read out of range where the index is not
// guarded), an enum, action schemas and `for` families, costs, weights,
// quantifiers and aggregates, negative ranges, comments, and a rules
// policy naming schema labels.
func s28xRich(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 2829))
	n := 2 + r.IntN(2)
	l := r.IntN(2)
	xlo := -r.IntN(3)
	xhi := xlo + 2 + r.IntN(3)
	ahi := 1 + r.IntN(2)
	var b strings.Builder
	fmt.Fprintf(&b, "// rich model %d\nmodel rich%d\nconst N = %d\nconst L = %d\n", seed, seed, n, l)
	b.WriteString("type col = { red, green-x, blue }\n")
	fmt.Fprintf(&b, "var a : [L .. L + N - 1] of 0 .. %d = %d /* array */\n", ahi, r.IntN(ahi+1))
	b.WriteString("var c : col = red\nvar f : bool = false\n")
	fmt.Fprintf(&b, "var x : %d .. %d = %d\n", xlo, xhi, xlo+r.IntN(xhi-xlo+1))
	idx := func() string {
		switch r.IntN(4) {
		case 0:
			return "x" // may leave the array's range: a range error unless guarded
		case 1:
			return "L"
		default:
			return fmt.Sprintf("L + %d", r.IntN(n))
		}
	}
	atom := func() string {
		switch r.IntN(7) {
		case 0:
			return fmt.Sprintf("a[L + %d] %s %d", r.IntN(n), []string{"==", "<", ">=", "!="}[r.IntN(4)], r.IntN(ahi+1))
		case 1:
			return fmt.Sprintf("x %s %d", []string{"==", "<", ">", "<="}[r.IntN(4)], xlo+r.IntN(xhi-xlo+1))
		case 2:
			return "c == " + []string{"red", "green-x", "blue"}[r.IntN(3)]
		case 3:
			return []string{"f", "!f"}[r.IntN(2)]
		case 4:
			return fmt.Sprintf("(count k in L .. L + N - 1: a[k] > 0) >= %d", r.IntN(n+1))
		case 5:
			return fmt.Sprintf("exists k in L .. L + N - 1: a[k] == %d && x >= k - %d", r.IntN(ahi+1), r.IntN(3))
		default:
			return fmt.Sprintf("(sum k in L .. L + N - 1: a[k]) - x > %d", r.IntN(3))
		}
	}
	cond := func() string {
		c := atom()
		for r.IntN(3) == 0 {
			c = "(" + c + ")" + []string{" && ", " || ", " => "}[r.IntN(3)] + "(" + atom() + ")"
		}
		return c
	}
	fmt.Fprintf(&b, "action inc(d in 1 .. 2) when x + d <= %d cost d -> %s: x' = x + d | x' = max(x - 1, %d), f' = !f // step\n", xhi, []string{"0.25", "1/3", "0.5", "2/3"}[r.IntN(4)], xlo)
	fmt.Fprintf(&b, "action put for i in L .. L + N - 1 when a[i] < %d && (%s)\n    -> a[i]' = a[i] + 1, c' = if c == red then green-x else if c == green-x then blue else red\n", ahi, cond())
	w := idx()
	guard := ""
	if w == "x" && r.IntN(2) == 0 {
		guard = "x >= L && x <= L + N - 1 && "
	}
	fmt.Fprintf(&b, "action wr when %s(%s) -> a[%s]' = min(a[%s] + 1, %d)\n", guard, cond(), w, w, ahi)
	fmt.Fprintf(&b, "action clr when forall k in L .. L + N - 1: a[k] > 0 -> forall k in L .. L + N - 1: a[k]' = 0 | 0.5: c' = blue\n")
	fmt.Fprintf(&b, "action back when %s -> x' = %d, f' = %s\n", cond(), xlo, cond())
	labels := []string{"inc[1]", "inc[2]", "put", "wr", "clr", "back"}
	b.WriteString("policy rules pi {\n")
	for i := r.IntN(4); i > 0; i-- {
		fmt.Fprintf(&b, "    when %s -> %s\n", cond(), labels[r.IntN(len(labels))])
	}
	fmt.Fprintf(&b, "    otherwise -> %s\n}\n", labels[r.IntN(len(labels))])
	b.WriteString("property p {\n")
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    start %s\n", cond())
	}
	fmt.Fprintf(&b, "    unsafe %s\n", cond())
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    goal %s\n", cond())
	}
	b.WriteString("}\n")
	return b.String()
}

// TestS28xRichTranslations is TestS28xTranslations on s28xRich's models.
func TestS28xRichTranslations(t *testing.T) {
	n := s28xSeeds(30)
	if testing.Short() {
		n = s28xSeeds(10)
	}
	z3, _ := exec.LookPath("z3")
	dir := t.TempDir()
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := s28xRich(seed)
		name := fmt.Sprintf("rich%d", seed)
		spec := filepath.Join(dir, name+".spec")
		t.Run(name, func(t *testing.T) {
			once, diags := lang.Format(spec, []byte(src))
			if once == nil {
				t.Fatalf("fmt: %s\n%s", diags.Render(), src)
			}
			if twice, _ := lang.Format(spec, once); !bytes.Equal(once, twice) {
				t.Fatalf("fmt is not idempotent:\n%s\n---\n%s", once, twice)
			}
			for _, c := range []string{"// rich model", "/* array */", "// step"} {
				if !bytes.Contains(once, []byte(c)) {
					t.Fatalf("fmt drops %s:\n%s", c, once)
				}
			}
			m1, d1 := lang.LoadSource(spec, []byte(src), lang.Options{})
			m2, d2 := lang.LoadSource(spec, once, lang.Options{})
			if m1 == nil || m2 == nil {
				t.Fatalf("load: %s / %s\n%s", d1.Render(), d2.Render(), src)
			}
			if !bytes.Equal(printModel(m1), printModel(m2)) {
				t.Fatalf("fmt changed the model:\n%s\n---\n%s", src, once)
			}
			if err := os.WriteFile(spec, once, 0o644); err != nil {
				t.Fatal(err)
			}
			bare := *m1
			bare.Policies = nil
			if err := os.WriteFile(filepath.Join(dir, name+"_bare.spec"), printModel(&bare), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, pol := range []string{"", "pi"} {
				s28xJANI(t, dir, spec, name, m1, pol)
				if z3 != "" {
					s28xCHC(t, z3, dir, spec, name, pol)
				}
			}
		})
	}
}
