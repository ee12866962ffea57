package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"vigil/symbolic"
)

// Parse parses one .spec file. The parser stops at the first syntax error;
// the returned File is nil then.
func Parse(path string, src []byte) (*File, Diagnostics) {
	f := &File{Path: path, Src: src, Lines: SplitLines(src)}
	if len(f.Lines) > 0 {
		// a byte-order mark is no column: editors hide it (parse skips it)
		f.Lines[0] = strings.TrimPrefix(f.Lines[0], bom)
	}
	if !utf8.Valid(src) {
		line, col := 1, 1
		for i := len(src) - len(bytes.TrimPrefix(src, []byte(bom))); i < len(src); {
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
		return nil, Diagnostics{f.Diag(symbolic.Pos{File: path, Line: line, Col: col}, 0, "E0001", "the file is not valid UTF-8")}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := bytes.Count(src[:i], []byte("\n")) + 1
		return nil, Diagnostics{f.Diag(symbolic.Pos{File: path, Line: line, Col: 1}, 0, "E0001", "the file contains a NUL byte; is it a .spec file?")}
	}
	if i := loneCR(src); i >= 0 {
		line, col := offsetPos(src, i)
		d := f.Diag(symbolic.Pos{File: path, Line: line, Col: col}, col+1, "E0001", "a carriage return (\\r) without a line feed after it: editors show a line break there, where vigil would read a space (or, in a // comment, more comment); save the file with LF or CRLF line ends")
		d.Line = strings.ReplaceAll(d.Line, "\r", "\u240d") // shown as ␍, one column, not a return to the line's start
		return nil, Diagnostics{d}
	}
	if i, r := hiddenLayout(src); i >= 0 {
		line, col := offsetPos(src, i)
		d := f.Diag(symbolic.Pos{File: path, Line: line, Col: col}, col+1, "E0001", "the character U+%04X (%s) changes how editors lay out the text around it, so what they show can differ from what vigil reads (\"Trojan Source\"); remove it", r, layoutNames[r])
		d.Line = strings.Map(func(c rune) rune {
			if layoutNames[c] != "" {
				return '\ufffd'
			}
			return c
		}, d.Line)
		return nil, Diagnostics{d}
	}
	if t := bytes.TrimLeft(bytes.TrimPrefix(src, []byte(bom)), " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		line, col := offsetPos(src, len(src)-len(t))
		d := f.Diag(symbolic.Pos{File: path, Line: line, Col: col}, col+1, "E0001",
			"this file is JSON, not .spec: a JANI model is read by its extension, .jani (rename it); a PlaJA interface (.jani2nnet), a network or a tree ensemble is a policy file (--policy-file, or a policy declaration's file)")
		return nil, Diagnostics{d}
	}
	if d := parse(f); d != nil {
		return nil, Diagnostics{*d}
	}
	return f, nil
}

// offsetPos returns the line and column (in characters, from 1) of byte
// offset i of src; a byte-order mark at the start of the file is no
// column, as editors hide it.
func offsetPos(src []byte, i int) (line, col int) {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	if start == 0 && bytes.HasPrefix(src, []byte(bom)) && i >= len(bom) {
		start = len(bom)
	}
	return bytes.Count(src[:i], []byte("\n")) + 1, utf8.RuneCount(src[start:i]) + 1
}

// bom is the byte-order mark some editors (Windows Notepad) write at the
// start of a UTF-8 file.
const bom = "\ufeff"

// diag builds a diagnostic, attaching the source line for rendering.
func (f *File) Diag(p symbolic.Pos, endCol int, code, format string, args ...any) Diagnostic {
	d := Diagnostic{Pos: p, End: endCol, Severity: Error, Code: code, Msg: fmt.Sprintf(format, args...)}
	if p.Line >= 1 && p.Line <= len(f.Lines) {
		d.Line = f.Lines[p.Line-1]
	}
	return d
}

func hintFor(tok string) string {
	switch tok {
	case "=":
		return " (assignments in outcomes are written x' = e; comparisons are ==)"
	case "&", "|":
		return " (use && and || in conditions; | separates outcomes)"
	case "'":
		return " (primed variables x' appear only on the left of an outcome's assignment)"
	case "and", "AND":
		return " (conditions are joined with &&, not and)"
	case "or", "OR":
		return " (conditions are joined with ||, not or)"
	case "not", "NOT":
		return " (a condition is negated with !, not not)"
	case bom:
		return " (a byte-order mark, which vigil reads only at the start of a file; remove it)"
	case ";":
		return " (.spec has no semicolons: an outcome's assignments are separated by commas, x' = 1, y' = 2)"
	case "#":
		return " (comments start with // or are written /* ... */)"
	case "^", "**":
		return " (.spec has no power operator: write the product, x * x; ^ is no exclusive or either, write a != b for Booleans)"
	case "%", "mod", "MOD":
		return " (.spec has no modulo operator: write a - k * (a / k) for a modulo a positive constant k, which / rounds toward negative infinity)"
	}
	return ""
}

// loneCR returns the offset of the first carriage return in src that no
// line feed follows (a classic Mac line end), or -1.
func loneCR(src []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\r')
		if j < 0 {
			return -1
		}
		i += j
		if i+1 >= len(src) || src[i+1] != '\n' {
			return i
		}
		i += 2
	}
}

// layoutNames are the characters that make editors show text in another
// order or on other lines than the lexer reads it: the Unicode
// bidirectional embeddings, overrides and isolates, and the line and
// paragraph separators.
var layoutNames = map[rune]string{
	0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
	0x202D: "left-to-right override", 0x202E: "right-to-left override",
	0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate", 0x2069: "pop directional isolate",
	0x2028: "line separator", 0x2029: "paragraph separator",
}

// hiddenLayout returns the offset and the rune of the first character of
// layoutNames in src (valid UTF-8), or -1.
func hiddenLayout(src []byte) (int, rune) {
	for i := 0; i < len(src); {
		if src[i] < 0x80 {
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if layoutNames[r] != "" {
			return i, r
		}
		i += n
	}
	return -1, 0
}
