package smtlib

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestDefinitionsMatchExplicit checks vigil.init, vigil.bad and
// vigil.trans state by state on small generated models: for every state
// of the variables' ranges widened by one on each side, z3 must agree
// that init and bad hold exactly when the explicit engine says so, and
// that vigil.trans(s, s') holds exactly for the successors the explicit
// engine computes (under the policy, none from terminal states, none
// through an outcome that leaves a range).
func TestDefinitionsMatchExplicit(t *testing.T) {
	needZ3(t)
	var ms []seededModel
	for seed := uint64(0); len(ms) < 80 && seed < 5000; seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%2 == 0, MaxVars: 3, MaxRange: 4})
		if widenedSize(m) > 200 {
			continue
		}
		ms = append(ms, seededModel{m, seed})
	}
	checks, questions := definitionsAgree(t, ms, true)
	t.Logf("%d models, %d questions, %d states checked", len(ms), questions, checks)
}

// seededModel is a generated model with the seed that made it (which also
// draws its table policy).
type seededModel struct {
	m    *symbolic.Model
	seed uint64
}

// widenedSize is the number of states of m's ranges widened by one on
// each side, which definitionsAgree asks z3 about.
func widenedSize(m *symbolic.Model) int {
	size := 1
	for i := range m.Vars {
		size *= m.Vars[i].Size() + 2
	}
	return size
}

// definitionsAgree checks vigil.init, vigil.bad and vigil.trans of each
// model under its rules policy, no policy and a random table, state by
// state against the explicit engine (stateChecks), in z3 processes run two
// at a time; withText adds the question's text to a failure. It returns
// the number of states and questions checked.
func definitionsAgree(t *testing.T, ms []seededModel, withText bool) (checks, questions int) {
	t.Helper()
	var ps []problem
	type stateList struct {
		q      Question
		states []symbolic.State
	}
	lists := map[string]stateList{}
	for _, sm := range ms {
		m := sm.m
		for _, pol := range []*symbolic.PolicyDecl{m.Policies[0], nil, randomTable(m, sm.seed)} {
			q := Question{Model: m, Property: m.Properties[0], Policy: pol}
			name := fmt.Sprintf("gen%d/%s", sm.seed, policyName(pol))
			text, states, err := stateChecks(q)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			lists[name] = stateList{q, states}
			ps = append(ps, problem{name, text})
		}
	}
	got := runBatch(t, ps, 2)
	for _, p := range ps {
		lines, l := got[p.name], lists[p.name]
		if len(lines) != len(l.states) {
			t.Errorf("%s: z3 printed %d lines for %d states: %q", p.name, len(lines), len(l.states), lines)
			continue
		}
		for i, line := range lines {
			checks++
			if line != "unsat" {
				text := ""
				if withText {
					text = "\n" + p.text
				}
				t.Errorf("%s: state %s: the printed definitions disagree with the explicit engine (z3: %s)%s",
					p.name, l.q.Model.FormatState(l.states[i]), line, text)
				break
			}
		}
	}
	return checks, len(ps)
}

// randomTable returns a table policy over m that lists some states (a few
// of them twice, with another label: the last row wins) with random labels.
func randomTable(m *symbolic.Model, seed uint64) *symbolic.PolicyDecl {
	r := rand.New(rand.NewPCG(seed, 7))
	t := &symbolic.Table{}
	for i := 0; i < 8+r.IntN(24); i++ {
		s := make(symbolic.State, len(m.Vars))
		for v := range s {
			s[v] = m.Vars[v].Lo + r.IntN(m.Vars[v].Size())
		}
		if len(t.Rows) > 0 && r.IntN(5) == 0 {
			s = t.Rows[r.IntN(len(t.Rows))]
		}
		t.Rows = append(t.Rows, s)
		t.Labels = append(t.Labels, symbolic.LabelID(r.IntN(len(m.Labels))))
	}
	return &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: t}
}

func policyName(d *symbolic.PolicyDecl) string {
	if d == nil {
		return "none"
	}
	return d.Name
}

// stateChecks returns the definitions of q followed by one check per
// state of the widened ranges, each unsat when the definitions agree with
// the explicit engine on that state.
func stateChecks(q Question) (string, []symbolic.State, error) {
	m := q.Model
	var b strings.Builder
	if err := WriteSystem(&b, q); err != nil {
		return "", nil, err
	}
	g, err := explicit.New(m, q.Property)
	if err != nil {
		return "", nil, err
	}
	var dec explicit.Decider
	if q.Policy != nil {
		if dec, err = explicit.NewDecider(m, q.Policy); err != nil {
			return "", nil, err
		}
	}
	n := newNames(m)
	for _, v := range n.next {
		fmt.Fprintf(&b, "(declare-const %s Int)\n", v)
	}
	var states []symbolic.State
	s := make(symbolic.State, len(m.Vars))
	var walk func(i int) error
	walk = func(i int) error {
		if i < len(m.Vars) {
			for x := m.Vars[i].Lo - 1; x <= m.Vars[i].Hi+1; x++ {
				s[i] = x
				if err := walk(i + 1); err != nil {
					return err
				}
			}
			return nil
		}
		init, bad, succs, err := expected(q, g, dec, s)
		if err != nil {
			return err
		}
		args := make([]string, len(s))
		for v, x := range s {
			args[v] = lit(x)
		}
		var next []string
		for _, t := range succs {
			eqs := make([]string, len(t))
			for v, x := range t {
				eqs[v] = "(= " + n.next[v] + " " + lit(x) + ")"
			}
			next = append(next, and(eqs...))
		}
		st := strings.Join(args, " ")
		fmt.Fprintf(&b, "(push 1)\n(assert (or (not (= (vigil.init %s) %t)) (not (= (vigil.bad %s) %t)) (not (= (vigil.trans %s %s) %s))))\n(check-sat)\n(pop 1)\n",
			st, init, st, bad, st, strings.Join(n.next, " "), or(next...))
		states = append(states, append(symbolic.State(nil), s...))
		return nil
	}
	if err := walk(0); err != nil {
		return "", nil, err
	}
	return b.String(), states, nil
}

// newNames returns the quoted state symbols of m.
func newNames(m *symbolic.Model) *names {
	n := &names{}
	for i := range m.Vars {
		n.cur = append(n.cur, "|"+m.Vars[i].Name+"|")
		n.next = append(n.next, "|"+m.Vars[i].Name+"'|")
	}
	return n
}

// expected computes, with the explicit engine, whether s is a start state
// and a bad state and its successors.
func expected(q Question, g *explicit.Generator, dec explicit.Decider, s symbolic.State) (init, bad bool, succs []symbolic.State, err error) {
	m, p := q.Model, q.Property
	if m.InRange(s) >= 0 {
		return false, false, nil, nil
	}
	if p.Start != nil {
		init = p.Start.Holds(s)
	} else {
		init = true
		for i := range m.Vars {
			init = init && s[i] == m.Vars[i].Init
		}
	}
	if g.Status(s) != explicit.Open {
		return init, g.Status(s) == explicit.Unsafe, nil, nil
	}
	app := make([]bool, len(m.Labels))
	m.Applicable(s, app)
	allowed := app
	if dec != nil {
		allowed = make([]bool, len(m.Labels))
		any := false
		for _, a := range app {
			any = any || a
		}
		if any {
			l, err := dec.Decide(s, app)
			if err != nil {
				return false, false, nil, err
			}
			if l != symbolic.NoLabel {
				allowed[l] = true
			}
		}
	}
	seen := map[string]bool{}
	for ci := range m.Commands {
		if !allowed[m.Commands[ci].Label] || !g.Guard(s, ci) {
			continue
		}
		for oi := range m.Commands[ci].Outcomes {
			t, err := g.Apply(s, ci, oi)
			var rerr *explicit.RangeError
			if errors.As(err, &rerr) {
				bad = true
				continue
			} else if err != nil {
				return false, false, nil, err
			}
			if k := fmt.Sprint(t); !seen[k] {
				seen[k] = true
				succs = append(succs, t)
			}
		}
	}
	return init, bad, succs, nil
}
