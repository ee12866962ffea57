package lang

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeepNesting: input nested far beyond MaxDepth gets a positioned
// syntax error, not a stack overflow, whatever construct does the nesting.
func TestDeepNesting(t *testing.T) {
	const n = 100000
	cases := map[string]string{
		"parentheses":  "const c = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n",
		"unclosed":     "const c = " + strings.Repeat("(", n) + "\n",
		"negation":     "const c = " + strings.Repeat("-", n) + "1\n",
		"not":          "var x : bool\npred p = " + strings.Repeat("!", n) + "x\n",
		"sum":          "const c = 1" + strings.Repeat(" + 1", n) + "\n",
		"conjunction":  "var x : bool\npred p = x" + strings.Repeat(" && x", n) + "\n",
		"implication":  "var x : bool\npred p = x" + strings.Repeat(" => x", n) + "\n",
		"if":           "const c = " + strings.Repeat("if true then 1 else ", n) + "1\n",
		"calls":        "const c = " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) + "\n",
		"policy input": "var x : 0 .. 1\npolicy nn p \"p.onnx\" {\n    inputs " + strings.Repeat("(", n) + "x\n}\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			f, diags := Parse("deep.spec", []byte(src))
			if f != nil || len(diags) != 1 {
				t.Fatalf("want one error, got %d: %s", len(diags), diags.Render())
			}
			d := diags[0]
			if !strings.Contains(d.Msg, "nested too deeply") || d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("want a positioned depth error, got %s", d)
			}
		})
	}
}

// TestNestingWithinLimit: nesting up to the limit parses and loads.
func TestNestingWithinLimit(t *testing.T) {
	n := MaxDepth - 10
	src := "const c = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\nvar x : 0 .. c\n"
	if m, diags := LoadSource("ok.spec", []byte(src), Options{}); m == nil {
		t.Fatal(diags.Render())
	}
}

// TestLongDefinitionChains: constants and predicates defined through
// 100,000 others load (or fail with an error), without exhausting the stack.
func TestLongDefinitionChains(t *testing.T) {
	const n = 100000
	var consts, preds, rconsts, rpreds strings.Builder
	consts.WriteString("const c0 = 1\n")
	preds.WriteString("var x : 0 .. 3\npred p0 = x > 0\n")
	rpreds.WriteString("var x : 0 .. 3\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&consts, "const c%d = c%d + 1\n", i, i-1)
		fmt.Fprintf(&preds, "pred p%d = p%d && x < 3\n", i, i-1)
		// the same chains declared the other way round: each uses a later one
		fmt.Fprintf(&rconsts, "const c%d = c%d + 1\n", i, i+1)
		fmt.Fprintf(&rpreds, "pred p%d = p%d && x < 3\n", i, i+1)
	}
	fmt.Fprintf(&rconsts, "const c%d = 1\n", n)
	fmt.Fprintf(&rpreds, "pred p%d = x > 0\n", n)
	for name, src := range map[string]string{"constants": consts.String(), "predicates": preds.String(),
		"constants reversed": rconsts.String(), "predicates reversed": rpreds.String()} {
		t.Run(name, func(t *testing.T) {
			m, diags := LoadSource("chain.spec", []byte(src), Options{})
			if m == nil && (len(diags) != 1 || diags[0].Code != "E0210") {
				t.Fatalf("unexpected errors: %s", diags.Render())
			}
		})
	}
}

// TestLexerErrors: unterminated strings and comments are named as such.
func TestLexerErrors(t *testing.T) {
	for src, want := range map[string]string{
		"import \"a.spec\nmodel m\n": "1:8: error[E0001]: unterminated string",
		"model m /* a comment\n":     "1:9: error[E0001]: unterminated comment",
		"model m #\n":                "1:9: error[E0001]: invalid character '#'",
		"import \"a\\q.spec\"\n":     "1:8: error[E0001]: invalid string",
	} {
		_, diags := Parse("x.spec", []byte(src))
		if !strings.Contains(diags.Render(), want) {
			t.Errorf("%q: want %q, got %s", src, want, diags.Render())
		}
	}
}
