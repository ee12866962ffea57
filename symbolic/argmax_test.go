package symbolic

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// scored is a policy with fixed scores, read `argmax all` when all is set.
type scored struct {
	out []LabelID
	sc  []float64
	all bool
}

func (p *scored) Outputs() []LabelID { return p.out }
func (p *scored) Scores(s State, dst []float64) error {
	copy(dst, p.sc)
	return nil
}
func (p *scored) ArgMaxAll() bool { return p.all }

// ChooseAll is Choose's rule over every output, kept only where the
// winner is applicable; NaN and -Inf never win, ties go to the earliest.
func TestChooseAll(t *testing.T) {
	outs := []LabelID{4, 2, 7}
	inf, nan := math.Inf(-1), math.NaN()
	for _, c := range []struct {
		sc        []float64
		app       []LabelID
		want, flt LabelID // argmax all, argmax applicable
	}{
		{[]float64{1, 3, 2}, []LabelID{2, 4, 7}, 2, 2},
		{[]float64{1, 3, 2}, []LabelID{4, 7}, NoLabel, 7}, // the winner 2 is not applicable: stuck
		{[]float64{3, 3, 2}, []LabelID{2, 7}, NoLabel, 2}, // the tie goes to 4, not applicable
		{[]float64{nan, inf, 2}, []LabelID{4, 2}, NoLabel, NoLabel},
		{[]float64{nan, inf, 2}, []LabelID{7}, 7, 7},
		{[]float64{nan, inf, inf}, []LabelID{4, 2, 7}, NoLabel, NoLabel},
		{[]float64{math.Inf(1), 0, math.Inf(1)}, []LabelID{4, 7}, 4, 4},
	} {
		app := func(l LabelID) bool { return slices.Contains(c.app, l) }
		if got := ChooseAll(outs, c.sc, app); got != c.want {
			t.Errorf("ChooseAll %v app %v = %d, want %d", c.sc, c.app, got, c.want)
		}
		if got := Choose(outs, c.sc, app); got != c.flt {
			t.Errorf("Choose %v app %v = %d, want %d", c.sc, c.app, got, c.flt)
		}
		for _, all := range []bool{false, true} {
			p := &scored{out: outs, sc: c.sc, all: all}
			want := c.flt
			if all {
				want = c.want
			}
			if got, err := Decide(p, nil, app, nil); err != nil || got != want {
				t.Errorf("Decide (all %t) %v app %v = %d, %v; want %d", all, c.sc, c.app, got, err, want)
			}
		}
	}
}

// Rivals: every output under argmax all (learned kinds only), sure
// otherwise; ReadsAll is false for rules and table policies.
func TestRivals(t *testing.T) {
	sure := []LabelID{1}
	for _, c := range []struct {
		d    *PolicyDecl
		want []LabelID
	}{
		{&PolicyDecl{Kind: KindNN, Outputs: []LabelID{0, 1, 2}, ArgMaxAll: true}, []LabelID{0, 1, 2}},
		{&PolicyDecl{Kind: KindTrees, Outputs: []LabelID{2, 0}, ArgMaxAll: true}, []LabelID{2, 0}},
		{&PolicyDecl{Kind: KindNN, Outputs: []LabelID{0, 1, 2}}, sure},
		{&PolicyDecl{Kind: KindTable, Outputs: []LabelID{0, 1, 2}, ArgMaxAll: true}, sure},
		{nil, sure},
	} {
		if got := c.d.Rivals(sure); !slices.Equal(got, c.want) {
			t.Errorf("%+v: rivals %v, want %v", c.d, got, c.want)
		}
	}
}

// ExcludeByEnumeration under argmax all: a label is possible where it
// beats every output, whatever sure says.
func TestExcludeByEnumerationArgMaxAll(t *testing.T) {
	p := &scored{out: []LabelID{0, 1}, sc: []float64{2, 1}}
	for _, all := range []bool{false, true} {
		p.all = all
		got, _, err := ExcludeByEnumeration(p, []int{0}, []int{1}, 1, nil, 10)
		want := Possible // only label 1 is sure to be applicable: it wins
		if all {
			want = Excluded // label 0 beats it, applicable or not
		}
		if err != nil || got != want {
			t.Errorf("all %t: %v, %v; want %v", all, got, err, want)
		}
	}
}

// The printed model says the reading, so that the model hash binds it: an
// argmax line where it is all, or where an interface would decide.
func TestPrintArgMax(t *testing.T) {
	m := &Model{Name: "m", Vars: []Var{{Name: "x", Lo: 0, Hi: 1}}, Labels: []Label{{Name: "a"}}}
	in := []Affine{{Const: Rat{0, 1}, Terms: []AffineTerm{{Coef: Rat{1, 1}, Var: 0}}}}
	for _, c := range []struct {
		d    PolicyDecl
		want string
	}{
		{PolicyDecl{Name: "p", Kind: KindNN, File: "n.onnx", Inputs: in, Outputs: []LabelID{0}}, ""},
		{PolicyDecl{Name: "p", Kind: KindNN, File: "n.onnx", Inputs: in, Outputs: []LabelID{0}, ArgMaxAll: true}, "argmax all"},
		{PolicyDecl{Name: "p", Kind: KindTrees, File: "t.json", Inputs: in, Outputs: []LabelID{0}, ArgMaxAll: true}, "argmax all"},
		{PolicyDecl{Name: "p", Kind: KindNN, File: "n.nnet", Interface: "i.jani2nnet", Inputs: in, Outputs: []LabelID{0}}, "argmax applicable"},
		{PolicyDecl{Name: "p", Kind: KindNN, File: "n.nnet", Interface: "i.jani2nnet", Inputs: in, Outputs: []LabelID{0}, ArgMaxAll: true}, "argmax all"},
	} {
		mc := *m
		mc.Policies = []*PolicyDecl{&c.d}
		var b strings.Builder
		if err := Print(&b, &mc); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(b.String(), "argmax")
		if (c.want == "") == got || c.want != "" && !strings.Contains(b.String(), "    "+c.want+"\n") {
			t.Errorf("%+v printed\n%s\nwant %q", c.d, b.String(), c.want)
		}
	}
}
