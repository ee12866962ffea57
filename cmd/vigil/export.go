package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"vigil/smt/smtlib"
	"vigil/symbolic"
)

func init() {
	register(&command{
		Name:    "export",
		Summary: "write a safety question as SMT-LIB2: Horn clauses for z3 (--chc) or the transition system (--smt2)",
		Usage:   "vigil export --chc|--smt2 [-o FILE] [flags] FILE.spec",
		Examples: []string{
			"vigil export --chc specs/tarjansafe.spec --policy patient -o t.smt2 && z3 t.smt2    # sat: safe, unsat: unsafe",
			"vigil export --smt2 specs/oneway_line.spec --policy slow",
			"vigil export --chc specs/oneway.spec --all-labels    # the model's nn policy cannot be exported",
		},
		Run: runExport,
	})
}

func runExport(e *env, args []string) int {
	c := commands["export"]
	fs := newFlags(e, c)
	chc := fs.Bool("chc", false, "Horn clauses over an unknown invariant vigil.inv, for z3's Spacer: z3 answers sat when the question is safe, unsat when it is not")
	sys := fs.Bool("smt2", false, "the transition system as define-funs (vigil.init, vigil.trans, vigil.bad), for other solvers and tools")
	out := fs.String("o", "", "write to this file instead of standard output")
	allLabels := fs.Bool("all-labels", false, "export every applicable label's moves, ignoring the model's policies")
	mf := addModelFlags(fs, "property to export (default: the only one)",
		"policy to export, rules or table (default: the only one; a model without policies is exported over all labels)")
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	if *chc == *sys {
		fmt.Fprintf(e.stderr, "vigil export: choose one of --chc and --smt2\nusage: %s\n", c.Usage)
		return exitUsage
	}
	pd := thePolicy
	if *allLabels {
		if *mf.pol != "" || *mf.plaja.policyFile != "" {
			fmt.Fprintln(e.stderr, "vigil export: --all-labels ignores policies; drop --policy and --policy-file, or --all-labels")
			return exitUsage
		}
		pd = noPolicy
	}
	lm, ok := mf.load(e, "export", file, true, pd)
	if !ok {
		return exitError
	}
	if d := lm.decl; d != nil && d.Kind != symbolic.KindRules && d.Kind != symbolic.KindTable {
		fmt.Fprintf(e.stderr, "vigil export: policy %s is a %s policy; only rules and table policies can be exported exactly; %s\n",
			d.Name, d.Kind, exportHint(lm.m))
		return exitError
	}
	q := smtlib.Question{Model: lm.m, Property: lm.prop, Policy: lm.decl}
	var b bytes.Buffer
	var err error
	if *chc {
		err = smtlib.WriteCHC(&b, q)
	} else {
		err = smtlib.WriteSystem(&b, q)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil export: %v\n", err)
		return exitError
	}
	if *out == "" {
		e.stdout.Write(b.Bytes())
		return exitOK
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "vigil export: %v\n", err)
		return exitError
	}
	return exitOK
}

// exportHint says what to export instead of a learned policy: a rules or
// table policy of the model, or every label.
func exportHint(m *symbolic.Model) string {
	var exact []string
	for _, d := range m.Policies {
		if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
			exact = append(exact, d.Name)
		}
	}
	if len(exact) == 0 {
		return "export every label's moves with --all-labels"
	}
	return fmt.Sprintf("choose one with --policy (%s), or export every label's moves with --all-labels", strings.Join(exact, ", "))
}
