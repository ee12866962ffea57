package jani

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/symbolic"
)

func load(t *testing.T, name string, defines map[string]string) (*symbolic.Model, []Note) {
	t.Helper()
	m, notes, err := LoadNotes(filepath.Join("testdata", name), defines)
	if err != nil {
		t.Fatal(err)
	}
	return m, notes
}

func TestCounter(t *testing.T) {
	m, notes := load(t, "counter.jani", map[string]string{"N": "3"})
	var names []string
	for _, v := range m.Vars {
		names = append(names, v.Name)
	}
	if got, want := strings.Join(names, " "), "x done loc_main"; got != want {
		t.Errorf("vars %q, want %q", got, want)
	}
	if v := m.Vars[0]; v.Lo != 0 || v.Hi != 3 || !v.HasInit || v.Init != 0 {
		t.Errorf("x = %+v", v)
	}
	if !m.Vars[1].Bool {
		t.Errorf("done is not Boolean")
	}
	var labels []string
	for _, l := range m.Labels {
		labels = append(labels, l.Name)
	}
	if got, want := strings.Join(labels, " "), "inc reset tau"; got != want {
		t.Errorf("labels %q, want %q", got, want)
	}
	if len(m.Commands) != 3 {
		t.Fatalf("%d commands, want 3", len(m.Commands))
	}
	if c := m.Commands[1]; m.Labels[c.Label].Name != SilentLabel {
		t.Errorf("edge without action has label %s", m.Labels[c.Label].Name)
	}
	if n, err := reachable(m, 100); err != nil || n != 5 {
		t.Errorf("reachable = %d, %v; want 5", n, err)
	}
	if p := m.Commands[0].Pos; p.File != "testdata/counter.jani#automata[0].edges[0]" || p.Line != 21 {
		t.Errorf("command position %v", p)
	}
	if len(m.Preds) != 2 || m.Preds[1].Name != "at_main_stop" {
		t.Errorf("location predicates %+v", m.Preds)
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Msg, `transient variable "steps" is no cost`)
	}
	if !found {
		t.Errorf("no note about the transient variable: %v", notes)
	}
	if _, err := Load("testdata/counter.jani", nil); err == nil || !strings.Contains(err.Error(), "-D N=VALUE") {
		t.Errorf("open constant: err = %v", err)
	}
}

func TestSync(t *testing.T) {
	m, notes := load(t, "sync.jani", nil)
	var names []string
	for _, v := range m.Vars {
		names = append(names, v.Name)
	}
	// Both automata have a local n: they are prefixed. A has one location
	// (no variable), B two.
	if got, want := strings.Join(names, " "), "total A_n loc_B B_n"; got != want {
		t.Errorf("vars %q, want %q", got, want)
	}
	// tau (B's silent edge), then go x {B at b0, B at b1}; "left" is in no
	// synchronisation vector.
	if len(m.Commands) != 3 {
		t.Fatalf("%d commands, want 3", len(m.Commands))
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Msg, `action "left" of automaton "A" appears in no synchronisation vector`)
	}
	if !found {
		t.Errorf("no note about action left: %v", notes)
	}
	c := m.Commands[2]
	if m.Labels[c.Label].Name != "go" || len(c.Outcomes) != 4 {
		t.Fatalf("command 2: label %s, %d outcomes", m.Labels[c.Label].Name, len(c.Outcomes))
	}
	want := []symbolic.Rat{{Num: 1, Den: 12}, {Num: 1, Den: 4}, {Num: 1, Den: 6}, {Num: 1, Den: 2}}
	for i, o := range c.Outcomes {
		if o.Weight != want[i] || o.Prob != want[i].Float() {
			t.Errorf("outcome %d: weight %v prob %v, want %v", i, o.Weight, o.Prob, want[i])
		}
	}
	// Assignment levels: total' = n at index 1 reads the n of index 0.
	s := symbolic.State{0, 0, 1, 1}
	o := c.Outcomes[0]
	next := append(symbolic.State(nil), s...)
	for _, a := range o.Assigns {
		next[a.Var] = a.Value.Eval(s)
	}
	if next[0] != 1 || next[1] != 1 {
		t.Errorf("after go: %s, want total=1 A_n=1", m.FormatState(next))
	}
	if n, err := reachable(m, 100); err != nil || n != 9 {
		t.Errorf("reachable = %d, %v; want 9", n, err)
	}
}

func TestDerivedOperators(t *testing.T) {
	m, _ := load(t, "derived.jani", nil)
	s, err := m.InitialState()
	if err != nil {
		t.Fatal(err)
	}
	c := m.Commands[0]
	if !c.Guard.Holds(s) {
		t.Fatal("guard x > 100 => false should hold at x = -7")
	}
	next := append(symbolic.State(nil), s...)
	for _, a := range c.Outcomes[0].Assigns {
		next[a.Var] = a.Value.Eval(s)
	}
	// x = -7: floor(-3.5) = -4, ceil(0.5 * -7) = -3, -7 % 3 = -1 (Storm's
	// truncated remainder), sgn = -1, max(abs(-7), min(2, -7)) = 7,
	// -7 <= -2.5, trc(-3.5) = -3.
	want := "x=-7 f=-4 c=-3 m=-1 s=-1 a=7 i=1 t=-3 b=true"
	if got := m.FormatState(next); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if o := c.Outcomes[0]; o.Weight.IsSet() || o.Prob != 1 {
		t.Errorf("no probability written: weight %v prob %v", o.Weight, o.Prob)
	}
}

// TestErrors runs testdata/errors.txtar: each NAME.jani must fail with an
// error at the JSON path and with the message given in NAME.err.
func TestErrors(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/errors.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	for _, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, ".jani")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want, ok := files[name+".err"]
			if !ok {
				t.Fatalf("no %s.err", name)
			}
			path, msg, _ := strings.Cut(string(want), "\n")
			msg = strings.TrimSpace(msg)
			var defines map[string]string
			if name == "unknown_define" {
				defines = map[string]string{"Q": "1"}
			}
			_, _, err := Decode(name+".jani", f.Data, defines)
			if err == nil {
				t.Fatalf("no error, want %s: %s", path, msg)
			}
			var list ErrorList
			var one *Error
			switch {
			case errors.As(err, &list):
			case errors.As(err, &one):
				list = ErrorList{one}
			default:
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, e := range list {
				if e.Path == path && strings.Contains(e.Msg, msg) {
					if !strings.HasPrefix(e.Error(), "jani: "+name+".jani") {
						t.Errorf("error text %q", e.Error())
					}
					return
				}
			}
			t.Errorf("got\n%v\nwant an error at %q containing %q", err, path, msg)
		})
	}
}

func TestDefines(t *testing.T) {
	for _, tc := range []struct {
		def  string
		ok   bool
		want int
	}{{"4", true, 4}, {" 2 ", true, 2}, {"2.5", false, 0}, {"x", false, 0}} {
		m, err := Load("testdata/counter.jani", map[string]string{"N": tc.def})
		if (err == nil) != tc.ok {
			t.Errorf("-D N=%q: err = %v", tc.def, err)
			continue
		}
		if tc.ok && m.Vars[0].Hi != tc.want {
			t.Errorf("-D N=%q: x in %d..%d", tc.def, m.Vars[0].Lo, m.Vars[0].Hi)
		}
	}
}

func TestIdent(t *testing.T) {
	for in, want := range map[string]string{
		"hand-empty": "hand-empty", "x'": "x_", "0x": "_0x", "table": "table_", "a.b": "a_b", "": "_", "τ": "_",
	} {
		if got := ident(in); got != want {
			t.Errorf("ident(%q) = %q, want %q", in, got, want)
		}
	}
}

func readTestdata(t testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestChoice covers PlaJA's non-deterministic assignment
// {"ref": c, "lower-bound": c, "upper-bound": CAP}: one outcome per value of
// c's range, clamped into c..CAP, the outcomes that give one value in a
// state merged (session 31: the edge is split by c, so that in each state
// each value is one outcome, its probability the shares of its k summed).
// c=3 > CAP is an empty choice: the value above the range.
func TestChoice(t *testing.T) {
	m, _ := load(t, "choice.jani", nil)
	want := map[int]map[int]float64{
		0: {0: 0.25, 1: 0.25, 2: 0.5},
		1: {1: 0.5, 2: 0.5},
		2: {2: 1},
		3: {4: 1},
	}
	for c := 0; c <= 3; c++ {
		got := map[int]float64{}
		n := 0
		for _, cmd := range m.Commands {
			if !cmd.Guard.Holds(symbolic.State{c}) {
				continue
			}
			n++
			for _, o := range cmd.Outcomes {
				v := o.Assigns[0].Value.Eval(symbolic.State{c})
				if _, dup := got[v]; dup {
					t.Errorf("c=%d: two outcomes write %d", c, v)
				}
				got[v] += o.Prob
			}
		}
		if n != 1 || fmt.Sprint(got) != fmt.Sprint(want[c]) {
			t.Errorf("c=%d: %d commands, successors %v, want one with %v", c, n, got, want[c])
		}
	}
	m.Vars[0].Lo = 1 // start at c=1 only: 1 and 2 reachable
	if n, err := reachable(m, 100); err != nil || n != 2 {
		t.Errorf("reachable = %d, %v; want 2", n, err)
	}
}

// TestModuloNegativeNote: where the left operand of % can be negative,
// Storm's truncated remainder (vigil's reading) and Momba's Euclidean
// remainder differ, and the import says so, at the operator; a
// non-negative operand gets no note. The reading itself is Storm's:
// -1 % 4 = -1, -3 % 4 = -3, 3 % 4 = 3.
func TestModuloNegativeNote(t *testing.T) {
	m, notes := load(t, "modulo_negative.jani", nil)
	var got []string
	for _, n := range notes {
		if strings.Contains(n.Msg, "left operand of %") {
			got = append(got, n.Msg)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "down to -3") || !strings.Contains(got[0], "-1 % 4 is -1") || !strings.Contains(got[0], "Momba") {
		t.Fatalf("notes about %%: %q", got)
	}
	y := m.Commands[0].Outcomes[0].Assigns[0].Value
	for x, want := range map[int]int{-3: -3, -1: -1, 0: 0, 3: 3} {
		if v := y.Eval(symbolic.State{x, 0}); v != want {
			t.Errorf("%d %% 4 = %d, want %d", x, v, want)
		}
	}
}
