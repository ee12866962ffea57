package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"vigil/lang/jani"
	"vigil/load"
	"vigil/symbolic"
)

func init() {
	register(&command{
		Name:    "import",
		Summary: "convert a JANI model (and PlaJA property and policy files) to .spec text",
		Usage:   "vigil import [-D NAME=VALUE]... [--goals] [--start FILE] [--unsafe FILE] [--policy-file FILE] [-o OUT.spec] MODEL.jani",
		Examples: []string{
			"vigil import beb.jani -D N=3 > beb.spec",
			"vigil import cdrive.2.jani --goals -o cdrive.spec && vigil explore cdrive.spec --property goal_",
			"vigil import blocksworld_4_3.jani -D item_cost_bound=4 -D failing_probability=0.1 \\\n" +
				"      --start pa.jani --unsafe pa.jani --policy-file blocksworld_4_3_16_16.jani2nnet -o bw.spec",
		},
		Run: runImport,
	})
}

func runImport(e *env, args []string) int {
	c := commands["import"]
	fs := newFlags(e, c)
	defs := defines{}
	fs.Var(defs, "D", "set a constant: -D `NAME=VALUE` (repeatable; every open JANI constant needs one)")
	start := fs.String("start", "", "PlaJA start condition file (state-condition, states-values, or a PA property file)")
	unsafe := fs.String("unsafe", "", "PlaJA unsafe (reach) condition file, or a PA property file")
	policyFile := fs.String("policy-file", "", "policy: a PlaJA .jani2nnet interface, a PA property file naming one, or a network (.onnx, .nnet, vigil JSON) or tree ensemble whose inputs are the model's variables and outputs its labels, in order")
	choose := fs.String("property", "", "the PA property to use of a --start/--unsafe/--policy-file file that has several (by name)")
	goals := fs.Bool("goals", false, "keep the model's JANI properties: reachability as goal (terminal), safety (G, or NAME_avoid for P of F) as unsafe")
	out := fs.String("o", "", "write the .spec to this file (file paths in it are made relative to its directory)")
	files, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(files) != 1 {
		fmt.Fprintf(e.stderr, "vigil import: want one JANI model\nusage: %s\n", c.Usage)
		return exitUsage
	}
	m, notes, err := jani.LoadNotes(files[0], defs)
	for _, n := range notes {
		fmt.Fprintln(e.stderr, n)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	if !*goals {
		m.Properties = nil
	}
	if pos, ok := jani.NonLinear(m); ok {
		fmt.Fprintf(e.stderr, "vigil import: %s: a product of two variables; .spec is linear and cannot express it: run vigil on the .jani file itself (the explicit and BDD engines evaluate it)\n", pos)
		return exitError
	}
	pf := *policyFile
	if pf != "" {
		kind, learned, err := load.PolicyFileKind(pf)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil import: %v\n", err)
			return exitFor(err)
		}
		if learned {
			// A network or tree ensemble, not a PlaJA interface: the
			// .spec declares it with the model's variables as inputs and
			// its labels as outputs, in order.
			if _, err := load.AttachPolicyFile(m, pf, kind, ""); err != nil {
				fmt.Fprintf(e.stderr, "vigil import: %v\n(import --policy-file takes a PlaJA .jani2nnet interface, a PA property file naming one, or a network or tree ensemble whose inputs are the model's variables and outputs its labels, in order)\n", err)
				return exitFor(err)
			}
			pf = ""
		}
	}
	if _, _, err := jani.Attach(m, *start, *unsafe, pf, *choose); err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	for _, p := range m.Properties {
		if len(p.Predicates) > 0 {
			fmt.Fprintf(e.stderr, "vigil import: note: the %s of PA property %s are not written to the .spec: only verify --engine ppa reads them, from the JANI files\n", plural(len(p.Predicates), "predicate"), p.Name)
		}
	}
	// Print the interfaces' inputs and outputs explicitly so that the .spec
	// stands on its own.
	for _, d := range m.Policies {
		d.Interface = ""
	}
	if *out != "" {
		jani.Relativize(m, filepath.Dir(*out))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Imported by vigil import from %s.\n", filepath.Base(files[0]))
	if err := symbolic.Print(&b, m); err != nil {
		fmt.Fprintf(e.stderr, "vigil import: %v\n", err)
		return exitFor(err)
	}
	if *out == "" {
		e.stdout.Write(b.Bytes())
		return exitOK
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "vigil import: %v\n", err)
		return exitFor(err)
	}
	return exitOK
}
