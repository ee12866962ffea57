// Command vigil verifies and tests learned action policies against symbolic
// environment models. Each command lives in its own file and registers
// itself with cli.Register; package vigil/internal/cli holds the
// dispatcher and the conventions every command shares (exit codes, flag
// types, -D, --json, progress, help).
package main

import (
	"os"

	"vigil/internal/cli"
)

func main() {
	cli.SetupRuntime() // first: it installs the signal handler too
	stop := startDevProfile()
	code := cli.Main(os.Args[1:], &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin})
	stop()
	os.Exit(code)
}
