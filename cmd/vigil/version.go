package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set with -ldflags "-X main.version=..." by release builds.
var version = "devel"

func init() {
	register(&command{
		Name:     "version",
		Summary:  "print vigil's version",
		Usage:    "vigil version",
		Examples: []string{"vigil version"},
		Run: func(e *env, args []string) int {
			fs := newFlags(e, commands["version"])
			rest, ok := parseFlags(fs, args)
			if !ok {
				return exitUsage
			}
			if len(rest) > 0 {
				return fail(e, exitUsage, "vigil version: takes no arguments\nusage: vigil version")
			}
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && v == "devel" {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						v = "devel-" + s.Value[:12]
					}
				}
			}
			fmt.Fprintf(e.stdout, "vigil %s (%s %s/%s)\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return exitOK
		},
	})
}
