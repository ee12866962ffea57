package jani

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// JANI import splits an edge whose destinations' probabilities read the
// state into one command per combination of live destinations
// (splitPieces): up to 255 commands for 8 such destinations, each guarded
// by the edge's guard and one live or dead condition per destination.
// vigil export --jani wrote each piece as an edge of its own, a file up to
// 255 times the original's size. mergeSplits finds the pieces and writes
// the edge they came from instead: it is exact, because it merges only
// where splitting the merged edge again (splitPieces, as vigil import and
// every reader that drops destinations of probability 0 does) gives back
// exactly the pieces, the same guards, outcomes, costs, in the same order.

// piece is a run of commands written as one.
type piece struct {
	first, n int
	cmd      symbolic.Command
}

// mergeSplits returns the commands of m to write as edges: the runs of
// pieces of one split edge replaced by that edge.
func mergeSplits(m *symbolic.Model) []symbolic.Command {
	cmds := m.Commands
	keys := make([]string, len(cmds)) // commandKey of cmds, as needed
	key := func(i int) string {
		if keys[i] == "" {
			keys[i] = commandKey(m, &cmds[i])
		}
		return keys[i]
	}
	var runs []piece
	next := 0 // commands before next belong to a run already
	for j := range cmds {
		if j < next {
			continue
		}
		orig, ok := unsplit(m, &cmds[j])
		if !ok {
			continue
		}
		pieces, _, _ := splitPieces(m, orig, liveOf(orig.Outcomes))
		if len(pieces) < 2 && (len(pieces) == 0 || commandKey(m, &pieces[0]) == key(j)) {
			continue // no split: written as it is
		}
		at := -1 // cmds[j] among the pieces
		for i := range pieces {
			if commandKey(m, &pieces[i]) == key(j) {
				at = i
				break
			}
		}
		first := j - at
		if at < 0 || first < next || first+len(pieces) > len(cmds) {
			continue
		}
		match := true
		for i := range pieces {
			if commandKey(m, &pieces[i]) != key(first+i) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		runs = append(runs, piece{first, len(pieces), orig})
		next = first + len(pieces)
	}
	if len(runs) == 0 {
		return cmds
	}
	var out []symbolic.Command
	i := 0
	for _, r := range runs {
		out = append(out, cmds[i:r.first]...)
		out = append(out, r.cmd)
		i = r.first + r.n
	}
	return append(out, cmds[i:]...)
}

// liveOf is, per outcome, the condition under which JANI import keeps it
// (liveProb), nil for a constant probability.
func liveOf(outs []symbolic.Outcome) []*symbolic.Cond {
	live := make([]*symbolic.Cond, len(outs))
	for i := range outs {
		if outs[i].StateProb() {
			live[i] = liveProb(&outs[i])
		}
	}
	return live
}

// unsplit guesses the edge that c is the piece "every destination live"
// of: c's outcomes under c's guard without its trailing conjuncts that
// are the live conditions of c's state-dependent outcomes, in order. The
// guess is checked by the caller.
func unsplit(m *symbolic.Model, c *symbolic.Command) (symbolic.Command, bool) {
	dep := false
	for i := range c.Outcomes {
		o := &c.Outcomes[i]
		if o.StateProb() && o.ProbFactors[0].ZeroSum {
			return symbolic.Command{}, false
		}
		dep = dep || o.StateProb()
	}
	if !dep {
		return symbolic.Command{}, false
	}
	var conj []*symbolic.Cond
	conjuncts(c.Guard, func(a *symbolic.Cond) { conj = append(conj, a) })
	p := len(conj)
	live := liveOf(c.Outcomes)
	for i := len(live) - 1; i >= 0 && p > 0; i-- {
		if live[i] != nil && m.CondString(live[i]) == m.CondString(conj[p-1]) {
			p--
		}
	}
	if p == len(conj) {
		return symbolic.Command{}, false
	}
	orig := *c
	orig.Guard = symbolic.And(conj[:p]...)
	return orig, true
}

// commandKey is c as text: label, guard, cost and outcomes (weights,
// probabilities, assignments); two commands with the same key are the
// same command.
func commandKey(m *symbolic.Model, c *symbolic.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s|", c.Label, m.CondString(c.Guard))
	if c.Cost != nil {
		b.WriteString(m.ExprString(c.Cost))
	}
	for _, o := range c.Outcomes {
		fmt.Fprintf(&b, "|%d/%d %v", o.Weight.Num, o.Weight.Den, o.Prob)
		for _, f := range o.ProbFactors {
			fmt.Fprintf(&b, " (%s)/(%s)%v", m.ExprString(f.Num), m.ExprString(f.Den), f.ZeroSum)
		}
		for _, a := range o.Assigns {
			fmt.Fprintf(&b, " %d:=%s", a.Var, m.ExprString(a.Value))
		}
	}
	return b.String()
}
