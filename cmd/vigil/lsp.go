package main

import (
	"vigil/internal/cli"
	"vigil/lsp"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "lsp",
		Summary: "a Language Server Protocol server for .spec files, over stdin and stdout",
		Usage:   "vigil lsp [-D NAME=VALUE]...",
		Help: `vigil lsp speaks the Language Server Protocol (JSON-RPC 2.0, Content-Length
framing) on stdin and stdout, so that an LSP editor (VS Code with editors/vscode,
Neovim, Emacs, Helix) understands .spec files: diagnostics on open and change
with the checker's codes and ranges, formatting (vigil fmt), hover (a
declaration's folded value or range, a policy's inputs and outputs), go to
definition, find references, completion of names, document symbols, renaming and quick fixes for misspelt names.
Editors start it themselves; a malformed message gets an error response and
the server keeps serving. Exit code 0 after shutdown and exit, 1 when the
client ends the session without shutdown.`,
		Examples: []string{
			"vigil lsp                 # started by the editor, e.g. editors/vscode",
			"vigil lsp -D L=20         # check every document with L = 20",
		},
		Run: runLSP,
	})
}

func runLSP(e *cli.Env, args []string) int {
	fs, c := e.Flags("lsp")
	defs := cli.Defines{}
	fs.Var(defs, "D", "override a constant in every document: -D `NAME=VALUE` (repeatable)")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) > 0 {
		return e.Fail(cli.ExitUsage, "vigil lsp: takes no file arguments (the editor sends the documents)\nusage: %s", c.Usage)
	}
	err := lsp.Serve(e.Stdin, e.Stdout, lsp.Options{Defines: defs, Version: version})
	if err != nil {
		// lsp.ErrNoShutdown too: the LSP specification asks for exit code 1
		return e.Fail(cli.ExitFor(err), "vigil lsp: %v", err)
	}
	return cli.ExitOK
}
