package smt_test

import (
	"os"
	"strings"
	"testing"

	"vigil/internal/smtbench"
	"vigil/lang"
	"vigil/smt"
	"vigil/symbolic"
)

// benchModel loads the corpus model the figures are quoted for.
func benchModel(b *testing.B) *symbolic.Model {
	m, diags := lang.Load("../specs/oneway_line.spec", lang.Options{})
	if m == nil {
		b.Skipf("specs/oneway_line.spec: %s", diags.Render())
	}
	return m
}

func runQueries(b *testing.B, assume bool) {
	if p := os.Getenv("Z3PARAM"); p != "" {
		k, v, _ := strings.Cut(p, "=")
		smt.SetGlobalParam(k, v)
	}
	w, err := smtbench.New(benchModel(b), 1, 20)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.ResetTimer()
	for b.Loop() {
		var err error
		if assume {
			err = w.Assume()
		} else {
			err = w.Push()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.Sat)/float64(w.Sat+w.Unsat), "sat-ratio")
}

// BenchmarkQueryAssume: box, label and frame as assumption literals, with
// an unsat core on every unsat answer (the IC3 style).
func BenchmarkQueryAssume(b *testing.B) { runQueries(b, true) }

// BenchmarkQueryPush: the same queries as push/assert/check/pop.
func BenchmarkQueryPush(b *testing.B) { runQueries(b, false) }

// BenchmarkTerm measures one term construction (one cgo crossing plus the
// arena bookkeeping), released in batches of 1000.
func BenchmarkTerm(b *testing.B) {
	x, err := smt.NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	a, c := x.IntConst("a"), x.IntConst("c")
	mark := x.Mark()
	n := 0
	for b.Loop() {
		x.Add(a, c)
		if n++; n == 1000 {
			x.Release(mark)
			n = 0
		}
	}
}

// BenchmarkTermLit builds integer literals: after the first use of a
// value it is a map lookup (Context pins small literals).
func BenchmarkTermLit(b *testing.B) {
	x, err := smt.NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	n := int64(0)
	for b.Loop() {
		x.Int(n % 100)
		n++
	}
}

// BenchmarkTermCmp builds a comparison of a constant with a literal, the
// commonest term of the encoding (one cgo crossing).
func BenchmarkTermCmp(b *testing.B) {
	x, err := smt.NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	a := x.IntConst("a")
	mark := x.Mark()
	n := int64(0)
	for b.Loop() {
		x.Le(a, x.Int(n%100))
		if n++; n%1000 == 0 {
			x.Release(mark)
		}
	}
}

// BenchmarkEncodeTransition encodes the whole transition relation of the
// corpus model.
func BenchmarkEncodeTransition(b *testing.B) {
	m := benchModel(b)
	x, err := smt.NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	e, err := smt.NewEncoder(x, m)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		mark := x.Mark()
		if _, err := e.Transition(smt.TransOptions{Property: m.Property("")}); err != nil {
			b.Fatal(err)
		}
		x.Release(mark)
	}
}
