package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/fuzzseed"
)

// tableModel has a variable of every kind a table policy's CSV names: an
// integer, a Boolean, an enum and an array's elements.
const tableModel = `model tab
type color = { red, green, blue }
var x : -2 .. 3 = 0
var on : bool = false
var c : color = red
var a : [0 .. 1] of 0 .. 2 = [0, 0]
action go when x < 3 -> x' = x + 1
action stop when true -> on' = true
policy table t "t.csv" {
}
property p { unsafe x == 3 }
`

// FuzzTable reads arbitrary bytes as a table policy's CSV file (policy
// table NAME "FILE.csv"): nothing panics; a rejection is the model's
// E0505 diagnostic naming the file, without Go's internals; an accepted
// table has one row per label, every value within its variable's range
// and every label the model's. Seeds: specs/policies/lang_grid.csv's
// layout on this model, and its variants; crashers stay in
// testdata/fuzz/FuzzTable.
func FuzzTable(f *testing.F) {
	for _, s := range []string{
		"# a comment\nx,on,c,a[0],a[1],label\n0,false,red,0,0,go\n1,true,2,1,2,stop\n-2,0,blue,2,2,go\n",
		"label,x,on,c,a[0],a[1]\n",
		"x,on,c,a[0],a[1],label\n\"0\",\"false\",red,0,0,\"go\"\n",
		"x,on,c,a[0],a[1],label\n0,false,red,0,0\n",
		"x,on,c,a[0],a[1],label\n9,false,red,0,0,go\n",
		"x,on,c,a[0],a[1],label\n0,false,purple,0,0,go\n",
		"x,x,on,c,a[0],a[1],label\n",
		"",
		"x,on,c,a[0],a[1],label\n0,false,red,0,0,go\n0,false,red,0,0,stop\n",
	} {
		f.Add([]byte(s))
		for _, v := range fuzzseed.Variants([]byte(s)) {
			f.Add(v)
		}
	}
	dir := f.TempDir()
	spec := filepath.Join(dir, "tab.spec")
	if err := os.WriteFile(spec, []byte(tableModel), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "t.csv"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := LoadFile(spec, Options{})
		if diags.HasErrors() {
			out := diags.Render()
			if !strings.Contains(out, "E0505") || !strings.Contains(out, "t.csv") {
				t.Fatalf("a rejected table without E0505 naming its file:\n%s", out)
			}
			for _, internal := range []string{"Go struct field", "runtime error", "goroutine "} {
				if strings.Contains(out, internal) {
					t.Fatalf("Go internals in the diagnostic:\n%s", out)
				}
			}
			return
		}
		p := m.Policy("t")
		if p == nil || p.Table == nil {
			t.Fatal("the table policy loaded without its table")
		}
		tb := p.Table
		if len(tb.Rows) != len(tb.Labels) {
			t.Fatalf("%d rows, %d labels", len(tb.Rows), len(tb.Labels))
		}
		for i, st := range tb.Rows {
			if len(st) != len(m.Vars) {
				t.Fatalf("row %d has %d values for %d variables", i, len(st), len(m.Vars))
			}
			for j, v := range m.Vars {
				if st[j] < v.Lo || st[j] > v.Hi {
					t.Fatalf("row %d: %s = %d outside %d .. %d", i, v.Name, st[j], v.Lo, v.Hi)
				}
			}
			if l := tb.Labels[i]; l < 0 || int(l) >= len(m.Labels) {
				t.Fatalf("row %d: label %d of %d", i, l, len(m.Labels))
			}
		}
	})
}

// A table's errors give the line they are on (the header's after comment
// lines), and say what the line should hold.
func TestTableMessages(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "tab.spec")
	if err := os.WriteFile(spec, []byte(tableModel), 0o644); err != nil {
		t.Fatal(err)
	}
	for csv, want := range map[string]string{
		"# c\nx,on,c,a[0],a[1],label\n0,false,red,0\n": "table t.csv: line 3: 4 fields, want 6: one per column of the header, line 2 (the variables, then label)",
		"# c\n\nx,on,c,a,label\n":                      `table t.csv: line 3: column "a" is an array: give a column to each element, a[0] .. a[1]`,
		"x,on,c,a[0],a[1]\n":                           "table t.csv: line 1: the last column must be named label",
		"x,on,c,a[0],label\n":                          "table t.csv: line 1: the header must name every variable; missing a[1]",
	} {
		if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		_, diags := LoadFile(spec, Options{})
		if out := diags.Render(); !strings.Contains(out, want) {
			t.Errorf("%q: want %q in\n%s", csv, want, out)
		}
	}
}
