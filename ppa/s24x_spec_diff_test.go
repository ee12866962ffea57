package ppa_test

// Session 24 (cross-engine review of the language features): the .spec
// differential of review 21p (genSpec) with what it leaves out: arrays
// whose index range does not start at 0 (LO .. LO+2 with LO negative or
// positive, read at a variable index and at an enum value, so that a[c]
// is out of range for some colours), outcomes of weight 0 (possible for
// verification, lang/spec.md), commands of one label over a `for`
// parameter, schemas instantiated zero times or once, costs, and network
// policies with small integer weights whose scores tie exactly (the first
// output wins), some read `argmax all`. Each model is asked of bfs (the
// reference) and of ppa, bdd and ic3 (polic3 for the networks) under its
// rules policy, under no policy and under the tie network; differ's rules
// apply: a disagreement fails, so does a safe answer where bfs meets a
// range error. S24X_MODELS widens the run.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// s24xSpec writes a random .spec model with an array of index range
// lo .. lo+2, an enum variable, Boolean and integer variables, weighted
// outcomes (some of weight 0), `for` commands, schemas of 0 or 1
// commands, costs, a rules policy and a property.
func s24xSpec(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x733234))
	lo := []int{-2, 0, 1, 3}[r.IntN(4)]
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	idx := func() string { // an index: in range, at its edges, beyond them
		return pick("i", "i", fmt.Sprint(lo), fmt.Sprint(lo+2), "c", "i + 1", "min(i, "+fmt.Sprint(lo+2)+")")
	}
	var val func(d int) string
	var cond func(d int) string
	val = func(d int) string {
		if d <= 0 || r.IntN(3) == 0 {
			return pick("0", "1", "2", "i", "a["+idx()+"]", "a["+fmt.Sprint(lo+1)+"]")
		}
		switch r.IntN(4) {
		case 0:
			return "(" + val(d-1) + " + " + val(d-1) + ")"
		case 1:
			return "(" + val(d-1) + " - 1)"
		case 2:
			return "min(" + val(d-1) + ", " + val(d-1) + ")"
		}
		return "(if " + cond(d-1) + " then " + val(d-1) + " else " + val(d-1) + ")"
	}
	cond = func(d int) string {
		if d <= 0 || r.IntN(3) == 0 {
			switch r.IntN(5) {
			case 0:
				return "f"
			case 1:
				return "c " + pick("==", "!=", "<", ">=") + " " + pick("red", "green", "blue")
			case 2:
				return fmt.Sprintf("(exists q in %d .. %d: a[q] == %d)", lo, lo+2, r.IntN(3))
			}
			return val(1) + " " + pick("==", "!=", "<", ">=") + " " + val(0)
		}
		switch r.IntN(3) {
		case 0:
			return "(" + cond(d-1) + " && " + cond(d-1) + ")"
		case 1:
			return "(" + cond(d-1) + " || " + cond(d-1) + ")"
		}
		return "!(" + cond(d-1) + ")"
	}
	// conditions of policies and properties index in range (E0804)
	safe := func() string {
		switch r.IntN(4) {
		case 0:
			return "f"
		case 1:
			return "c " + pick("==", "!=", "<", ">=") + " " + pick("red", "green", "blue")
		case 2:
			return fmt.Sprintf("i %s %d", pick("==", "<", ">="), lo+r.IntN(4))
		}
		return fmt.Sprintf("a[%d] %s %d", lo+r.IntN(3), pick("==", "<", ">="), r.IntN(3))
	}
	clamp := func(e string) string {
		if r.IntN(4) == 0 {
			return e // may leave 0 .. 2: a range error
		}
		return "max(0, min(2, " + e + "))"
	}
	var sb strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&sb, f+"\n", a...) }
	w("model s%d", seed)
	w("type color = { red, green, blue }")
	w("var a : [%d .. %d] of 0 .. 2 = 0", lo, lo+2)
	ihi := lo + 2
	if r.IntN(2) == 0 {
		ihi++ // i may name no element
	}
	w("var i : %d .. %d = %d", lo, ihi, lo)
	w("var c : color = red")
	w("var f : bool = false")
	var labels []string
	outcome := func(param string) string {
		var as []string
		target := pick("a[i]", "a["+idx()+"]", "a["+fmt.Sprint(lo)+"]")
		if param != "" && r.IntN(2) == 0 {
			target = fmt.Sprintf("a[%s + %d]", param, lo)
		}
		if r.IntN(3) != 0 {
			as = append(as, target+"' = "+clamp(val(2)))
		}
		if r.IntN(2) == 0 {
			e := "max(" + fmt.Sprint(lo) + ", min(" + fmt.Sprint(ihi) + ", " + val(1) + "))"
			if r.IntN(5) == 0 {
				e = "i + 1"
			}
			as = append(as, "i' = "+e)
		}
		if r.IntN(3) == 0 {
			as = append(as, "c' = "+pick("red", "green", "blue", "if "+cond(0)+" then blue else green"))
		}
		if r.IntN(3) == 0 {
			as = append(as, "f' = "+cond(1))
		}
		if len(as) == 0 {
			return "skip"
		}
		return strings.Join(as, ", ")
	}
	outcomes := func(param string) string {
		n := 1 + r.IntN(3)
		weighted := r.IntN(2) == 0
		var os []string
		nonzero := false
		for k := 0; k < n; k++ {
			o := outcome(param)
			if weighted {
				wt := r.IntN(3) // 0, 1 or 2; at least one positive
				if k == n-1 && !nonzero && wt == 0 {
					wt = 1
				}
				nonzero = nonzero || wt > 0
				o = fmt.Sprintf("%d: %s", wt, o)
			}
			os = append(os, o)
		}
		return strings.Join(os, " | ")
	}
	cost := func() string {
		if r.IntN(3) == 0 {
			return " cost " + pick("2", "a["+fmt.Sprint(lo)+"] + 1", "abs(i) + 1")
		}
		return ""
	}
	for k := 0; k < 2+r.IntN(3); k++ {
		name := fmt.Sprintf("t%d", k)
		guard := cond(1)
		switch r.IntN(4) {
		case 0: // a schema of 0, 1 or 2 commands
			hi := r.IntN(3) - 1
			w("action %s(k in 0 .. %d) when %s%s -> %s", name, hi, guard, cost(), outcomes("k"))
			for j := 0; j <= hi; j++ {
				labels = append(labels, fmt.Sprintf("%s[%d]", name, j))
			}
		case 1: // one label, several commands
			w("action %s for k in 0 .. %d when %s%s -> %s", name, r.IntN(3), guard, cost(), outcomes("k"))
			labels = append(labels, name)
		default:
			w("action %s when %s%s -> %s", name, guard, cost(), outcomes(""))
			labels = append(labels, name)
		}
	}
	if len(labels) == 0 {
		w("action idle -> skip")
		labels = append(labels, "idle")
	}
	w("policy rules pi {")
	for k := 0; k < 1+r.IntN(3); k++ {
		w("    when %s -> %s", safe(), labels[r.IntN(len(labels))])
	}
	w("    otherwise -> %s", labels[r.IntN(len(labels))])
	w("}")
	unsafe := safe() + " && " + safe()
	start := pick("true", "i == "+fmt.Sprint(lo), "!f && c == red", safe())
	w("property p {")
	w("    start (%s) && !(%s)", start, unsafe)
	w("    unsafe %s", unsafe)
	w("}")
	return sb.String()
}

// s24xTieNet is a network over every variable with weights in -1 .. 1 and
// biases in 0 .. 1, so that scores are small integers and tie often;
// with all it reads `argmax all`.
func s24xTieNet(m *symbolic.Model, seed uint64, all bool) (symbolic.Policy, *symbolic.PolicyDecl, error) {
	r := rand.New(rand.NewPCG(seed, 0x746965))
	var outs []symbolic.LabelID
	for l := range m.Labels {
		outs = append(outs, symbolic.LabelID(l))
	}
	d := &symbolic.PolicyDecl{Name: fmt.Sprintf("tie_%d", seed), Kind: symbolic.KindNN, Outputs: outs, ArgMaxAll: all}
	for v := range m.Vars {
		d.Inputs = append(d.Inputs, symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1},
			Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}})
	}
	in, h := len(m.Vars), 3
	l1 := nn.Layer{In: in, Out: h, W: make([]float64, in*h), B: make([]float64, h), Act: nn.ActReLU}
	for k := range l1.W {
		l1.W[k] = float64(r.IntN(3) - 1)
	}
	for k := range l1.B {
		l1.B[k] = float64(r.IntN(2))
	}
	l2 := nn.Layer{In: h, Out: len(outs), W: make([]float64, h*len(outs)), B: make([]float64, len(outs))}
	for k := range l2.W {
		l2.W[k] = float64(r.IntN(3) - 1)
	}
	for k := range l2.B {
		l2.B[k] = float64(r.IntN(2))
	}
	p, err := nn.NewPolicyFromNetwork(m, d, &nn.Network{Layers: []nn.Layer{l1, l2}})
	return p, d, err
}

func TestS24xSpecDifferential(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 25
	}
	if v, err := strconv.Atoi(os.Getenv("S24X_MODELS")); err == nil && v > 0 {
		n = v
	}
	dir := t.TempDir()
	tally := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := s24xSpec(seed)
		path := fmt.Sprintf("%s/s%d.spec", dir, seed)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.LoadFile(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("seed %d does not load: %s\n%s", seed, diags.Render(), src)
		}
		s24xDiffer(t, seed, m, src, tally)
	}
	t.Logf("%v", tally)
	for _, k := range []string{"safe", "unsafe", "range error"} {
		if tally[k] == 0 {
			t.Errorf("the models gave no %q answer: %v", k, tally)
		}
	}
}

func s24xDiffer(t *testing.T, seed uint64, m *symbolic.Model, src string, tally map[string]int) {
	t.Helper()
	prop := m.Properties[0]
	for _, kind := range []string{"rules", "none", "tie", "tie-all"} {
		var pd *symbolic.PolicyDecl
		var exec symbolic.Policy
		var err error
		switch kind {
		case "rules":
			pd = m.Policies[0]
		case "tie", "tie-all":
			exec, pd, err = s24xTieNet(m, seed, kind == "tie-all")
			if err != nil {
				t.Fatal(err)
			}
		}
		ask := func(eng string) (*verify.Verdict, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			return verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: exec, Engine: eng, Certificate: eng != "bfs" && eng != "bdd"})
		}
		want, werr := ask("bfs")
		var re *explicit.RangeError
		bfsRange := werr != nil && errors.As(werr, &re)
		if werr != nil && !bfsRange {
			tally["no question"]++
			continue
		}
		if bfsRange {
			tally["range error"]++
		} else {
			tally[want.Answer.String()]++
		}
		for _, engine := range []string{"ppa", "bdd", "ic3"} {
			got, gerr := ask(engine)
			where := fmt.Sprintf("seed %d, policy %s, engine %s", seed, kind, engine)
			if gerr != nil {
				if strings.Contains(gerr.Error(), "range error") || strings.Contains(gerr.Error(), "leaves a variable's range") {
					if bfsRange || want.Answer == explicit.UnsafeVerdict {
						continue // lang/spec.md, Semantics, Range errors
					}
				}
				t.Errorf("%s: errs: %v; bfs: %v %v\n%s", where, gerr, answerOf(want), werr, src)
				continue
			}
			switch {
			case got.Answer == explicit.Unknown:
				tally["unknown"]++
			case bfsRange && got.Answer == explicit.Safe:
				t.Errorf("%s: says safe, bfs meets a range error: %v\n%s", where, werr, src)
			case !bfsRange && got.Answer != want.Answer:
				t.Errorf("%s: says %v, bfs %v\n%s", where, got.Answer, want.Answer, src)
			}
		}
	}
}
