package syntax

import "testing"

// TestS24BOMIsNoColumn: the E0001 errors found before parsing (a lone
// carriage return, a layout character, invalid UTF-8) name the same
// column with and without a byte-order mark, as the parser's own errors
// do: editors hide the mark (vigil lsp converts the column as given, so
// the editor showed these errors one place late).
func TestS24BOMIsNoColumn(t *testing.T) {
	for _, src := range []string{"undec(\r", "a\u202eb", "ab\xff", "model 1x\n", "x\ny\r"} {
		_, plain := Parse("p.spec", []byte(src))
		_, marked := Parse("p.spec", []byte(bom+src))
		if len(plain) != 1 || len(marked) != 1 {
			t.Fatalf("%q: %d and %d diagnostics, want 1", src, len(plain), len(marked))
		}
		p, m := plain[0], marked[0]
		if p.Pos.Line != m.Pos.Line || p.Pos.Col != m.Pos.Col || p.End != m.End || p.Line != m.Line {
			t.Errorf("%q: %d:%d-%d %q without the mark, %d:%d-%d %q with it", src, p.Pos.Line, p.Pos.Col, p.End, p.Line, m.Pos.Line, m.Pos.Col, m.End, m.Line)
		}
	}
}
