package lang

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS27fConstantIfIndex: an index that is an if whose condition folds
// to a constant is the arm that constant selects; the other arm is never
// evaluated (spec.md, "Indexing"). Its interval was the hull of both
// arms, so a[if N > 3 then 3 else 1] in a property was E0804 with N = 2
// ("it takes 1 .. 3") although the read is a[1]. An index whose if reads
// a variable still takes both arms.
func TestS27fConstantIfIndex(t *testing.T) {
	src := `model x
const N = 2
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 3 = 0
action s when a[if N > 3 then 3 else 0] == 0 -> a[if N > 3 then 3 else 1]' = 2
property q { unsafe a[if N > 3 then 3 else 1] == 2 }
`
	for _, n := range []string{"2", "4"} {
		m, diags := LoadSource("x.spec", []byte(src), Options{Defines: map[string]string{"N": n}})
		if m == nil {
			t.Fatalf("-D N=%s: does not load:\n%s", n, diags.Render())
		}
		st := make(symbolic.State, len(m.Vars))
		want := 1 // a[1] with N = 2, a[3] with N = 4
		if n == "4" {
			want = 3
		}
		var aw symbolic.VarID = -1
		for id, v := range m.Vars {
			if v.Name == "a["+map[int]string{1: "1", 3: "3"}[want]+"]" {
				aw = symbolic.VarID(id)
			}
		}
		c := m.Commands[0]
		if !c.Guard.Holds(st) || len(c.Outcomes) != 1 {
			t.Fatalf("-D N=%s: s is not applicable in the start state", n)
		}
		wrote := false
		for _, as := range c.Outcomes[0].Assigns {
			if as.Value.Eval(st) == 2 {
				wrote = wrote || as.Var == aw
				if as.Var != aw {
					t.Errorf("-D N=%s: s writes 2 to %s, want a[%d]", n, m.Vars[as.Var].Name, want)
				}
			}
		}
		if !wrote {
			t.Errorf("-D N=%s: s does not write a[%d]", n, want)
		}
	}
	live := strings.Replace(src, "a[if N > 3 then 3 else 1] == 2 }", "a[if i > 1 then 3 else 1] == 2 }", 1)
	if _, diags := LoadSource("x.spec", []byte(live), Options{}); !strings.Contains(diags.Render(), "E0804") {
		t.Errorf("an if reading i may select a[3]: want E0804, got:\n%s", diags.Render())
	}
}

// TestS27fPrintedDeadModel: a model whose dead reads stand as the
// array's first element and whose never-applicable commands lost their
// writes prints (symbolic.Print) as a model that loads to the same
// meaning: in every state of the product of the ranges, each command's
// guard, cost and outcomes' values agree.
func TestS27fPrintedDeadModel(t *testing.T) {
	src := `model p
const N = 4
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 4 = 0
pred full = forall k in 0 .. 3: k >= N || a[k] >= 1
pred some = exists k in 0 .. 3: k < N && a[k] == 2
action set(j in 0 .. 3) when j < N && a[j] < 2 cost (if j < N then a[j] else a[j]) + 1 -> 1: a[j]' = a[j] + 1 | 3: a[j]' = 1, i' = (if N > 3 then (if j < N then a[3 - j] else a[j]) else 0)
action drop(j in 0 .. 3) when j < N => a[j] == 3 -> 2: i' = 0 | 1: i' = 3
action fin when full && (N < 4 || a[3] >= 1) && (sum k in 0 .. 3: (if k < N then a[k] else 0)) >= N + 1 && (count k in 0 .. 3: k < N && a[k] == 2) >= 1 && some -> i' = 4
property q { unsafe i == 4 }
`
	for _, n := range []string{"2", "3", "4"} {
		m, diags := LoadSource("p.spec", []byte(src), Options{Defines: map[string]string{"N": n}})
		if m == nil {
			t.Fatalf("-D N=%s: does not load:\n%s", n, diags.Render())
		}
		m2, diags := LoadSource("p.spec", printModel(m), Options{})
		if m2 == nil {
			t.Fatalf("-D N=%s: the printed model does not load:\n%s\n%s", n, diags.Render(), printModel(m))
		}
		if len(m2.Vars) != len(m.Vars) || len(m2.Commands) != len(m.Commands) {
			t.Fatalf("-D N=%s: the printed model has %d variables and %d commands, want %d and %d", n, len(m2.Vars), len(m2.Commands), len(m.Vars), len(m.Commands))
		}
		st := make(symbolic.State, len(m.Vars))
		var walk func(k int)
		walk = func(k int) {
			if k < len(st) {
				for v := m.Vars[k].Lo; v <= m.Vars[k].Hi; v++ {
					st[k] = v
					walk(k + 1)
				}
				return
			}
			for ci, c := range m.Commands {
				c2 := m2.Commands[ci]
				g := c.Guard.Holds(st)
				if g != c2.Guard.Holds(st) {
					t.Fatalf("-D N=%s: command %d's guard differs in %v", n, ci, st)
				}
				if !g {
					continue
				}
				if c.CostIn(st) != c2.CostIn(st) || len(c.Outcomes) != len(c2.Outcomes) {
					t.Fatalf("-D N=%s: command %d's cost or outcomes differ in %v", n, ci, st)
				}
				for oi, o := range c.Outcomes {
					o2 := c2.Outcomes[oi]
					if o.Prob != o2.Prob || len(o.Assigns) != len(o2.Assigns) {
						t.Fatalf("-D N=%s: command %d outcome %d differs", n, ci, oi)
					}
					for ai, as := range o.Assigns {
						if as.Var != o2.Assigns[ai].Var || as.Value.Eval(st) != o2.Assigns[ai].Value.Eval(st) {
							t.Fatalf("-D N=%s: command %d outcome %d assigns differently in %v", n, ci, oi, st)
						}
					}
				}
			}
		}
		walk(0)
	}
}
