package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"vigil/internal/cli"
	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/lang/jani"
	"vigil/load"
	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "export",
		Summary: "write a safety question as SMT-LIB2 (--chc Horn clauses for z3, --smt2 the transition system) or as a JANI model (--jani, for Storm and mcsta)",
		Usage:   "vigil export --chc|--smt2|--jani [-o FILE] [flags] FILE.spec",
		Help: `--jani writes the model as JANI (jani-version 1, type mdp, or dtmc for a model read
from a dtmc): one automaton
with one location, an edge per command (the commands a JANI edge was split
into, by its state-dependent probabilities or by the values its PlaJA
choices' bounds read, are that one edge again: a choice's pieces as one
destination per share, x := max(x, k) and the like, in plain JANI), a
destination per outcome with its
probability (the weights normalised exactly, as lang/spec.md says; an
outcome of probability 0 is refused: JANI readers drop it, vigil verify
does not),
bounded int and bool variables, the constants (after -D), the property's
start condition as restrict-initial (an array indexed from 0 whose
elements it or the declaration fixes is a JANI array, any other one variable
per element named on[1], on[2], ..., which vigil import reads back as the
array; costs a transient reward that it reads back as costs) and the
property as a query:
Pmax=? [F unsafe] without a goal (vigil import reads it back as NAME, goal
unsafe, and NAME_avoid, unsafe unsafe), Pmax=? [!unsafe U (goal & !unsafe)]
with one (read back as NAME with the same unsafe and goal states), none
for a property that asks nothing (no goal, unsafe false: the property
initial that vigil import gives a JANI model without properties; its start
states are written as restrict-initial, and read back as initial); a
property of a JANI model keeps its own operator (Pmin, Pmax), path formula,
comparison and filter. A
rules or table policy is inlined into the guards: an edge of label a fires
only where the policy chooses a (rules: the first rule whose condition holds
and whose label is applicable; table: the label of the state's last row).
Network and tree-ensemble policies cannot be written as guards and are
refused: export the environment with --all-labels. vigil explore on the
.spec and on the .jani (with --property) reach the same states (a test
checks this on every model in specs/ and bench/polic3). A note names what
another tool may read otherwise: expressions whose values may leave the
64-bit integers (exact in JANI, as in vigil), and what vigil's own JANI
import refuses or leaves out of the file.`,
		Examples: []string{
			"vigil export --chc specs/tarjansafe.spec --policy patient -o t.smt2 && z3 t.smt2    # sat: safe, unsat: unsafe",
			"vigil export --smt2 specs/oneway_line.spec --policy slow",
			"vigil export --chc specs/oneway.spec --all-labels    # the model's nn policy cannot be exported",
			"vigil export --jani specs/flappy.spec -D S=4 -o flappy.jani && storm --jani flappy.jani --janiproperty",
		},
		Run: runExport,
	})
}

func runExport(e *cli.Env, args []string) int {
	fs, c := e.Flags("export")
	chc := fs.Bool("chc", false, "Horn clauses over an unknown invariant vigil.inv, for z3's Spacer: z3 answers sat when the question is safe, unsat when it is not")
	sys := fs.Bool("smt2", false, "the transition system as define-funs (vigil.init, vigil.trans, vigil.bad), for other solvers and tools")
	janiOut := fs.Bool("jani", false, "the model as JANI for Storm and mcsta, with a rules or table policy inlined into the guards and the property as a Pmax reachability query")
	out := fs.String("o", "", "write to this file instead of standard output")
	allLabels := fs.Bool("all-labels", false, "export every applicable label's moves, ignoring the model's policies")
	mf := addModelFlags(fs, "property to export (default: the only one)",
		"policy to export, rules or table (default: the only one; a model without policies is exported over all labels)")
	mf.writes("o", out)
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if n := btoi(*chc) + btoi(*sys) + btoi(*janiOut); n != 1 {
		return e.Fail(cli.ExitUsage, "vigil export: choose one of --chc, --smt2 and --jani\nusage: %s", c.Usage)
	}
	pd := load.ThePolicy
	if *allLabels {
		if *mf.pol != "" || *mf.plaja.policyFile != "" {
			return e.Fail(cli.ExitUsage, "vigil export: --all-labels ignores policies; drop --policy and --policy-file, or --all-labels")
		}
		pd = load.NoPolicy
	}
	lm, ok := mf.load(e, "export", file, true, pd)
	if !ok {
		return cli.ExitError
	}
	if d := lm.decl; d != nil && !d.Kind.Symbolic() {
		fmt.Fprintf(e.Stderr, "vigil export: policy %s is a %s policy; only rules and table policies can be exported exactly; %s\n",
			d.Name, d.Kind, exportHint(lm.m))
		return cli.ExitError
	}
	if !startSatisfiable(e, lm.m, lm.prop) {
		return cli.ExitError
	}
	q := smtlib.Question{Model: lm.m, Property: lm.prop, Policy: lm.decl}
	var b bytes.Buffer
	var err error
	switch {
	case *janiOut:
		// a product's factors are decided exactly where intervals
		// cannot tell: a deterministic resource limit, so that the
		// answer does not depend on the machine's load, and a timeout
		// behind it
		lim := smt.CheckOptions{Limits: smt.Limits{Timeout: 10 * time.Second, Rlimit: 50_000_000}}
		err = jani.ExportWith(&b, lm.m, lm.prop, lm.decl, jani.ExportOptions{
			Satisfiable: func(m *symbolic.Model, c *symbolic.Cond) (symbolic.State, bool, error) {
				return smt.Satisfiable(m, c, lim)
			},
		})
	case *chc:
		err = smtlib.WriteCHC(&b, q)
	default:
		err = smtlib.WriteSystem(&b, q)
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil export: %v", err)
	}
	if *janiOut && !cli.Interrupted() {
		// vigil's integers, like JANI's, are unbounded, and the file
		// says the same; but an intermediate value beyond 64 bits
		// ((x * 2^62 + x * 2^62) / 2^62) is where a tool computing in
		// 64-bit or floating-point arithmetic reads another model.
		if ws := lang.OverflowWarnings(lm.m); len(ws) > 0 {
			e.Notice(fmt.Sprintf("vigil export: note: %s may leave the 64-bit integers (vigil check lists %s, W0306): the JANI file means the exact values, as vigil does, but a tool that evaluates JANI expressions in 64-bit or floating-point arithmetic may compute others there",
				phrase.Plural(len(ws), "expression"), map[bool]string{true: "it", false: "them"}[len(ws) == 1]))
		}
	}
	if *janiOut {
		wide := false
		for _, v := range lm.m.Vars {
			if v.Lo < -jani.MaxBound || v.Hi > jani.MaxBound {
				wide = true
				e.Notice(fmt.Sprintf("vigil export: note: variable %s ranges over %d .. %d, beyond ±2^31: Storm reads the file, but vigil's JANI import, which keeps bounds within ±2^31, refuses it", v.Name, v.Lo, v.Hi))
			}
		}
		// Any other limit of the import (a factor beyond ±2^40 beside a
		// variable, which a .spec may have: (x * 2^42 + 2^42) / 2^42) failed
		// the round trip without a word too: the file is read back.
		if !wide && !cli.Interrupted() {
			name := *out
			if name == "" {
				name = "the exported file"
			}
			back, _, err := jani.DecodeContext(cli.LoadContext(), name, b.Bytes(), nil)
			switch {
			case cli.Interrupted():
			case err != nil:
				msg, _, _ := strings.Cut(err.Error(), "\n")
				e.Notice(fmt.Sprintf("vigil export: note: vigil's JANI import refuses the file it writes (Storm may read it): %s", msg))
			default:
				// The model reads back, but a property the import
				// leaves out (a constant beyond ±2^40 beside a variable
				// in its unsafe or goal condition) was dropped without
				// a word: vigil explore FILE.jani --property NAME then
				// failed with no hint that the export was the cause.
				names := make([]string, 0, len(back.Dropped))
				for n := range back.Dropped {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					why, _, _ := strings.Cut(back.Dropped[n], "\n")
					e.Notice(fmt.Sprintf("vigil export: note: vigil's JANI import leaves out property %s of the file it writes (Storm may read it): %s", n, why))
				}
			}
		}
	}
	if *janiOut && lm.prop != nil && jani.ExportRenames(lm.prop) {
		e.Notice(fmt.Sprintf("vigil export: note: property %s is an expected reward (%s), which the JANI export does not write: the file asks %s_reach, the Pmax of reaching its goal", lm.prop.Name, lm.prop.Query.Op, lm.prop.Name))
	}
	if *janiOut && lm.prop != nil && jani.AsksNothing(lm.prop) {
		e.Notice(fmt.Sprintf("vigil export: note: property %s asks nothing (no goal, unsafe false): the JANI file has its start states (restrict-initial) and no property; vigil import reads it back with the property initial, those start states", lm.prop.Name))
	}
	if *out == "" {
		e.Stdout.Write(b.Bytes())
		return cli.ExitOK
	}
	if err := cli.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return e.Fail(cli.ExitFor(err), "vigil export: %v", err)
	}
	return cli.ExitOK
}

// exportHint says what to export instead of a learned policy: a rules or
// table policy of the model, or every label.
func exportHint(m *symbolic.Model) string {
	exact := m.SymbolicPolicies()
	if len(exact) == 0 {
		return "export every label's moves with --all-labels"
	}
	return fmt.Sprintf("choose one with --policy (%s), or export every label's moves with --all-labels", strings.Join(exact, ", "))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// startSatisfiable reports, as every engine does, a start condition that no
// state satisfies: z3 would answer such a CHC export "sat" (safe) and Storm
// would find no initial state, hiding the mistake in the condition. Where
// Z3 cannot decide it within 10 s the export goes ahead with a note.
func startSatisfiable(e *cli.Env, m *symbolic.Model, p *symbolic.Property) bool {
	if p == nil || p.Start == nil {
		return true
	}
	res, _, err := smt.StartSatisfiable(m, p, smt.CheckOptions{Limits: smt.Limits{Timeout: 10 * time.Second}})
	switch {
	case err != nil:
		e.Fail(cli.ExitFor(err), "vigil export: %v", err)
		return false
	case res == smt.Unsat:
		pos := p.Pos
		if p.Start.Pos.IsValid() {
			pos = p.Start.Pos
		}
		e.Fail(cli.ExitError, "vigil export: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, p.Name)
		return false
	case res == smt.Unknown:
		fmt.Fprintf(e.Stderr, "vigil export: note: Z3 could not decide within 10 s whether some state satisfies the start condition of property %s; if none does, a solver's \"safe\" on this export is vacuous\n", p.Name)
	}
	return true
}
