package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/diff"

	"vigil/lang"
)

func init() {
	register(&command{
		Name:    "fmt",
		Summary: "format .spec files canonically (comments kept)",
		Usage:   "vigil fmt [-w] [-d] FILE...",
		Examples: []string{
			"vigil fmt specs/oneway.spec        # print the formatted file",
			"vigil fmt -w specs/*.spec          # rewrite files in place",
			"vigil fmt -d specs/oneway.spec     # show what would change",
		},
		Run: runFmt,
	})
}

func runFmt(e *env, args []string) int {
	c := commands["fmt"]
	fs := newFlags(e, c)
	write := fs.Bool("w", false, "write the result back to each file instead of printing it")
	showDiff := fs.Bool("d", false, "print a diff of the changes instead of the formatted text")
	files, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(files) == 0 {
		return fail(e, exitUsage, "vigil fmt: no files given\nusage: %s", c.Usage)
	}
	status := exitOK
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil fmt: %v\n", err)
			status = exitError
			continue
		}
		out, diags := lang.Format(f, src)
		if out == nil {
			printDiags(e, diags)
			status = exitError
			continue
		}
		switch {
		case *showDiff:
			if !bytes.Equal(src, out) {
				e.stdout.Write(diff.Diff(f+".orig", src, f, out))
			}
		case *write:
			if !bytes.Equal(src, out) {
				info, err := os.Stat(f)
				mode := os.FileMode(0o644)
				if err == nil {
					mode = info.Mode().Perm()
				}
				if err := os.WriteFile(f, out, mode); err != nil {
					fmt.Fprintf(e.stderr, "vigil fmt: %v\n", err)
					status = exitError
				}
			}
		default:
			e.stdout.Write(out)
		}
	}
	return status
}
