package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"vigil/internal/cli"
)

// version is set with -ldflags "-X main.version=..." by release builds.
var version = "devel"

func init() {
	cli.Register(&cli.Command{
		Name:     "version",
		Summary:  "print vigil's version",
		Usage:    "vigil version",
		Examples: []string{"vigil version"},
		Run: func(e *cli.Env, args []string) int {
			fs, _ := e.Flags("version")
			rest, ok := cli.ParseFlags(fs, args)
			if !ok {
				return cli.ExitUsage
			}
			if len(rest) > 0 {
				return e.Fail(cli.ExitUsage, "vigil version: takes no arguments\nusage: vigil version")
			}
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && v == "devel" {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						v = "devel-" + s.Value[:12]
					}
				}
			}
			fmt.Fprintf(e.Stdout, "vigil %s (%s %s/%s)\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return cli.ExitOK
		},
	})
}
