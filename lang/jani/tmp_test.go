package jani

import (
	"os"
	"testing"

	"vigil/symbolic"
)

func TestTmpGoal(t *testing.T) {
	for _, f := range []string{"cdrive.2.jani", "elevators.a-3-3.jani", "tireworld.17.jani"} {
		path := corpusDir + "/qvbs/" + f
		data, _ := os.ReadFile(path)
		m, _, err := Decode(path, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		root, _ := parseJSON(path, data)
		props := root.get("properties").vals
		for _, p := range props {
			e := p.get("expression").get("values").get("exp")
			goal := e.get("right")
			if goal == nil {
				goal = e.get("exp")
			}
			l := newLowerer(path, data)
			sc := func(name string) (ref, bool) {
				v := m.VarIndex(name)
				if v < 0 {
					return ref{}, false
				}
				return ref{v: v}, true
			}
			c, ok := l.cond(goal, sc)
			if !ok {
				t.Fatal(l.errs.Err())
			}
			m2 := *m
			m2.Commands = nil
			for _, cmd := range m.Commands {
				cmd.Guard = symbolic.And(cmd.Guard, symbolic.Not(c))
				m2.Commands = append(m2.Commands, cmd)
			}
			n, err := reachable(&m2, 1e6)
			t.Log(f, p.get("name").str, n, err)
		}
	}
}
