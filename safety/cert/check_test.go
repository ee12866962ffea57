package cert

import (
	"go/build"
	"os"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// trap: inc may jump two steps, so x=2 and x=0 are unsafe whatever the
// policy does; stop at 1 halts (a deadlock, safe). jump, enabled by wild,
// leaves x's range from x=2.
const trapSpec = `model trap
var x    : 0 .. 3 = 0
var halt : bool = false
var wild : bool = false
action inc  when !halt && x < 3 -> x' = x + 1 | x' = min(x + 2, 3)
action stop when !halt && x == 1 -> halt' = true
action jump when !halt && wild -> x' = x + 2
property p { unsafe x == 3 }
`

func load(t testing.TB, name, src string) *symbolic.Model {
	t.Helper()
	m, diags := lang.LoadSource(name+".spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", name, diags.Render())
	}
	return m
}

// loadWalk loads testdata/walk.spec, the model of the package's tests.
func loadWalk(t testing.TB) *symbolic.Model {
	t.Helper()
	src, err := os.ReadFile("testdata/walk.spec")
	if err != nil {
		t.Fatal(err)
	}
	return load(t, "walk", string(src))
}

func s(vs ...int) []int { return vs }

// take and reach build entries: take(label, budget, state...) for safe certificates, reach(rank, budget, state...) for unsafe ones.
func take(label string, b int, st ...int) Entry { return Entry{S: st, B: b, Label: label} }
func reach(rank, b int, st ...int) Entry        { return Entry{S: st, B: b, Rank: rank} }

func TestCheck(t *testing.T) {
	models := map[string]*symbolic.Model{
		"walk": loadWalk(t),
		"trap": load(t, "trap", trapSpec),
	}
	tests := []struct {
		name    string
		model   string
		kind    Kind
		policy  string
		radius  int
		state   []int
		entries []Entry
		err     string // "" for a valid certificate, else a substring of the error
	}{
		// Safe, radius inf: budgets are ignored, any entry counts.
		{"safe inf: walk back and stop", "walk", Safe, "", Inf, s(1, 0),
			[]Entry{take("left", 0, 1, 0), take("stop", 0, 0, 0)}, ""},
		{"safe inf: a cycle is fine", "walk", Safe, "rush", Inf, s(1, 0),
			[]Entry{take("left", 0, 1, 0), take("right", 0, 0, 0)}, ""},
		{"safe inf: budgets ignored", "walk", Safe, "", Inf, s(1, 0),
			[]Entry{take("left", 7, 1, 0), take("stop", 3, 0, 0)}, ""},
		{"safe inf: goal root needs no entry", "walk", Safe, "", Inf, s(2, 1), nil, ""},
		{"safe inf: deadlock root needs no entry", "trap", Safe, "", Inf, s(1, 1, 0), nil, ""},
		{"safe inf: into a deadlock", "trap", Safe, "", Inf, s(1, 0, 0),
			[]Entry{take("stop", 0, 1, 0, 0)}, ""},
		{"safe inf: vacuous entries at a goal and a deadlock", "trap", Safe, "", Inf, s(1, 0, 0),
			[]Entry{take("stop", 0, 1, 0, 0), take("inc", 0, 1, 1, 0)}, ""},
		{"safe inf: duplicates are fine", "walk", Safe, "", Inf, s(0, 0),
			[]Entry{take("stop", 0, 0, 0), take("stop", 0, 0, 0)}, ""},
		{"safe inf: unsafe root", "walk", Safe, "", Inf, s(4, 0), nil, "state x=4 done=false is unsafe"},
		{"safe inf: root without entry", "walk", Safe, "", Inf, s(1, 0),
			[]Entry{take("stop", 0, 0, 0)}, "state x=1 done=false has no entry"},
		{"safe inf: successor missing an entry", "walk", Safe, "", Inf, s(1, 0),
			[]Entry{take("left", 0, 1, 0)}, "entries[0] (x=1 done=false): label left may lead to x=0 done=false, which has no entry"},
		{"safe inf: successor unsafe", "walk", Safe, "", Inf, s(3, 0),
			[]Entry{take("right", 0, 3, 0)}, "entries[0] (x=3 done=false): label right may lead to the unsafe state x=4 done=false"},
		{"safe inf: entry unsafe", "walk", Safe, "", Inf, s(0, 0),
			[]Entry{take("stop", 0, 0, 0), take("left", 0, 4, 0)}, "entries[1] (x=4 done=false): the state is unsafe"},
		{"safe inf: label not applicable", "walk", Safe, "", Inf, s(1, 0),
			[]Entry{take("stop", 0, 1, 0)}, "entries[0] (x=1 done=false): label stop is not applicable"},
		{"safe inf: unknown label", "walk", Safe, "", Inf, s(0, 0),
			[]Entry{take("halt", 0, 0, 0)}, `entries[0] (x=0 done=false): unknown label "halt"`},
		{"safe inf: range error", "trap", Safe, "", Inf, s(2, 0, 1),
			[]Entry{take("jump", 0, 2, 0, 1)}, "state x=2 halt=false wild=true, reachable from x=2 halt=false wild=true within the radius: label jump, command at trap.spec:7:8, outcome 1 of 1 sets x to 4, outside its range 0..3"},
		{"safe inf: value out of range", "walk", Safe, "", Inf, s(0, 0),
			[]Entry{take("stop", 0, 0, 0), take("stop", 0, 5, 0)}, "entries[1] (x=5 done=0): x=5 is outside its range 0..4"},
		{"safe inf: wrong length", "walk", Safe, "", Inf, s(0, 0),
			[]Entry{take("stop", 0, 0)}, "entries[0] ([0]): has 1 values, want 2"},

		// Safe, finite radius: deviations from the policy cost budget.
		{"safe r=0: home is 0-safe", "walk", Safe, "home", 0, s(2, 0),
			[]Entry{take("left", 0, 2, 0), take("left", 0, 1, 0), take("stop", 0, 0, 0)}, ""},
		{"safe r=1: one budget unused", "walk", Safe, "home", 1, s(2, 0),
			[]Entry{take("left", 1, 2, 0), take("left", 1, 1, 0), take("stop", 0, 0, 0)}, ""},
		{"safe r=2: rush, two deviations", "walk", Safe, "rush", 2, s(1, 0),
			[]Entry{take("left", 2, 1, 0), take("stop", 1, 0, 0)}, ""},
		{"safe r=1: rush, the budget runs out", "walk", Safe, "rush", 1, s(1, 0),
			[]Entry{take("left", 1, 1, 0), take("stop", 0, 0, 0)}, "entries[1] (x=0 done=false): budget 0 runs out: label stop deviates (policy rush chooses right)"},
		{"safe r=1: successor needs more budget than is left", "walk", Safe, "rush", 1, s(1, 0),
			[]Entry{take("left", 1, 1, 0), take("stop", 1, 0, 0)}, "label left may lead to x=0 done=false with budget 0 left, but its entries need budget 1 or more"},
		{"safe r=1: a stuck policy counts as a deviation", "walk", Safe, "timid", 1, s(2, 0),
			[]Entry{take("left", 0, 2, 0)}, "budget 0 runs out: label left deviates (policy timid is stuck)"},
		{"safe r=1: root entry within the radius", "walk", Safe, "home", 1, s(1, 0),
			[]Entry{take("left", 0, 1, 0), take("stop", 0, 0, 0)}, ""},
		{"safe r=0: the cycle of rush is not 0-safe", "walk", Safe, "rush", 0, s(1, 0),
			[]Entry{take("right", 0, 1, 0), take("right", 0, 2, 0), take("right", 0, 3, 0)}, "label right may lead to the unsafe state x=4 done=false"},

		// Unsafe, radius inf: ranks must strictly decrease towards unsafe.
		{"unsafe inf: trap", "trap", Unsafe, "", Inf, s(0, 0, 0),
			[]Entry{reach(2, 0, 0, 0, 0), reach(1, 0, 2, 0, 0)}, ""},
		{"unsafe inf: an unsafe state may have any rank", "trap", Unsafe, "", Inf, s(3, 0, 0),
			[]Entry{reach(5, 0, 3, 0, 0)}, ""},
		{"unsafe inf: rank 0 at an unsafe state", "trap", Unsafe, "", Inf, s(3, 0, 0),
			[]Entry{reach(0, 0, 3, 0, 0)}, ""},
		{"unsafe inf: ranks must decrease", "trap", Unsafe, "", Inf, s(0, 0, 0),
			[]Entry{reach(1, 0, 0, 0, 0), reach(1, 0, 2, 0, 0)}, "entries[0] (x=0 halt=false wild=false): label inc has no successor that is unsafe or has an entry with rank < 1; successors: (x=1 halt=false wild=false), (x=2 halt=false wild=false)"},
		{"unsafe inf: root without entry", "trap", Unsafe, "", Inf, s(0, 0, 0),
			[]Entry{reach(1, 0, 2, 0, 0)}, "state x=0 halt=false wild=false has no entry"},
		{"unsafe inf: rank 0 at a state that is not unsafe", "trap", Unsafe, "", Inf, s(2, 0, 0),
			[]Entry{reach(0, 0, 2, 0, 0)}, "entries[0] (x=2 halt=false wild=false): rank 0 claims the state is unsafe"},
		{"unsafe inf: a goal state with rank > 0", "walk", Unsafe, "", Inf, s(0, 1),
			[]Entry{reach(1, 0, 0, 1)}, "entries[0] (x=0 done=true): the state is a goal, which is safe, yet has rank 1"},
		{"unsafe inf: a deadlock with rank > 0", "trap", Unsafe, "", Inf, s(1, 1, 0),
			[]Entry{reach(1, 0, 1, 1, 0)}, "the state is a deadlock, which is safe, yet has rank 1"},
		{"unsafe inf: a safe state", "trap", Unsafe, "", Inf, s(1, 0, 0),
			[]Entry{reach(2, 0, 1, 0, 0), reach(1, 0, 2, 0, 0)}, "label stop has no successor that is unsafe or has an entry with rank < 2; successors: (x=1 halt=true wild=false)"},
		{"unsafe inf: range error", "trap", Unsafe, "", Inf, s(2, 0, 1),
			[]Entry{reach(1, 0, 2, 0, 1)}, "outcome 1 of 1 sets x to 4, outside its range 0..3: the model has a range error"},

		// Unsafe, finite radius: labels that would overdraw the budget are unavailable.
		{"unsafe r=0: rush from 0", "walk", Unsafe, "rush", 0, s(0, 0),
			[]Entry{reach(4, 0, 0, 0), reach(3, 0, 1, 0), reach(2, 0, 2, 0), reach(1, 0, 3, 0)}, ""},
		{"unsafe r=1: rush from 1", "walk", Unsafe, "rush", 1, s(1, 0),
			[]Entry{
				reach(1, 0, 3, 0), reach(2, 0, 2, 0), reach(3, 0, 1, 0), reach(4, 0, 0, 0),
				reach(3, 1, 3, 0), reach(4, 1, 2, 0), reach(5, 1, 1, 0),
			}, ""},
		{"unsafe r=1: root needs an entry with budget 1", "walk", Unsafe, "rush", 1, s(1, 0),
			[]Entry{reach(1, 0, 3, 0), reach(2, 0, 2, 0), reach(3, 0, 1, 0)}, "state x=1 done=false has no entry with budget 1 (the radius)"},
		{"unsafe r=1: a successor's entry has too little budget", "walk", Unsafe, "rush", 1, s(1, 0),
			[]Entry{
				reach(1, 0, 3, 0), reach(2, 0, 2, 0), reach(3, 0, 1, 0), reach(4, 0, 0, 0),
				reach(3, 1, 3, 0), reach(5, 1, 1, 0),
			}, "entries[5] (x=1 done=false): label right (budget 1 left) has no successor"},
		{"unsafe r=1: a successor missing an entry", "walk", Unsafe, "rush", 1, s(1, 0),
			[]Entry{
				reach(1, 0, 3, 0), reach(2, 0, 2, 0), reach(3, 0, 1, 0),
				reach(3, 1, 3, 0), reach(4, 1, 2, 0), reach(5, 1, 1, 0),
			}, "entries[5] (x=1 done=false): label left (budget 0 left) has no successor that is unsafe or has an entry with budget >= 0 and rank < 5; successors: (x=0 done=false)"},
		{"unsafe r=0: stuck policy, every label unavailable", "walk", Unsafe, "timid", 0, s(2, 0),
			[]Entry{reach(1, 0, 2, 0)}, ""},
		{"unsafe r=1: stuck policy, one deviation available", "walk", Unsafe, "timid", 1, s(2, 0),
			[]Entry{reach(1, 1, 2, 0)}, "label left (budget 0 left) has no successor"},
		{"unsafe r=0: home is 0-safe", "walk", Unsafe, "home", 0, s(0, 0),
			[]Entry{reach(1, 0, 0, 0)}, "label stop (budget 0 left) has no successor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := models[tt.model]
			c := &Certificate{
				Format: FormatName, Version: Version, Kind: tt.kind, Spec: tt.model + ".spec",
				Model: m.Name, Property: "p", Policy: tt.policy, Radius: tt.radius,
				Vars: varNames(m), State: tt.state, Entries: tt.entries,
			}
			rep, err := Check(m, m.Property("p"), m.Policy(tt.policy), c)
			if err != nil {
				t.Log(err)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tt.err != "" && err == nil:
				t.Fatalf("Check: valid, want an error containing %q", tt.err)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Fatalf("Check: %v\nwant an error containing %q", err, tt.err)
			}
			if rep.Kind != tt.kind || rep.Radius != tt.radius || rep.Entries != len(tt.entries) {
				t.Errorf("report %+v does not match the certificate", rep)
			}
		})
	}
}

// TestCheckMismatch: a certificate must be about the model, property and
// policy it is checked against.
func TestCheckMismatch(t *testing.T) {
	m := loadWalk(t)
	base := func() *Certificate {
		return &Certificate{
			Format: FormatName, Version: Version, Kind: Safe, Model: "walk", Property: "p",
			Policy: "home", Radius: 0, Vars: []string{"x", "done"}, State: s(0, 0),
			Entries: []Entry{take("stop", 0, 0, 0)},
		}
	}
	if _, err := Check(m, m.Property("p"), m.Policy("home"), base()); err != nil {
		t.Fatalf("base certificate: %v", err)
	}
	tests := []struct {
		name   string
		change func(c *Certificate)
		pol    string
		err    string
	}{
		{"model", func(c *Certificate) { c.Model = "run" }, "home", `about model "run", not "walk"`},
		{"property", func(c *Certificate) { c.Property = "q" }, "home", `about property "q", not "p"`},
		{"policy", func(c *Certificate) { c.Policy = "rush" }, "home", `tests policy "rush", not "home"`},
		{"no policy", func(c *Certificate) {}, "", `radius 0 needs the tested policy "home"`},
		{"empty policy name", func(c *Certificate) { c.Policy = "" }, "home", "only radius inf may leave policy empty"},
		{"vars order", func(c *Certificate) { c.Vars = []string{"done", "x"} }, "home", "vars [done x] do not match model walk's variables [x done]"},
		{"vars missing", func(c *Certificate) { c.Vars = []string{"x"} }, "home", "do not match"},
		{"root out of range", func(c *Certificate) { c.State = s(0, 2) }, "home", "state x=0 done=2: done=2 is outside its range 0..1"},
		{"budget above radius", func(c *Certificate) { c.Entries[0].B = 1 }, "home", "entries[0]: budget 1 exceeds the radius 0"},
		{"negative budget", func(c *Certificate) { c.Entries[0].B = -1 }, "home", "entries[0]: negative budget -1"},
		{"negative radius", func(c *Certificate) { c.Radius = -2 }, "home", "negative radius -2"},
		{"kind", func(c *Certificate) { c.Kind = "maybe" }, "home", `kind "maybe"`},
		{"version", func(c *Certificate) { c.Version = 2 }, "home", "version 2 is not supported"},
		{"rank in a safe entry", func(c *Certificate) { c.Entries[0].Rank = 1 }, "home", "entries[0]: a safe certificate's entry has no rank"},
		{"label in an unsafe entry", func(c *Certificate) { c.Kind = Unsafe }, "home", "entries[0]: an unsafe certificate's entry has no label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.change(c)
			_, err := Check(m, m.Property("p"), m.Policy(tt.pol), c)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Check: %v\nwant an error containing %q", err, tt.err)
			}
		})
	}
}

// TestBudgetCapWideRanges: a range of 2^63 or 2^64 values must not wrap
// around to a small number of states (which would cap every radius, and
// the unsafe certificates' budgets, at it).
func TestBudgetCapWideRanges(t *testing.T) {
	const maxInt, minInt = int(^uint(0) >> 1), -int(^uint(0)>>1) - 1
	for _, c := range []struct {
		lo, hi, limit, want int
	}{
		{0, 9, 100, 10},
		{0, 9, 5, 6},
		{minInt, maxInt, 1 << 20, 1<<20 + 1},
		{minInt, 0, 1 << 20, 1<<20 + 1},
		{-1, maxInt, 1 << 20, 1<<20 + 1},
		{0, maxInt, 1 << 20, 1<<20 + 1},
		{minInt, minInt + 3, 1 << 20, 4},
		{maxInt - 3, maxInt, 1 << 20, 4},
		{0, 9, maxInt, 10}, // limit+1 leaves int (a certificate's radius 2^63-1)
		{minInt, 0, maxInt, maxInt},
	} {
		m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: c.lo, Hi: c.hi}, {Name: "b", Lo: 0, Hi: 1}}}
		want := maxInt // saturated: at most int's largest
		if c.want <= maxInt/2 {
			want = 2 * c.want
		}
		if c.limit < maxInt {
			want = min(want, c.limit+1)
		}
		want = min(want, maxInt)
		if got := BudgetCap(m, c.limit); got != want {
			t.Errorf("x in %d..%d, limit %d: %d states, want %d", c.lo, c.hi, c.limit, got, want)
		}
	}
}

// The checker must share no code with the deciders whose certificates it
// checks: it proves a model free of range errors with Z3 (noRangeErrors),
// not with the deciders' interval reasoning (safety.NoRangeErrors).
func TestIndependentOfDeciders(t *testing.T) {
	p, err := build.Import("vigil/safety/cert", ".", 0)
	if err != nil {
		t.Skip(err)
	}
	for _, imp := range p.Imports {
		if imp == "vigil/safety" {
			t.Fatal("vigil/safety/cert imports vigil/safety")
		}
	}
}
