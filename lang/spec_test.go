package lang

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSpecExamples: every ``` block of spec.md that looks like .spec text
// parses (the language document must stay true).
func TestSpecExamples(t *testing.T) {
	data, err := os.ReadFile("spec.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	n := 0
	for _, b := range blocks {
		text := b[1]
		if strings.Contains(text, "error[") { // a rendered diagnostic, not source
			continue
		}
		n++
		if f, diags := Parse("spec.md", []byte(text)); f == nil {
			t.Errorf("example %d does not parse:\n%s\n%s", n, diags.Render(), text)
		}
	}
	if n == 0 {
		t.Fatal("no examples found in spec.md")
	}
}
