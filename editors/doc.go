// Package editors holds editor support for .spec files, which is not Go:
// vscode/ is a VS Code extension (a TextMate grammar, a language
// configuration, and a dependency-free client that starts `vigil lsp`).
// The package's tests check those files: the grammar's JSON and regular
// expressions, and that it highlights every keyword of the language.
package editors
