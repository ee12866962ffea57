package main

import (
	"path/filepath"

	"vigil/internal/cli"
	"vigil/lang/jani"
	"vigil/load"
)

func init() {
	cli.Register(&cli.Command{
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

func runImport(e *cli.Env, args []string) int {
	fs, c := e.Flags("import")
	defs := cli.Defines{}
	fs.Var(defs, "D", "set a constant: -D `NAME=VALUE` (repeatable; every open JANI constant needs one)")
	start := fs.String("start", "", "PlaJA start condition file (state-condition, states-values, or a PA property file)")
	unsafe := fs.String("unsafe", "", "PlaJA unsafe (reach) condition file, or a PA property file")
	policyFile := fs.String("policy-file", "", "policy: a PlaJA .jani2nnet interface, a PA property file naming one, or a network (.onnx, .nnet, vigil JSON) or tree ensemble whose inputs are the model's variables and outputs its labels, in order")
	choose := fs.String("property", "", "the PA property to use of a --start/--unsafe/--policy-file file that has several (by name)")
	goals := fs.Bool("goals", false, "keep the model's JANI properties: reachability as goal (terminal), safety (G, or NAME_avoid for P of F) as unsafe")
	out := fs.String("o", "", "write the .spec to this file (file paths in it are made relative to its directory)")
	argmax := cli.ArgMaxFlag(fs)
	files, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(files) != 1 {
		return e.Fail(cli.ExitUsage, "vigil import: want one JANI model\nusage: %s", c.Usage)
	}
	if in, ok := overwritten(*out, []string{files[0], *start, *unsafe, *policyFile}); ok {
		return e.Fail(cli.ExitUsage, "vigil import: -o %s would overwrite %s, an input of the import; write to another file", *out, in)
	}
	opts := load.ImportOptions{Defines: defs, Files: load.Files{Start: *start, Unsafe: *unsafe, PolicyFile: *policyFile, ArgMax: load.ArgMax(argmax.Val)}, Property: *choose, Goals: *goals}
	if *out != "" {
		opts.Dir = filepath.Dir(*out)
	}
	im, err := load.Import(files[0], opts)
	for _, n := range im.JANINotes {
		e.Notice(n.String())
	}
	printMessages(e, "import", im.Notes)
	switch {
	case err == nil:
	case jani.IsError(err):
		return e.Fail(cli.ExitFor(err), "%v", err)
	default:
		return e.Fail(cli.ExitFor(err), "vigil import: %v", err)
	}
	if *out == "" {
		e.Stdout.Write(im.Spec)
		return cli.ExitOK
	}
	if err := cli.WriteFile(*out, im.Spec, 0o644); err != nil {
		return e.Fail(cli.ExitFor(err), "vigil import: %v", err)
	}
	return cli.ExitOK
}
