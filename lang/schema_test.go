package lang

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"vigil/symbolic"
)

// schemaSpec is a grid model of n x n cells whose moves are one schema
// of n^2 * 4 commands.
func schemaSpec(n int) []byte {
	return []byte(fmt.Sprintf(`const N = %d
var x : 0 .. N - 1 = 0
var y : 0 .. N - 1 = 0
action go(i in 0 .. N - 1, j in 0 .. N - 1, d in 0 .. 3) when x == i && y == j
    -> x' = if d == 0 then min(i + 1, N - 1) else if d == 1 then max(i - 1, 0) else i,
       y' = if d == 2 then min(j + 1, N - 1) else if d == 3 then max(j - 1, 0) else j
property p { unsafe x == N - 1 && y == N - 1 }
`, n))
}

// writtenSpec is the lowered schema model printed: the same commands,
// written one by one.
func writtenSpec(tb testing.TB, n int) []byte {
	m, d := LoadSource("grid.spec", schemaSpec(n), Options{})
	if m == nil {
		tb.Fatal(d.Render())
	}
	var b bytes.Buffer
	symbolic.Print(&b, m)
	return b.Bytes()
}

// TestSchemaMatchesWritten: a schema lowers to the model its printed
// expansion lowers to, command for command.
func TestSchemaMatchesWritten(t *testing.T) {
	text := writtenSpec(t, 5)
	m, d := LoadSource("written.spec", text, Options{})
	if m == nil {
		t.Fatal(d.Render())
	}
	if len(m.Commands) != 5*5*4 || len(m.Labels) != 100 || m.Labels[7].Name != "go[0,1,3]" {
		t.Fatalf("%d commands, %d labels, label 7 %s", len(m.Commands), len(m.Labels), m.Labels[7].Name)
	}
	var b bytes.Buffer
	symbolic.Print(&b, m)
	if !bytes.Equal(b.Bytes(), text) {
		t.Errorf("the printed expansion does not lower to itself")
	}
}

// BenchmarkLoadSchema loads a schema that expands to 40,000 commands
// (N = 100); BenchmarkLoadSchemaWritten loads the same 40,000 commands
// written out. Compare ms/kcmd (per 1,000 commands).
func BenchmarkLoadSchema(b *testing.B) {
	benchLoad(b, schemaSpec(100))
}

func BenchmarkLoadSchemaWritten(b *testing.B) {
	benchLoad(b, writtenSpec(b, 100))
}

func benchLoad(b *testing.B, src []byte) {
	b.ReportAllocs()
	var cmds int
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for i := 0; i < b.N; i++ {
		m, d := LoadSource("grid.spec", src, Options{})
		if m == nil {
			b.Fatal(d.Render())
		}
		cmds = len(m.Commands)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	kcmds := float64(b.N) * float64(cmds) / 1000
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/kcmds, "ms/kcmd")
	// CPU time of every thread (the collector's too): wall time overstates
	// the work on a loaded machine
	cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	b.ReportMetric(float64(cpu)/1e6/kcmds, "cpu-ms/kcmd")
	b.ReportMetric(float64(bytes.Count(src, []byte("\n"))), "lines")
}

// TestQuantifiersEverywhere: a quantifier expands wherever an expression
// may stand, first or not in its list (a constant, a range, an initial
// value, a predicate, a guard, an outcome, a policy's inputs and rules, a
// property's clauses), to what the same terms written out lower to.
func TestQuantifiersEverywhere(t *testing.T) {
	quant := `const N = sum k in 1 .. 2: k
var x : 0 .. sum k in 0 .. 2: k = sum k in 0 .. 1: k
var y : 0 .. 3 = 0
pred p = exists k in 0 .. 1: x == k
action a when forall k in 0 .. 1: x != k -> x' = max(0, min(sum k in 0 .. 1: k, 3)), y' = count k in 0 .. 1: y > k
policy rules r {
    when forall k in 0 .. 1: y != k -> a
    otherwise -> a
}
policy nn n "n.onnx" {
    inputs  sum k in 0 .. 1: x, y
    outputs a
}
property q {
    start  exists k in 0 .. 0: x == k
    unsafe (count k in 0 .. 2: x == k && y == k) > 0
}
`
	written := `const N = (1 + 2)
var x : 0 .. (0 + 1 + 2) = (0 + 1)
var y : 0 .. 3 = 0
pred p = (x == 0 || x == 1)
action a when (x != 0 && x != 1) -> x' = max(0, min((0 + 1), 3)), y' = ((if y > 0 then 1 else 0) + (if y > 1 then 1 else 0))
policy rules r {
    when (y != 0 && y != 1) -> a
    otherwise -> a
}
policy nn n "n.onnx" {
    inputs  (x + x), y
    outputs a
}
property q {
    start  (x == 0 || false)
    unsafe (((if x == 0 && y == 0 then 1 else 0) + ((if x == 1 && y == 1 then 1 else 0) + (if x == 2 && y == 2 then 1 else 0)))) > 0
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "n.onnx"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(name, src string) []byte {
		m, d := LoadSource(filepath.Join(dir, name), []byte(src), Options{})
		if m == nil {
			t.Fatalf("%s: %s", name, d.Render())
		}
		var b bytes.Buffer
		symbolic.Print(&b, m)
		return b.Bytes()
	}
	if a, b := load("quant.spec", quant), load("written.spec", written); !bytes.Equal(bytes.ReplaceAll(a, []byte("quant"), nil), bytes.ReplaceAll(b, []byte("written"), nil)) {
		t.Errorf("quantifiers lower to\n%s\nthe terms written out to\n%s", a, b)
	}
}
