package lang

import (
	"bytes"
	"fmt"
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
