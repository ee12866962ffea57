package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/diff"

	"vigil/internal/cli"
	"vigil/internal/inputfile"
	"vigil/lang"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "fmt",
		Summary: "format .spec files canonically (comments kept)",
		Usage:   "vigil fmt [-w] [-d] FILE...",
		Help: `vigil fmt prints each FILE formatted canonically (the layout vigil's own
specs have; comments kept), or with -w rewrites it, or with -d shows the
diff. FILE - is the standard input (an editor's format-on-save command),
printed to the standard output.`,
		Examples: []string{
			"vigil fmt specs/oneway.spec        # print the formatted file",
			"vigil fmt - < draft.spec           # format the standard input",
			"vigil fmt -w specs/*.spec          # rewrite files in place",
			"vigil fmt -d specs/oneway.spec     # show what would change",
		},
		Run: runFmt,
	})
}

func runFmt(e *cli.Env, args []string) int {
	fs, c := e.Flags("fmt")
	write := fs.Bool("w", false, "write the result back to each file instead of printing it")
	showDiff := fs.Bool("d", false, "print a diff of the changes instead of the formatted text")
	files, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(files) == 0 {
		return e.Fail(cli.ExitUsage, "vigil fmt: no files given\nusage: %s", c.Usage)
	}
	status := cli.ExitOK
	for _, f := range files {
		var src []byte
		var err error
		if f == "-" {
			if *write {
				fmt.Fprintf(e.Stderr, "vigil fmt: -w cannot rewrite the standard input (-); without -w its formatted text is printed\n")
				status = cli.ExitUsage
				continue
			}
			src, err = inputfile.ReadAll(e.Stdin, "the standard input")
		} else {
			src, err = inputfile.ReadFile(f)
		}
		if err != nil {
			fmt.Fprintf(e.Stderr, "vigil fmt: %v\n", err)
			status = cli.ExitError
			continue
		}
		name := f
		if f == "-" {
			name = "<stdin>"
		}
		out, diags := lang.Format(name, src)
		if out == nil {
			e.PrintDiags(diags)
			status = cli.ExitError
			continue
		}
		switch {
		case *showDiff:
			if !bytes.Equal(src, out) {
				e.Stdout.Write(diff.Diff(name+".orig", src, name, out))
			}
		case *write:
			if !bytes.Equal(src, out) {
				info, err := os.Stat(f)
				mode := os.FileMode(0o644)
				if err == nil {
					mode = info.Mode().Perm()
				}
				if err := cli.WriteFile(f, out, mode); err != nil {
					fmt.Fprintf(e.Stderr, "vigil fmt: %v\n", err)
					status = cli.ExitError
				}
			}
		default:
			e.Stdout.Write(out)
		}
	}
	return status
}
