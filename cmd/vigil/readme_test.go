package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEFilesExist: every file a vigil command in README.md,
// docs/commands.md or docs/tutorial.md names exists in the repository, unless it is a
// placeholder (FILE.spec, RUN.json), a glob, or the output of an earlier
// command (--cert, -o, --record).
func TestREADMEFilesExist(t *testing.T) {
	for _, doc := range []string{"README.md", filepath.Join("docs", "commands.md"), filepath.Join("docs", "tutorial.md")} {
		t.Run(filepath.Base(doc), func(t *testing.T) { checkDocFiles(t, doc) })
	}
}

func checkDocFiles(t *testing.T, doc string) {
	root := filepath.Join("..", "..")
	text, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(string(text))
	if len(cmds) < 10 {
		t.Fatalf("found only %d vigil commands in %s", len(cmds), doc)
	}
	produced := map[string]bool{}
	for _, args := range cmds {
		for i, a := range args {
			if i > 0 && (args[i-1] == "--cert" || args[i-1] == "-o" || args[i-1] == "--record") {
				produced[a] = true
			}
		}
	}
	file := regexp.MustCompile(`\.(spec|jani|jani2nnet|json|onnx|nnet|txt|smt2|toml|vnnlib|csv)$`)
	placeholder := regexp.MustCompile(`^[A-Z0-9_]+(\.[a-z0-9]+)+$`)
	for _, args := range cmds {
		for _, a := range args {
			if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
				a = v
			}
			a = strings.Trim(a, `"'`)
			if !file.MatchString(a) || placeholder.MatchString(filepath.Base(a)) || strings.ContainsAny(a, "*{") || produced[a] {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, a)); err != nil {
				t.Errorf("%s: %q names %s, which is not in the repository", doc, strings.Join(args, " "), a)
			}
		}
	}
}

// readmeCommands returns the vigil command lines of a Markdown file: the lines
// of its code blocks (with \ continuations joined) and its inline code
// spans that start with "vigil ".
func readmeCommands(text string) [][]string {
	var lines []string
	inBlock := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			if n := len(lines); n > 0 && strings.HasSuffix(lines[n-1], "\\") {
				lines[n-1] = strings.TrimSuffix(lines[n-1], "\\") + " " + strings.TrimSpace(l)
			} else {
				lines = append(lines, strings.TrimSpace(l))
			}
			continue
		}
		for _, m := range regexp.MustCompile("`(vigil [^`]*)`").FindAllStringSubmatch(l, -1) {
			lines = append(lines, m[1])
		}
	}
	var cmds [][]string
	for _, l := range lines {
		l, _, _ = strings.Cut(l, "#")
		for _, part := range regexp.MustCompile(`;|&&|\|\|`).Split(l, -1) {
			f := strings.Fields(part)
			for len(f) > 0 && f[0] != "vigil" && f[0] != "./vigil" {
				f = f[1:]
			}
			if len(f) > 1 {
				cmds = append(cmds, f)
			}
		}
	}
	return cmds
}
