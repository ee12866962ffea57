package jani

import (
	"fmt"
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS32jEmptyChoiceNote: the note that an empty choice (lower-bound >
// upper-bound) is a range error was given wherever interval reasoning
// over the declared ranges allowed lb > ub, also where the edge's guard
// rules it out: c := any of c..4 with c in 0..5 under the guard c <= 4,
// and x := any of x..y under x < y. It is now given only where some
// state within the ranges satisfies the guard and lb > ub (the values of
// the variables they read enumerated), and the import drops the range
// error it guarded (ite(lb > ub, ...)) where there is none; the
// successors are those of the brute-force reading in every state.
func TestS32jEmptyChoiceNote(t *testing.T) {
	const noteNever = "no value to choose"
	model := func(guard, lb, ub string) []byte {
		g := ""
		if guard != "" {
			g = `"guard":{"exp":` + guard + `},`
		}
		return []byte(`{"jani-version":1,"name":"e","type":"lts",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":5},"initial-value":0},
   {"name":"y","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":5},"initial-value":0}],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"go",` + g + `"destinations":[{"location":"l","assignments":[
     {"ref":"x","lower-bound":` + lb + `,"upper-bound":` + ub + `}]}]}]}],
 "system":{"elements":[{"automaton":"a"}]}}`)
	}
	for _, c := range []struct {
		name, guard, lb, ub string
		note                bool
		eval                func(x, y int) (lb, ub int, on bool)
	}{
		{"guard-bounds-lb", `{"op":"≤","left":"x","right":4}`, `"x"`, `4`, false,
			func(x, y int) (int, int, bool) { return x, 4, x <= 4 }},
		{"no-guard", ``, `"x"`, `4`, true,
			func(x, y int) (int, int, bool) { return x, 4, true }},
		{"relational-guard", `{"op":"<","left":"x","right":"y"}`, `"x"`, `"y"`, false,
			func(x, y int) (int, int, bool) { return x, y, x < y }},
		{"relational-guard-loose", `{"op":"≤","left":"x","right":{"op":"+","left":"y","right":1}}`, `"x"`, `"y"`, true,
			func(x, y int) (int, int, bool) { return x, y, x <= y+1 }},
		{"max-bound", `{"op":"<","left":"y","right":5}`, `{"op":"max","left":"y","right":1}`, `{"op":"+","left":"y","right":1}`, false,
			func(x, y int) (int, int, bool) { return max(y, 1), y + 1, y < 5 }},
		{"constant-empty", ``, `3`, `2`, true,
			func(x, y int) (int, int, bool) { return 3, 2, true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := model(c.guard, c.lb, c.ub)
			m, notes, err := Decode("e.jani", src, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, n := range notes {
				got = got || strings.Contains(n.Msg, noteNever)
			}
			if got != c.note {
				t.Errorf("empty-choice note given %v, want %v: %v", got, c.note, notes)
			}
			// brute force: in each state where the edge is on, x takes
			// each value of lb..ub (an empty or out-of-range one: the
			// value above the range, 6, or below it)
			for x := 0; x <= 5; x++ {
				for y := 0; y <= 5; y++ {
					lb, ub, on := c.eval(x, y)
					want := map[int]bool{}
					if on {
						if lb > ub {
							want[6] = true
						}
						for k := lb; k <= ub; k++ {
							want[max(-1, min(6, k))] = true
						}
					}
					s := symbolic.State{x, y}
					gotSet := map[int]bool{}
					for _, cmd := range m.Commands {
						if !cmd.Guard.Holds(s) {
							continue
						}
						for _, o := range cmd.Outcomes {
							nx := x
							for _, a := range o.Assigns {
								if a.Var == 0 {
									nx = a.Value.Eval(s)
								}
							}
							gotSet[nx] = true
						}
					}
					if fmt.Sprint(gotSet) != fmt.Sprint(want) {
						t.Fatalf("state x=%d y=%d: successors x' in %v, want %v", x, y, gotSet, want)
					}
				}
			}
		})
	}
}

// TestS32jEmptyChoiceNoteUndecided: where the guard and the bounds read
// more combinations of values than emptyChoice enumerates (16^5 here),
// the note stays, worded "may", and the range error stays in the model.
func TestS32jEmptyChoiceNoteUndecided(t *testing.T) {
	var vars, sum []string
	for i := range 5 {
		vars = append(vars, fmt.Sprintf(`{"name":"v%d","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":15},"initial-value":0}`, i))
		sum = append(sum, fmt.Sprintf(`"v%d"`, i))
	}
	plus := sum[0]
	for _, s := range sum[1:] {
		plus = `{"op":"+","left":` + plus + `,"right":` + s + `}`
	}
	src := `{"jani-version":1,"name":"u","type":"lts","variables":[` + strings.Join(vars, ",") + `],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"go","guard":{"exp":{"op":"<","left":` + plus + `,"right":70}},
     "destinations":[{"location":"l","assignments":[{"ref":"v0","lower-bound":"v1","upper-bound":"v2"}]}]}]}],
 "system":{"elements":[{"automaton":"a"}]}}`
	m, notes, err := Decode("u.jani", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	may := false
	for _, n := range notes {
		may = may || strings.Contains(n.Msg, "may hold in a state where the edge is taken")
	}
	if !may {
		t.Errorf("no \"may\" note: %v", notes)
	}
	// v1 = 5 > v2 = 4 (sum 9 < 70): the range error, v0 := 16
	s := symbolic.State{0, 5, 4, 0, 0}
	errs := 0
	for _, c := range m.Commands {
		if !c.Guard.Holds(s) {
			continue
		}
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				if a.Var == 0 && a.Value.Eval(s) == 16 {
					errs++
				}
			}
		}
	}
	if errs == 0 {
		t.Error("the empty choice at v1=5, v2=4 writes no range error")
	}
}
