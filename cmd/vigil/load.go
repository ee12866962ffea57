package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"vigil/internal/cli"
	"vigil/internal/untildone"
	"vigil/load"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// loadModel loads a model file (.spec or .jani) with -D overrides
// (load.Model), printing its diagnostics on stderr. It returns nil when
// the file has errors.
//
// Ctrl-C stops the loading (cli.LoadContext): it prints so and returns
// nil, and the command's exit code 1 becomes 4 (Env.LoadInterrupted).
func loadModel(e *cli.Env, path string, defs cli.Defines) *symbolic.Model {
	m, diags, err := load.ModelContext(cli.LoadContext(), path, defs)
	if err != nil {
		e.LoadInterrupted("", path)
		return nil
	}
	e.PrintDiags(diags)
	return m
}

// plajaFlags are the flags that let a published PlaJA instance run without a
// .spec: --start/--unsafe condition files (or a PA property file) and
// --policy-file (a .jani2nnet interface, or a PA property file naming one),
// with --argmax, the reading of the policy's arg-max (PlaJA's
// --applicability-filtering).
type plajaFlags struct {
	start, unsafe, policyFile *string
	argmax                    *cli.EnumFlag
}

func addPlajaFlags(fs *flag.FlagSet) *plajaFlags {
	pf := &plajaFlags{start: fs.String("start", "", "PlaJA start condition `FILE` (state-condition JSON, or a PA property file)")}
	pf.unsafe = fs.String("unsafe", "", "PlaJA unsafe condition file (reach.jani, or a PA property file); adds a property")
	pf.policyFile = fs.String("policy-file", "", "a network (.onnx, .nnet, vigil JSON) or tree ensemble (XGBoost JSON, LightGBM text, Veritas JSON) to use as the policy, with the inputs and outputs of the declared learned policy --policy names (or of the model's learned policies when they all agree; with none declared, the model's variables and labels in order); or a PlaJA .jani2nnet interface (or a PA property file naming one)")
	pf.argmax = cli.ArgMaxFlag(fs)
	return pf
}

// reading is the --argmax reading ("" when the flag is not given; the
// flag's own check admits only load's values).
func (pf *plajaFlags) reading() load.ArgMax { return load.ArgMax(pf.argmax.Val) }

// files returns the files the flags name.
func (pf *plajaFlags) files() load.Files {
	return load.Files{Start: *pf.start, Unsafe: *pf.unsafe, PolicyFile: *pf.policyFile, ArgMax: pf.reading()}
}

// apply adds the property and policy the flags name to m, and selects them
// unless --property/--policy chose others (load.Attach). It prints what
// goes wrong and returns false.
//
// With --argmax and withArgMax, the policy they select (the model's only
// one when none is named) reads its arg-max so (load.ApplyArgMax); a
// caller that never evaluates the policy (run --replay) passes false.
func (pf *plajaFlags) apply(e *cli.Env, m *symbolic.Model, propName, polName *string, withArgMax bool) bool {
	warnings, err := load.Attach(m, pf.files(), propName, polName)
	if err == nil && withArgMax && pf.reading() != load.ArgMaxDeclared {
		var d *symbolic.PolicyDecl
		if d, err = load.SelectPolicy(m, *polName, true); err == nil {
			note := load.OverrideNote(d, pf.reading()) // "" when the flag does not apply to d
			warnings, err = load.ApplyArgMax(d, pf.reading(), warnings)
			if note != "" {
				warnings = append(warnings, load.Message{Text: note})
			}
		}
	}
	printMessages(e, "", warnings)
	if err != nil {
		printLoadError(e, "", err)
		return false
	}
	return true
}

// printLoadError prints an error of package load as the loaders always
// have: the model's diagnostics are printed already (Env.PrintDiags), a file
// that does not attach is "vigil: ...", anything else "vigil CMD: ...".
func printLoadError(e *cli.Env, cmd string, err error) {
	switch err.(type) {
	case *load.DiagnosticsError:
	case *load.FilesError:
		fmt.Fprintln(e.Stderr, "vigil:", err)
	default:
		if cmd == "" {
			fmt.Fprintln(e.Stderr, "vigil:", err)
			return
		}
		fmt.Fprintf(e.Stderr, "vigil %s: %v\n", cmd, err)
	}
}

// printMessages prints the warnings and notes of package load: warnings
// as "vigil: warning: ...", notes as "vigil CMD: note: ..." ("vigil:
// note: ..." when cmd is "").
func printMessages(e *cli.Env, cmd string, msgs []load.Message) {
	prefix := "vigil"
	if cmd != "" {
		prefix += " " + cmd
	}
	for _, m := range msgs {
		if m.Warning {
			e.Notice("vigil: warning: " + m.Text)
		} else {
			e.Notice(prefix + ": note: " + m.Text)
		}
	}
}

// modelFlags are the flags of the commands that run one model under a
// property and a policy: --property, --policy, the PlaJA files and -D.
type modelFlags struct {
	prop, pol *string
	plaja     *plajaFlags
	defs      cli.Defines
	// readsPredicates says the command uses a PA property's predicates
	// (verify --engine ppa); every other command notes that it ignores them.
	readsPredicates bool
	// defaultProperty chooses the property where --property names none
	// (load.Options.DefaultProperty); nil: the model's only one.
	defaultProperty func(*symbolic.Model) string
	// allProperties: the command goes through every property itself and
	// selects none (load.Options.AllProperties).
	allProperties bool
	// argmaxInReport says the command's report carries the note on how
	// --argmax overrode the policy's reading (loadedModel.argmaxNote);
	// for every other command load prints it as a note.
	argmaxInReport bool
	// outs are the command's output files (writes), which load checks
	// against the files the question is read from.
	outs []outFlag
	// fs is the command's flag set: load reads its --timeout, which
	// bounds the loading too.
	fs *flag.FlagSet
	// clock is the command's one --timeout (startClock): every load and
	// the engine after them end by its deadline.
	clock struct {
		started bool
		limit   time.Duration // the flag's value at the start (0: none)
		start   time.Time
	}
	// preStop is the end of the load context that stopped a preload:
	// the command's own load reports it at once.
	preStop error
	// loadStopped says that load reported a stop (--timeout or a
	// signal): verifyEach counts that policy unknown, as one policy's
	// command exits 4, not as an input error.
	loadStopped bool
}

type outFlag struct {
	name string
	path *string
	// table: the output is a table policy, which may replace a table the
	// model declares (and the question does not use): vigil prob
	// --scheduler writes the table a declared policy reads.
	table bool
}

// writes registers output flag name: load refuses a run whose output
// file is one of the files the question is read from (the model, a
// policy file, a PlaJA file), which it would destroy (`vigil prob m.spec
// --scheduler m.spec` overwrote the model).
func (mf *modelFlags) writes(name string, path *string) {
	mf.outs = append(mf.outs, outFlag{name: name, path: path})
}

// writesTable is writes for an output that is a table policy.
func (mf *modelFlags) writesTable(name string, path *string) {
	mf.outs = append(mf.outs, outFlag{name: name, path: path, table: true})
}

// overwrites reports the first registered output that is the same file
// as one of ins, or, for an output that is not a table, of tables (files
// that do not exist yet are no input).
func (mf *modelFlags) overwrites(ins, tables []string) (flag, out, in string, ok bool) {
	for _, o := range mf.outs {
		all := ins
		if !o.table {
			all = append(slices.Clone(ins), tables...)
		}
		if in, ok := overwritten(*o.path, all); ok {
			return o.name, *o.path, in, true
		}
	}
	return "", "", "", false
}

// overwritten reports the first of ins that is the same file as out
// (none when out is "" or does not exist yet).
func overwritten(out string, ins []string) (string, bool) {
	if out == "" {
		return "", false
	}
	fo, err := os.Stat(out)
	if err != nil {
		return "", false
	}
	for _, f := range ins {
		if f == "" {
			continue
		}
		if fi, err := os.Stat(f); err == nil && os.SameFile(fo, fi) {
			return f, true
		}
	}
	return "", false
}

func addModelFlags(fs *flag.FlagSet, propUsage, polUsage string) *modelFlags {
	mf := &modelFlags{defs: cli.Defines{}, fs: fs}
	mf.prop = fs.String("property", "", propUsage+"; it also chooses among the PA properties of a --start/--unsafe/--policy-file file that has several")
	mf.pol = fs.String("policy", "", polUsage)
	mf.plaja = addPlajaFlags(fs)
	fs.Var(mf.defs, "D", "override a constant: -D `NAME=VALUE` (repeatable)")
	return mf
}

// timeout is the command's --timeout (0: none, or no such flag).
func (mf *modelFlags) timeout() time.Duration {
	if mf.fs == nil {
		return 0
	}
	if f := mf.fs.Lookup("timeout"); f != nil {
		if d, ok := f.Value.(cli.DurationValue); ok {
			return d.Duration()
		}
	}
	return 0
}

// loadedModel is a model with its selected property and policy, compiled
// for the explicit engine.
type loadedModel struct {
	m    *symbolic.Model
	prop *symbolic.Property   // nil when not required and the model has none
	decl *symbolic.PolicyDecl // nil: all labels
	g    *explicit.Generator
	dec  explicit.Decider // nil when decl is nil
	// rerun is "vigil run FILE" with the flags that load the same model:
	// -D and the PlaJA files (the start of a replay hint).
	rerun string
	// argmaxNote says how --argmax overrode the selected policy's declared
	// reading (load.OverrideNote), "" when it did not.
	argmaxNote string
}

// load loads file, applies the PlaJA files, selects the property
// (propRequired: a model without one is an error) and the policy
// (load.Load), and compiles them. It prints what goes wrong and returns
// false. Ctrl-C stops the loading (cli.LoadContext): it prints so, and
// the command's exit code 1 becomes 4 (Env.LoadInterrupted).
func (mf *modelFlags) load(e *cli.Env, cmd, file string, propRequired bool, pd load.PolicyDefault) (*loadedModel, bool) {
	ctx, cancel, timeout := mf.loadContext()
	defer cancel()
	stopped := func() { mf.loadStopped = true; reportStop(e, cmd, file, ctx.Err(), timeout) }
	// The policy files (--policy-file, and the declared policy's network or
	// ensemble, which the decider reads) are read by loaders that do not
	// poll ctx: a 168 MB ONNX network held verify 3.7 s after SIGTERM and
	// an XGBoost JSON of 5,000 trees several seconds past --timeout 1s
	// (nn/FIGURES.md, "Stopping while a large policy file loads").
	// untildone.Run returns when ctx is done.
	if stop := mf.preStop; stop != nil {
		// a load before this one (the model's policies for a --policy
		// list, the run file's defaults) was stopped: report it at once
		// instead of loading again
		mf.preStop, mf.loadStopped = nil, true
		reportStop(e, cmd, file, stop, timeout)
		return nil, false
	}
	r, err := untildone.Run(ctx, func() (*load.Loaded, error) {
		return load.Load(file, load.Options{Defines: mf.defs, Files: mf.plaja.files(), Property: *mf.prop, Policy: *mf.pol,
			PropertyRequired: propRequired, PolicyDefault: pd, ReadsPredicates: mf.readsPredicates, ReadsFilterStates: cmd == "prob", Context: ctx,
			DefaultProperty: mf.defaultProperty, AllProperties: mf.allProperties})
	})
	repanic(err)
	if _, ok := errors.AsType[*untildone.Stopped](err); ok || errors.Is(err, load.ErrInterrupted) {
		stopped()
		return nil, false
	}
	l := r
	e.PrintDiags(l.Diagnostics)
	msgs := l.Messages
	if l.ArgMaxNote != "" && !mf.argmaxInReport {
		msgs = append(msgs, load.Message{Text: l.ArgMaxNote})
	}
	printMessages(e, cmd, msgs)
	if err != nil {
		printLoadError(e, cmd, err)
		return nil, false
	}
	if l.Model.Type == "dtmc" && l.Policy != nil {
		// Every enabled edge of a dtmc is taken, with equal shares: a
		// policy that picks one would answer about another model (a
		// "safe" that the dtmc's other edges contradict).
		fmt.Fprintf(e.Stderr, "vigil %s: model %s is a JANI dtmc: it has no choices for policy %s to make (its enabled edges are taken together, each with an equal share); use --policy none\n", cmd, l.Model.Name, l.Policy.Name)
		return nil, false
	}
	ins := []string{file, *mf.plaja.start, *mf.plaja.unsafe, *mf.plaja.policyFile, l.ModelPAInterface}
	var tables []string // unused tables: what --scheduler may write
	for _, d := range l.Model.Policies {
		if d.Kind == symbolic.KindTable && d != l.Policy {
			tables = append(tables, d.File)
		} else {
			ins = append(ins, d.File, d.Interface)
		}
	}
	if flag, out, in, ok := mf.overwrites(ins, tables); ok {
		what := "the model"
		if in != file {
			what = "an input of the question"
		}
		dash := "--"
		if len(flag) == 1 {
			dash = "-"
		}
		fmt.Fprintf(e.Stderr, "vigil %s: %s%s %s would overwrite %s (%s); write to another file\n", cmd, dash, flag, out, in, what)
		return nil, false
	}
	lm := &loadedModel{m: l.Model, prop: l.Property, decl: l.Policy, argmaxNote: l.ArgMaxNote,
		rerun: verify.RunCommand(file, mf.defs, *mf.plaja.start, *mf.plaja.unsafe, *mf.plaja.policyFile)}
	if l.ModelPAInterface != "" {
		lm.rerun += " --policy-file " + verify.ShellQuote(l.ModelPAInterface) // explicit, though vigil run now attaches the property's network too
	}
	if a := mf.plaja.reading(); a != load.ArgMaxDeclared {
		lm.rerun += " " + a.Flag()
	}
	if lm.g, err = explicit.NewContext(ctx, lm.m, lm.prop); err != nil {
		if ctx.Err() != nil {
			stopped()
		} else {
			fmt.Fprintf(e.Stderr, "vigil %s: %v\n", cmd, err)
		}
		return nil, false
	}
	if lm.decl != nil {
		// The decider loads the policy's network or ensemble.
		dec, err := untildone.Run(ctx, func() (explicit.Decider, error) { return explicit.NewDecider(lm.m, lm.decl) })
		repanic(err)
		if _, ok := errors.AsType[*untildone.Stopped](err); ok {
			stopped()
			return nil, false
		}
		if err != nil {
			fmt.Fprintf(e.Stderr, "vigil %s: %v\n", cmd, err)
			return nil, false
		}
		lm.dec = dec
	}
	return lm, true
}

// startClock starts the command's --timeout at its first call (the
// command's first load): from then on every load (loadContext) and the
// engine after them (runContext) end by one deadline, start + --timeout.
// Before session 31 each load got the whole --timeout anew: vigil faults'
// load for the run file's defaults, then its own, then its engine, and
// verify --policy all's load of the list, then each policy's load and
// engine, so that a command ran for several times its --timeout when its
// loads were slow.
func (mf *modelFlags) startClock() {
	if !mf.clock.started {
		mf.clock.started, mf.clock.limit, mf.clock.start = true, mf.timeout(), time.Now()
	}
}

// deadline is when the command's --timeout runs out (startClock); ok is
// false when it has none.
func (mf *modelFlags) deadline() (d time.Time, ok bool) {
	mf.startClock()
	if mf.clock.limit <= 0 {
		return time.Time{}, false
	}
	return mf.clock.start.Add(mf.clock.limit), true
}

// loadDeadline is when the command's loads stop (loadContext): its
// --timeout from its start, but at least a second; ok is false when it
// has no --timeout.
func (mf *modelFlags) loadDeadline() (d time.Time, ok bool) {
	if _, ok := mf.deadline(); !ok {
		return time.Time{}, false
	}
	return mf.clock.start.Add(max(mf.clock.limit, time.Second)), true
}

// loadContext is the context a command loads its model under: the
// process context (cli.LoadContext, done at the first Ctrl-C or SIGTERM),
// ended also by the command's --timeout (deadline), which gives its loads
// at least a second from its start (a command stops within a second of
// its timeout): a timeout of 1ns still loads a small model and stops its
// engine, with the engine's partial results. timeout is the flag's value
// (0: none).
func (mf *modelFlags) loadContext() (ctx context.Context, cancel context.CancelFunc, timeout time.Duration) {
	ctx, cancel = cli.LoadContext(), func() {}
	if d, ok := mf.loadDeadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, d)
	}
	return ctx, cancel, mf.clock.limit
}

// runContext is the context a command's engine runs under after its
// loads: the process's signals (cli.RunContext) and what the loads left of
// the command's --timeout. A timeout that ran out while the loads ended
// (they get at least a second) gives a context already done: the engine
// stops at once with its partial results, exit 4.
func (mf *modelFlags) runContext() (context.Context, context.CancelFunc) {
	ctx, stop := cli.RunContext(0)
	d, ok := mf.deadline()
	if !ok {
		return ctx, stop
	}
	dctx, cancel := context.WithDeadline(ctx, d)
	return dctx, func() { cancel(); stop() }
}

// reportStop reports that the loading of file stopped with the load
// context's error stop: the --timeout timeout ran out, or a signal came
// (Env.LoadTimedOut, Env.LoadInterrupted: the command then exits 4).
func reportStop(e *cli.Env, cmd, file string, stop error, timeout time.Duration) {
	if errors.Is(stop, context.DeadlineExceeded) && !cli.Interrupted() {
		e.LoadTimedOut(cmd, file, timeout)
	} else {
		e.LoadInterrupted(cmd, file)
	}
}

// preload is a load of file before the command's own (mf.load): the
// model's policies for a --policy list (policyList), the run file's
// defaults (runDefaults). It stops, as mf.load does, at the first signal
// or when --timeout runs out, and returns nil then or when the model does
// not load: the command's own load, which comes next, reports what is
// wrong, and a stop at once (mf.preStop) without loading again.
func (mf *modelFlags) preload(file string, opt load.Options) *load.Loaded {
	ctx, cancel, _ := mf.loadContext()
	defer cancel()
	opt.Context = ctx
	l, err := untildone.Run(ctx, func() (*load.Loaded, error) { return load.Load(file, opt) })
	repanic(err)
	if _, ok := errors.AsType[*untildone.Stopped](err); ok || errors.Is(err, load.ErrInterrupted) {
		mf.preStop = ctx.Err()
		return nil
	}
	if err != nil || l == nil || l.Model == nil {
		return nil
	}
	return l
}

// repanic raises again, on the command's goroutine, a panic that
// untildone.Run caught on the loader's: runCommand reports it as vigil's
// bug (exit 70), as it did when the loading ran on the command's own
// goroutine, instead of the process crashing with Go's exit 2.
func repanic(err error) {
	if pe, ok := errors.AsType[*untildone.Panic](err); ok {
		panic(fmt.Sprintf("%v\n(while loading; the loader's stack:)\n%s", pe.Value, pe.Stack))
	}
}
