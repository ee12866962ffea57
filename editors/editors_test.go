package editors

// The grammar is checked three ways. Its JSON must parse. Its regular
// expressions must compile with Go's regexp: TextMate editors use
// Oniguruma, which accepts more (lookaround, possessive quantifiers, \G),
// so the grammar keeps to the syntax both share, where both mean the same
// on ASCII (\b, \s, \w, classes, alternation). And a small tokenizer that
// applies the grammar as TextMate does (at each position the rule with
// the leftmost match wins, ties to the rule listed first; begin/end rules
// span lines) runs it over the specs and spec.md's example, checking that
// every keyword is highlighted as one and that no name is.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"vigil/lang"
)

type rawRule struct {
	Name     string             `json:"name"`
	Match    string             `json:"match"`
	Begin    string             `json:"begin"`
	End      string             `json:"end"`
	Include  string             `json:"include"`
	Captures map[string]capture `json:"captures"`
	Patterns []rawRule          `json:"patterns"`
}

type capture struct {
	Name string `json:"name"`
}

type grammar struct {
	Name       string             `json:"name"`
	ScopeName  string             `json:"scopeName"`
	FileTypes  []string           `json:"fileTypes"`
	Patterns   []rawRule          `json:"patterns"`
	Repository map[string]rawRule `json:"repository"`
}

// rule is a grammar rule with its includes resolved and regexps compiled.
type rule struct {
	name       string
	match      *regexp.Regexp
	captures   map[int]string
	begin, end *regexp.Regexp
	inner      []*rule
}

func loadGrammar(t *testing.T) (*grammar, []*rule) {
	t.Helper()
	b, err := os.ReadFile("vscode/syntaxes/vigil-spec.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var g grammar
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		// $schema and comment are allowed; decode again leniently to
		// tell an unknown field from bad JSON
		var any map[string]any
		if json.Unmarshal(b, &any) != nil {
			t.Fatalf("the grammar is not JSON: %v", err)
		}
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
	}
	var compile func(rs []rawRule, seen map[string]bool) []*rule
	compile = func(rs []rawRule, seen map[string]bool) []*rule {
		var out []*rule
		for _, r := range rs {
			if r.Include != "" {
				key := strings.TrimPrefix(r.Include, "#")
				inc, ok := g.Repository[key]
				if !ok || !strings.HasPrefix(r.Include, "#") {
					t.Fatalf("include %q names no repository entry", r.Include)
				}
				if seen[key] {
					t.Fatalf("include cycle through %q", key)
				}
				s2 := map[string]bool{key: true}
				for k := range seen {
					s2[k] = true
				}
				out = append(out, compile(inc.Patterns, s2)...)
				continue
			}
			c := &rule{name: r.Name, captures: map[int]string{}}
			re := func(what, s string) *regexp.Regexp {
				x, err := regexp.Compile(s)
				if err != nil {
					t.Fatalf("rule %q: %s %q does not compile with Go's regexp (keep to the syntax Oniguruma and RE2 share): %v", r.Name, what, s, err)
				}
				return x
			}
			switch {
			case r.Match != "" && r.Begin == "":
				c.match = re("match", r.Match)
			case r.Begin != "" && r.End != "" && r.Match == "":
				c.begin, c.end = re("begin", r.Begin), re("end", r.End)
				c.inner = compile(r.Patterns, seen)
			default:
				t.Fatalf("rule %q needs match, or begin and end", r.Name)
			}
			for k, v := range r.Captures {
				var n int
				for _, ch := range k {
					if ch < '0' || ch > '9' {
						t.Fatalf("rule %q: capture %q is not a group number", r.Name, k)
					}
					n = n*10 + int(ch-'0')
				}
				if c.match == nil || n > c.match.NumSubexp() {
					t.Fatalf("rule %q: capture %d names no group", r.Name, n)
				}
				c.captures[n] = v.Name
			}
			if c.name == "" && len(c.captures) == 0 {
				t.Fatalf("a rule without a scope: %+v", r)
			}
			out = append(out, c)
		}
		return out
	}
	return &g, compile(g.Patterns, map[string]bool{})
}

// tokenize gives every byte of src a scope ("" for none), applying the
// rules as a TextMate editor does, line by line.
func tokenize(rules []*rule, src string) []string {
	scopes := make([]string, len(src))
	var open *rule // the begin/end rule we are inside, if any
	off := 0
	for _, line := range strings.SplitAfter(src, "\n") {
		line = strings.TrimSuffix(line, "\n")
		i := 0
		for i <= len(line) {
			if open != nil {
				loc := open.end.FindStringIndex(line[i:])
				stop := len(line)
				if loc != nil {
					stop = i + loc[1]
				}
				for k := i; k < stop; k++ {
					scopes[off+k] = open.name
				}
				if loc == nil {
					break
				}
				i, open = stop, nil
				continue
			}
			best, bestLoc := (*rule)(nil), []int(nil)
			for _, r := range rules {
				re := r.match
				if re == nil {
					re = r.begin
				}
				loc := re.FindStringSubmatchIndex(line[i:])
				if loc == nil || loc[1] == loc[0] {
					continue
				}
				if bestLoc == nil || loc[0] < bestLoc[0] {
					best, bestLoc = r, loc
				}
			}
			if best == nil {
				break
			}
			s, e := i+bestLoc[0], i+bestLoc[1]
			for k := s; k < e; k++ {
				scopes[off+k] = best.name
			}
			for n, name := range best.captures {
				if a, b := bestLoc[2*n], bestLoc[2*n+1]; a >= 0 {
					for k := i + a; k < i+b; k++ {
						scopes[off+k] = name
					}
				}
			}
			i = e
			if best.begin != nil {
				open = best
			}
		}
		off += len(line) + 1
	}
	return scopes
}

var keywordScope = regexp.MustCompile(`^(keyword|storage|constant\.language|support\.function)\.`)

// TestGrammarKeywords: every keyword of the language is highlighted as a
// keyword alone and between names, and the grammar highlights no word
// that is not one.
func TestGrammarKeywords(t *testing.T) {
	_, rules := loadGrammar(t)
	kws := lang.Keywords()
	for _, kw := range kws {
		for _, ctx := range []string{"%s", "x %s y", "(%s)"} {
			src := strings.Replace(ctx, "%s", kw, 1)
			at := strings.Index(src, kw)
			sc := tokenize(rules, src)
			for k := at; k < at+len(kw); k++ {
				if !keywordScope.MatchString(sc[k]) {
					t.Errorf("keyword %s in %q has scope %q", kw, src, sc[k])
					break
				}
			}
		}
	}
	// the words the keyword rules list are exactly the keywords
	b, _ := os.ReadFile("vscode/syntaxes/vigil-spec.tmLanguage.json")
	var listed []string
	for _, m := range regexp.MustCompile(`\\\\b\(\?:([a-z|]+)\)\\\\b`).FindAllStringSubmatch(string(b), -1) {
		listed = append(listed, strings.Split(m[1], "|")...)
	}
	sort.Strings(listed)
	if strings.Join(listed, " ") != strings.Join(kws, " ") {
		t.Errorf("the grammar's keyword rules list\n  %v\nthe language's keywords are\n  %v", listed, kws)
	}
}

// TestGrammarNames: names are never highlighted as keywords, hyphens and
// all (hand-empty, if-x and pos-1 are single names).
func TestGrammarNames(t *testing.T) {
	_, rules := loadGrammar(t)
	for _, name := range []string{"hand-empty", "if-x", "x-if", "model_", "max_speed", "pos-1", "start-goal"} {
		for _, ctx := range []string{"%s", "x + %s", "when %s > 0"} {
			src := strings.Replace(ctx, "%s", name, 1)
			at := strings.Index(src, name)
			sc := tokenize(rules, src)
			for k := at; k < at+len(name); k++ {
				if !strings.HasPrefix(sc[k], "variable.") {
					t.Errorf("name %s in %q: byte %d has scope %q", name, src, k-at, sc[k])
					break
				}
			}
		}
	}
	// quantifier words are keywords only before a name and in
	for src, want := range map[string]bool{"count k in 0 .. 2: x > k": true, "count + 1": false, "sum-x": false, "action m(b in 0 .. 2) -> skip": false} {
		sc := tokenize(rules, src)
		if got := keywordScope.MatchString(sc[0]) && strings.HasPrefix(src, "count k"); got != want {
			t.Errorf("%q: first word's scope %q", src, sc[0])
		}
		if i := strings.Index(src, " in "); i >= 0 && !strings.HasPrefix(sc[i+1], "keyword.operator.in") {
			t.Errorf("%q: in has scope %q", src, sc[i+1])
		}
	}
	// declared names get their declaration's scope
	sc := tokenize(rules, "const hand-empty = 1")
	if got := sc[len("const ")]; got != "variable.other.constant.vigil-spec" {
		t.Errorf("a constant's name has scope %q", got)
	}
}

// TestGrammarOnSpecs runs the grammar over every spec and spec.md's code
// blocks: each keyword outside comments and strings is highlighted as a
// keyword, and comments are comments to their end.
func TestGrammarOnSpecs(t *testing.T) {
	_, rules := loadGrammar(t)
	files, _ := filepath.Glob("../specs/*.spec")
	if len(files) == 0 {
		t.Fatal("no specs found in ../specs")
	}
	var srcs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	md, err := os.ReadFile("../lang/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(md), "```")
	for i := 1; i < len(parts); i += 2 { // the code blocks
		srcs = append(srcs, parts[i])
	}
	kw := map[string]bool{}
	for _, k := range lang.Keywords() {
		kw[k] = true
	}
	contextual := map[string]bool{}
	for _, k := range lang.ContextualKeywords() {
		contextual[k] = true
	}
	word := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*`)
	for n, src := range srcs {
		sc := tokenize(rules, src)
		// blank out comments and strings as the lexer sees them
		plain := []byte(src)
		for i := range plain {
			if strings.HasPrefix(sc[i], "comment.") || strings.HasPrefix(sc[i], "string.") || strings.HasPrefix(sc[i], "constant.character") {
				plain[i] = ' '
			}
		}
		for _, loc := range word.FindAllIndex(plain, -1) {
			w := string(plain[loc[0]:loc[1]])
			isKw := keywordScope.MatchString(sc[loc[0]])
			if kw[w] && !isKw {
				t.Errorf("source %d: keyword %s at byte %d has scope %q", n, w, loc[0], sc[loc[0]])
			}
			if !kw[w] && !contextual[w] && isKw {
				t.Errorf("source %d: name %s at byte %d has keyword scope %q", n, w, loc[0], sc[loc[0]])
			}
		}
		for i := 0; i+1 < len(src); i++ {
			if src[i] == '/' && src[i+1] == '/' && sc[i] == "" {
				t.Errorf("source %d: // at byte %d is not in a comment", n, i)
			}
		}
	}
}

// TestManifest: the extension's JSON files parse, name files that exist,
// agree on the language id and scope, and need no npm install (no
// dependencies), so the extension works from a copy of the directory.
func TestManifest(t *testing.T) {
	g, _ := loadGrammar(t)
	var pkg struct {
		Main            string         `json:"main"`
		Dependencies    map[string]any `json:"dependencies"`
		DevDependencies map[string]any `json:"devDependencies"`
		Contributes     struct {
			Languages []struct {
				ID            string   `json:"id"`
				Extensions    []string `json:"extensions"`
				Configuration string   `json:"configuration"`
			} `json:"languages"`
			Grammars []struct {
				Language  string `json:"language"`
				ScopeName string `json:"scopeName"`
				Path      string `json:"path"`
			} `json:"grammars"`
		} `json:"contributes"`
	}
	readJSON(t, "vscode/package.json", &pkg)
	if len(pkg.Dependencies)+len(pkg.DevDependencies) > 0 {
		t.Errorf("package.json has dependencies: building would need the network")
	}
	exists := func(p string) {
		if _, err := os.Stat(filepath.Join("vscode", p)); err != nil {
			t.Errorf("package.json names %s: %v", p, err)
		}
	}
	exists(pkg.Main)
	if len(pkg.Contributes.Languages) != 1 || len(pkg.Contributes.Grammars) != 1 {
		t.Fatalf("want one language and one grammar: %+v", pkg.Contributes)
	}
	l, gr := pkg.Contributes.Languages[0], pkg.Contributes.Grammars[0]
	exists(l.Configuration)
	exists(gr.Path)
	if gr.Language != l.ID || gr.ScopeName != g.ScopeName || strings.Join(l.Extensions, ",") != ".spec" {
		t.Errorf("language %q, grammar for %q with scope %q (the grammar's is %q), extensions %v", l.ID, gr.Language, gr.ScopeName, g.ScopeName, l.Extensions)
	}
	var conf struct {
		WordPattern string `json:"wordPattern"`
		Comments    struct {
			LineComment  string   `json:"lineComment"`
			BlockComment []string `json:"blockComment"`
		} `json:"comments"`
	}
	readJSON(t, filepath.Join("vscode", l.Configuration), &conf)
	wp, err := regexp.Compile("^(?:" + conf.WordPattern + ")$")
	if err != nil {
		t.Fatalf("wordPattern: %v", err)
	}
	for _, w := range []string{"hand-empty", "x", "pos-1"} {
		if !wp.MatchString(w) {
			t.Errorf("wordPattern does not take %s as one word", w)
		}
	}
	if conf.Comments.LineComment != "//" || strings.Join(conf.Comments.BlockComment, " ") != "/* */" {
		t.Errorf("comments %+v", conf.Comments)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestExtensionSmoke runs the VS Code extension's client under node,
// against a stand-in for the vscode module and a real `vigil lsp` built
// for the test: diagnostics arrive and clear, and every provider answers.
func TestExtensionSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vigil")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	vigil := filepath.Join(dir, "vigil")
	if out, err := exec.Command("go", "build", "-o", vigil, "vigil/cmd/vigil").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(node, "testdata/smoke.js", filepath.Join(dir, "m.spec"))
	cmd.Env = append(os.Environ(), "VIGIL="+vigil)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got struct {
		Error struct {
			Code, Message   string
			Line, Character int
		}
		Fixed      bool
		Hover      string
		Definition [][2]int
		References int
		Formatted  string
		Completion []string
		Symbols    []string
		Fix        []string
		Rename     []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Error.Code != "E0101" || !strings.Contains(got.Error.Message, "NN") || got.Error.Line != 2 || got.Error.Character != 20 {
		t.Errorf("the error: %+v", got.Error)
	}
	if !got.Fixed || !strings.Contains(got.Hover, "const N = 3") || len(got.Definition) != 1 || got.Definition[0] != [2]int{0, 8} {
		t.Errorf("fixed %v, hover %q, definition %v", got.Fixed, got.Hover, got.Definition)
	}
	if got.References != 4 || got.Formatted != "const N = 3" {
		t.Errorf("references %d, formatted first line %q", got.References, got.Formatted)
	}
	if strings.Join(got.Completion, " ") != "N x inc" || strings.Join(got.Symbols, " ") != "N x inc p" {
		t.Errorf("completion %v, symbols %v", got.Completion, got.Symbols)
	}
	if strings.Join(got.Fix, ";") != "Change to N: N" || strings.Join(got.Rename, " ") != "0:8 1:13 2:20 3:24" {
		t.Errorf("quick fix %v, rename edits at %v", got.Fix, got.Rename)
	}
}
