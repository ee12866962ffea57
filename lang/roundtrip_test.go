package lang

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/internal/fuzzseed"
	"vigil/lang/syntax"
	"vigil/symbolic"
)

// specFiles lists the shipped models and the golden inputs.
func specFiles(t testing.TB) []string {
	files, _ := filepath.Glob("../specs/*.spec")
	if len(files) == 0 {
		t.Fatal("no specs found in ../specs")
	}
	return files
}

func printModel(m *symbolic.Model) []byte {
	var b bytes.Buffer
	symbolic.Print(&b, m)
	return b.Bytes()
}

// formatInputs are the shipped specs, the benchmark specs (bench/**) and
// the examples of spec.md, each loaded as a file of its directory.
func formatInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{}
	for _, f := range specFiles(t) {
		in[f], _ = os.ReadFile(f)
	}
	filepath.WalkDir("../bench", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".spec") {
			in[p], _ = os.ReadFile(p)
		}
		return nil
	})
	md, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range regexp.MustCompile("(?s)```\n(.*?)```").FindAllSubmatch(md, -1) {
		if !bytes.Contains(b[1], []byte("error[")) {
			in[fmt.Sprintf("spec.md example %d", i+1)] = b[1]
		}
	}
	return in
}

// TestFormatIdempotent: format(format(x)) == format(x) on every spec,
// benchmark spec that parses and spec.md example, and formatting does not change the
// lowered model (or, for one that does not load, its errors' codes).
func TestFormatIdempotent(t *testing.T) {
	for f, src := range formatInputs(t) {
		once, diags := Format(f, src)
		if once == nil {
			if !strings.HasPrefix(f, "../bench/") { // bench/badinputs holds files that do not parse
				t.Errorf("%s: %s", f, diags.Render())
			}
			continue
		}
		twice, _ := Format(f, once)
		if !bytes.Equal(once, twice) {
			t.Errorf("%s: formatting is not idempotent:\n%s\n---\n%s", f, once, twice)
		}
		path := f
		if !strings.HasSuffix(f, ".spec") {
			path = "spec.spec" // an example: policy files relative to lang/
		}
		m1, d1 := LoadSource(path, src, Options{})
		m2, d2 := LoadSource(path, once, Options{})
		switch {
		case (m1 == nil) != (m2 == nil):
			t.Errorf("%s: formatting changed whether it loads: %s / %s", f, d1.Render(), d2.Render())
		case m1 != nil && !bytes.Equal(printModel(m1), printModel(m2)):
			t.Errorf("%s: formatting changed the model", f)
		case m1 == nil && diagCodes(d1) != diagCodes(d2):
			t.Errorf("%s: formatting changed the errors: %s / %s", f, d1.Render(), d2.Render())
		}
	}
}

// TestPrintRoundTrip: lowering the printed IR gives the same IR, for every
// spec and every golden input that lowers.
func TestPrintRoundTrip(t *testing.T) {
	check := func(name string, m *symbolic.Model) {
		dir := t.TempDir()
		// Policy files are named relative to the spec; keep paths absolute.
		for _, p := range m.Policies {
			for _, f := range []*string{&p.File, &p.Interface} {
				if *f != "" && !filepath.IsAbs(*f) {
					*f, _ = filepath.Abs(*f)
				}
			}
		}
		text := printModel(m)
		path := filepath.Join(dir, "printed.spec")
		m2, diags := LoadSource(path, text, Options{})
		if m2 == nil {
			t.Errorf("%s: printed model does not load:\n%s\n%s", name, diags.Render(), text)
			return
		}
		m2.Name = m.Name
		if again := printModel(m2); !bytes.Equal(text, again) {
			t.Errorf("%s: print/lower round trip differs:\n%s\n---\n%s", name, text, again)
		}
	}
	for _, f := range specFiles(t) {
		m, diags := Load(f, Options{})
		if m == nil {
			t.Errorf("%s: %s", f, diags.Render())
			continue
		}
		check(f, m)
	}
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, g := range goldens {
		ar, _ := txtar.ParseFile(g)
		dir := t.TempDir()
		for _, f := range ar.Files {
			p := filepath.Join(dir, f.Name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, f.Data, 0o644)
		}
		if m, _ := Load(filepath.Join(dir, "in.spec"), Options{}); m != nil {
			check(g, m)
		}
	}
}

// addTestdataSeeds adds to f's corpus the in.spec of every golden
// archive and every chunk (separated by "---" lines) of the error specs.
func addTestdataSeeds(f *testing.F) {
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, g := range goldens {
		ar, _ := txtar.ParseFile(g)
		for _, file := range ar.Files {
			if file.Name == "in.spec" {
				f.Add(file.Data)
			}
		}
	}
	errs, _ := filepath.Glob("testdata/errors/*.spec")
	for _, e := range errs {
		src, _ := os.ReadFile(e)
		for _, chunk := range strings.Split(string(src), "\n---\n") {
			f.Add([]byte(chunk))
		}
	}
}

// FuzzFrontEnd: the front end never panics; whatever parses formats
// idempotently; whatever loads prints to text that loads to the same IR,
// and its formatted text loads to the same IR too.
func FuzzFrontEnd(f *testing.F) {
	for _, file := range specFiles(f) {
		src, _ := os.ReadFile(file)
		f.Add(src)
		for _, v := range fuzzseed.Variants(src) {
			f.Add(v)
		}
	}
	// Nesting beyond MaxDepth, in every construct that nests.
	f.Add(append([]byte("const c = "), fuzzseed.Deep("(", "1", ")")...))
	f.Add(append([]byte("const c = "), fuzzseed.Deep("-", "1", "")...))
	f.Add(append([]byte("var x : bool\npred p = "), fuzzseed.Deep("!", "x", "")...))
	f.Add(append([]byte("const c = 1"), fuzzseed.Deep(" + 1", "", "")...))
	f.Add(append([]byte("const c = "), fuzzseed.Deep("if true then 1 else ", "1", "")...))
	f.Add(append([]byte("const c = "), fuzzseed.Deep("abs(", "1", ")")...))
	// Precedence, signs, comments in odd places, CRLF, tabs, unicode.
	for _, src := range []string{
		"var x : -5 .. 5 = 0\nconst A = 1\naction a when x - (A - 2) > 0 -> x' = -(x) * 2 / 2 - -1 - - 1\nproperty p { unsafe x == -(-3) }\n",
		"var b : bool = false\nvar c : bool = true\npred q = !(b && c) || c\npred r = !b && c => b => c\npred s = (b => c) => b\nproperty p { unsafe q && r && s }\n",
		"var x : 0 .. 9 = 0\r\n// c\r\naction a /* a\r\nb */ when x < 9 -> x' = if x > 1 then if x > 2 then 3 else 4 else 5 // t\r\nproperty p { unsafe x == 9 }\r\n",
		"var x : 0 .. 9 = 0 /* \u00e9 \u65e5\U0001F600 */\n\taction\ta\twhen\tx < 9 ->\n// lead\nx' = x + 2 // t1\n| // t2\nx' = x + 3\nproperty p { unsafe x == 9 } /* a\nb */ // c\n",
		"const MIN = -9223372036854775808\nvar exists : bool = false\npred q = exists\nproperty p { unsafe q && MIN < 0 }\n",
	} {
		f.Add([]byte(src))
	}
	addTestdataSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _ := Format("fuzz.spec", src)
		if out != nil {
			again, diags := Format("fuzz.spec", out)
			if again == nil {
				t.Fatalf("formatted text does not parse: %s\n%s", diags.Render(), out)
			}
			if !bytes.Equal(out, again) {
				t.Fatalf("format not idempotent:\n%s\n---\n%s", out, again)
			}
			f1, _ := Parse("fuzz.spec", src)
			f2, _ := Parse("fuzz.spec", out)
			if a, b := commentTexts(f1), commentTexts(f2); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
				t.Fatalf("formatting changed the comments: %q, then %q:\n%s", a, b, out)
			}
		}
		m, _ := LoadSource("fuzz.spec", src, Options{})
		if m == nil {
			return
		}
		text := printModel(m)
		if out != nil {
			mf, diags := LoadSource("fuzz.spec", out, Options{})
			if mf == nil {
				t.Fatalf("the formatted text does not load: %s\n%s", diags.Render(), out)
			}
			if got := printModel(mf); !bytes.Equal(text, got) {
				t.Fatalf("formatting changed the model:\n%s\n---\n%s", text, got)
			}
		}
		m2, diags := LoadSource("fuzz.spec", text, Options{})
		if m2 == nil {
			t.Fatalf("printed model does not load: %s\n%s", diags.Render(), text)
		}
		m2.Name = m.Name
		if again := printModel(m2); !bytes.Equal(text, again) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", text, again)
		}
	})
}

// genSpec writes a spec with nvars variables and ncmds commands.
func genSpec(nvars, ncmds int) []byte {
	var b bytes.Buffer
	b.WriteString("model big\nconst N = 100\n")
	for i := 0; i < nvars; i++ {
		fmt.Fprintf(&b, "var v%d : 0 .. N = 0\n", i)
	}
	for i := 0; i < ncmds; i++ {
		x, y, z := i%nvars, (i*7+3)%nvars, (i*13+5)%nvars
		fmt.Fprintf(&b, "action a%d when v%d < N - 1 && v%d >= %d || v%d == 0\n    -> v%d' = v%d + 1, v%d' = max(v%d - 1, 0)\n     | 1/3: v%d' = (v%d + 2 * v%d) / 3\n",
			i%50, x, y, i%7, z, x, x, y, y, z, y, z)
	}
	b.WriteString("property p { start v0 == 0  unsafe v1 == N }\n")
	return b.Bytes()
}

// BenchmarkLoadLarge: parse + check + lower of 10,000 commands over 200
// variables.
func BenchmarkLoadMedium(b *testing.B) {
	src := genSpec(200, 1000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if m, d := LoadSource("big.spec", src, Options{}); m == nil {
			b.Fatal(d.Render())
		}
	}
}

// BenchmarkLoadLarge: parse + check + lower of 10,000 commands over 200
// variables.
func BenchmarkLoadLarge(b *testing.B) {
	src := genSpec(200, 10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if m, d := LoadSource("big.spec", src, Options{}); m == nil {
			b.Fatal(d.Render())
		}
	}
}

// BenchmarkParseLarge: the parser alone on the same input.
func BenchmarkParseLarge(b *testing.B) {
	src := genSpec(200, 10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if f, d := Parse("big.spec", src); f == nil {
			b.Fatal(d.Render())
		}
	}
}

// BenchmarkLoadSpecs: every shipped example.
func BenchmarkLoadSpecs(b *testing.B) {
	files := specFiles(b)
	srcs := make([][]byte, len(files))
	for i, f := range files {
		srcs[i], _ = os.ReadFile(f)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for j, f := range files {
			LoadSource(f, srcs[j], Options{})
		}
	}
}

// TestSpecsCanonical: the shipped specs are in canonical vigil fmt form
// (run vigil fmt -w specs/*.spec after editing one), and no formatted line
// is longer than MaxWidth unless it has no break point.
func TestSpecsCanonical(t *testing.T) {
	for _, file := range specFiles(t) {
		src, _ := os.ReadFile(file)
		out, diags := Format(file, src)
		if out == nil {
			t.Errorf("%s does not parse: %s", file, diags.Render())
			continue
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s is not in vigil fmt form; run vigil fmt -w %s", file, file)
		}
		for i, l := range strings.Split(string(out), "\n") {
			if n := utf8.RuneCountInString(l); n > syntax.MaxWidth && len(syntax.Wrap(l)) > 1 {
				t.Errorf("%s:%d: %d columns", file, i+1, n)
			}
		}
	}
}

func diagCodes(ds Diagnostics) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Code)
	}
	return strings.Join(s, ",")
}

// commentTexts are the texts of f's comments, sorted, with CRLF read as
// LF (as the formatter writes them).
func commentTexts(f *File) []string {
	var out []string
	for _, c := range f.Comments {
		out = append(out, strings.ReplaceAll(c.Text, "\r\n", "\n"))
	}
	sort.Strings(out)
	return out
}
