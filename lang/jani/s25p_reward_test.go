package jani

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// rewardModel is a one-automaton mdp of two locations whose transient
// real r is 2 in location b (0 elsewhere, its initial value), with the
// property NAME = {"op": OP, "exp": EXP, "accumulate": ACC, "reach": x = 1}.
func rewardModel(exp, acc string) string {
	return `{"jani-version": 1, "name": "rw", "type": "mdp", "actions": [{"name": "go"}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}, "initial-value": 0},
  {"name": "r", "type": "real", "transient": true, "initial-value": 0.0}],
 "properties": [{"name": "e", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
   "values": {"op": "Emin", "exp": ` + exp + `, "accumulate": ` + acc + `, "reach": {"op": "=", "left": "x", "right": 1}}}}],
 "automata": [{"name": "m", "locations": [{"name": "a"}, {"name": "b", "transient-values": [{"ref": "r", "value": 2}]}],
  "initial-locations": ["a"], "edges": [
   {"location": "a", "action": "go", "destinations": [{"location": "b", "assignments": []}]},
   {"location": "b", "action": "go", "destinations": [{"location": "b", "assignments": [{"ref": "x", "value": 1}]}]}]}],
 "system": {"elements": [{"automaton": "m"}]}}`
}

// TestRewardImport: the reward of an Emin property is read for vigil
// prob (location values on exit, a constant per step), or refused with
// the reason, the property still loading as reachability of its goal.
func TestRewardImport(t *testing.T) {
	for _, c := range []struct {
		exp, acc string
		check    func(*symbolic.Reward) string
	}{
		{`"r"`, `["exit"]`, func(r *symbolic.Reward) string {
			if r.Unsupported != "" || !r.Exit || r.Steps || len(r.Parts) != 1 || r.Parts[0].Const.RatString() != "2" || r.Default.Sign() != 0 {
				return "want one part of 2 on exit, default 0"
			}
			return ""
		}},
		{`1`, `["steps"]`, func(r *symbolic.Reward) string {
			if r.Unsupported != "" || !r.Exit || r.Steps || r.Default.RatString() != "1" || len(r.Parts) != 0 {
				return "want a constant 1 a step"
			}
			return ""
		}},
		{`"r"`, `["steps"]`, func(r *symbolic.Reward) string {
			if !strings.Contains(r.Unsupported, `add "exit"`) {
				return "want the location reward refused without exit"
			}
			return ""
		}},
		{`"r"`, `["time"]`, func(r *symbolic.Reward) string {
			if !strings.Contains(r.Unsupported, `"time"`) {
				return "want time refused"
			}
			return ""
		}},
		{`"x"`, `["exit"]`, func(r *symbolic.Reward) string {
			if !strings.Contains(r.Unsupported, "not a global transient numeric variable") {
				return "want x refused"
			}
			return ""
		}},
	} {
		m, _, err := Decode("rw.jani", []byte(rewardModel(c.exp, c.acc)), nil)
		if err != nil {
			t.Fatalf("%s %s: %v", c.exp, c.acc, err)
		}
		p := m.Property("e")
		if p == nil || p.Query == nil || p.Query.Reward == nil || p.Goal == nil {
			t.Fatalf("%s %s: property e not imported with a reward and a goal", c.exp, c.acc)
		}
		if why := c.check(p.Query.Reward); why != "" {
			t.Errorf("%s %s: %+v: %s", c.exp, c.acc, *p.Query.Reward, why)
		}
	}
}
