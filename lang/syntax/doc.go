// Package syntax is the syntax of .spec files: the syntax tree (ast.go),
// a hand-written lexer and recursive-descent parser (parser.go), the
// canonical formatter (format.go) and positioned diagnostics (diag.go).
// Package lang checks a parsed file set and lowers it to package
// symbolic; editors and vigil fmt need only this package (CUE splits
// cue/ast, cue/parser and cue/format from its evaluator the same way,
// starlark-go its syntax from resolve).
package syntax
