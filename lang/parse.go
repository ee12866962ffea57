package lang

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"vigil/symbolic"
)

// Parse parses one .spec file. The parser stops at the first syntax error;
// the returned File is nil then.
func Parse(path string, src []byte) (*File, Diagnostics) {
	f := &File{Path: path, Src: src, Lines: splitLines(src)}
	if !utf8.Valid(src) {
		line, col := 1, 1
		for i := 0; i < len(src); {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += n
		}
		return nil, Diagnostics{f.diag(symbolic.Pos{File: path, Line: line, Col: col}, 0, "E0001", "the file is not valid UTF-8")}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := bytes.Count(src[:i], []byte("\n")) + 1
		return nil, Diagnostics{f.diag(symbolic.Pos{File: path, Line: line, Col: 1}, 0, "E0001", "the file contains a NUL byte; is it a .spec file?")}
	}
	cst, err := parser.ParseBytes(path, src)
	if err != nil {
		return nil, Diagnostics{f.syntaxError(err)}
	}
	f.Comments = collectComments(path, src)
	f.Decls = (&converter{path: path}).file(cst)
	return f, nil
}

func collectComments(path string, src []byte) []Comment {
	lx, err := specLexer.Lex(path, bytes.NewReader(src))
	if err != nil {
		return nil
	}
	commentType := specLexer.Symbols()["Comment"]
	var out []Comment
	for {
		tok, err := lx.Next()
		if err != nil || tok.EOF() {
			return out
		}
		if tok.Type == commentType {
			text := strings.TrimRight(tok.Value, " \t\r")
			out = append(out, Comment{
				Pos:     symbolic.Pos{File: path, Line: tok.Pos.Line, Col: tok.Pos.Column},
				Text:    text,
				EndLine: tok.Pos.Line + strings.Count(tok.Value, "\n"),
			})
		}
	}
}

// diag builds a diagnostic, attaching the source line for rendering.
func (f *File) diag(p symbolic.Pos, endCol int, code, format string, args ...any) Diagnostic {
	d := Diagnostic{Pos: p, End: endCol, Severity: Error, Code: code, Msg: fmt.Sprintf(format, args...)}
	if p.Line >= 1 && p.Line <= len(f.Lines) {
		d.Line = f.Lines[p.Line-1]
	}
	return d
}

func (f *File) syntaxError(err error) Diagnostic {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return f.diag(symbolic.Pos{File: f.Path, Line: 1, Col: 1}, 0, "E0001", "syntax error: %v", err)
	}
	pos := perr.Position()
	p := symbolic.Pos{File: f.Path, Line: max(pos.Line, 1), Col: max(pos.Column, 1)}
	msg := perr.Message()
	var ute *participle.UnexpectedTokenError
	var lerr *lexer.Error
	switch {
	case errors.As(err, &ute):
		tok := ute.Unexpected
		what := fmt.Sprintf("%q", tok.Value)
		if tok.EOF() {
			what = "end of file"
			if bytes.Count(f.Src, []byte("{")) > bytes.Count(f.Src, []byte("}")) {
				what += " (is a closing } missing?)"
			}
		}
		msg = "unexpected " + what
		if exp := friendlyExpect(ute.Expect); exp != "" {
			msg += ", expected " + exp
		}
		msg += hintFor(tok.Value)
		end := 0
		if !tok.EOF() {
			end = p.Col + utf8.RuneCountInString(tok.Value)
		}
		return f.diag(p, end, "E0001", "%s", msg)
	case errors.As(err, &lerr):
		msg = "invalid character"
		if p.Line-1 < len(f.Lines) {
			line := f.Lines[p.Line-1]
			if off := byteOffset(line, p.Col); off < len(line) {
				r, _ := utf8.DecodeRuneInString(line[off:])
				msg = fmt.Sprintf("invalid character %q", r)
				if r == '"' {
					msg = "unterminated string"
				}
			}
		}
		return f.diag(p, 0, "E0001", "%s", msg)
	}
	return f.diag(p, 0, "E0001", "syntax error: %s", msg)
}

// byteOffset converts a 1-based rune column into a byte offset.
func byteOffset(line string, col int) int {
	off := 0
	for i := 1; i < col && off < len(line); i++ {
		_, n := utf8.DecodeRuneInString(line[off:])
		off += n
	}
	return off
}

func friendlyExpect(exp string) string {
	exp = strings.TrimSpace(exp)
	switch exp {
	case "":
		return ""
	case "<ident>":
		return "a name"
	case "<string>":
		return "a quoted file name"
	}
	return strings.NewReplacer("<ident>", "a name", "<int>", "an integer", "<decimal>", "a decimal", "<string>", "a string").Replace(exp)
}

func hintFor(tok string) string {
	switch tok {
	case "=":
		return " (assignments in outcomes are written x' = e; comparisons are ==)"
	case "&", "|":
		return " (use && and || in conditions; | separates outcomes)"
	case "'":
		return " (primed variables x' appear only on the left of an outcome's assignment)"
	}
	return ""
}
