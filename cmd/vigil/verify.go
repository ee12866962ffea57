package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	invcert "vigil/ic3/cert"

	"vigil/ic3"
	"vigil/internal/cli"
	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/load"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "verify",
		Summary: "decide whether a policy can reach an unsafe state (exit 0 safe, 3 unsafe, 4 unknown)",
		Usage:   "vigil verify [flags] FILE.spec",
		Examples: []string{
			"vigil verify specs/transport.spec --engine bfs",
			"vigil verify specs/oneway_line.spec --policy careful --property no_overshoot --json",
			"vigil verify specs/tarjansafe.spec --policy hasty --record cex.json; vigil run specs/tarjansafe.spec --replay cex.json",
			"vigil verify specs/oneway.spec --policy driver --html cex.html --plot pos,speed",
			"vigil verify specs/rover.spec --policy careful --engine ic3 --cert inv.smt2; z3 inv.smt2; vigil cert check inv.smt2",
			"vigil verify specs/flappy.spec --engine bfs --cert reach.json.gz; vigil cert check reach.json.gz",
			"vigil verify specs/transport.spec --engine auto --json",
			"vigil verify specs/tarjansafe.spec --policy all --engine ic3 --cert 'inv-{policy}.smt2'",
			"vigil verify bench/polic3/blocks.spec -D N=4 -D TLIMIT=3 --policy-file bench/polic3/models/bl4_16x16_safe.onnx --engine polic3",
		},
		Run: runVerify,
	})
}

// engines lists the verification engines; the first is the default.
var engines = verify.Names()

func runVerify(e *cli.Env, args []string) int {
	fs, c := e.Flags("verify")
	e.AddProgressFlags(fs)
	engine := &cli.EnumFlag{What: "engine", Values: engines, Val: engines[0]}
	fs.Var(engine, "engine", "verification engine: "+strings.Join(engines, ", ")+" (bfs: breadth-first search of the policy's runs from all start states; ic3: IC3 over SMT with an inductive invariant, for spaces too large to enumerate; ic3-nog: IC3 without reason generalization; polic3, polic3-nog: IC3 for network and tree-ensemble policies (ic3 picks it for them); bdd: BDD forward reachability with exact state counts; ppa: policy predicate abstraction with CEGAR (--predicates); auto: a portfolio on the available cores of bfs up to the states that fit in a quarter of the memory, ic3 or polic3, and a hunter of counterexamples by random walks of the policy; the first checked verdict wins)")
	order := &cli.EnumFlag{What: "order", Values: []string{"activity", "index", "reverse"}, Val: "activity"}
	fs.Var(order, "order", "ic3: the order in which generalization tries to drop variables: activity (least used in recent clauses first), index (declaration order), reverse")
	widen := &cli.EnumFlag{What: "widening", Values: []string{"auto", "on", "off"}, Val: "auto"}
	certCache := fs.Bool("cert-cache", true, "polic3: cache the certifier's answers per (box, label), reused on sub- and super-boxes; false to measure what the cache saves")
	fs.Var(widen, "widen", "ic3: widen the bounds of learned clauses after dropping literals: auto (on for symbolic policies; for learned ones on variables of 256 values or more), on, off")
	lemmas := &cli.EnumFlag{What: "lemma language", Values: []string{"linear", "box"}, Val: "linear"}
	fs.Var(lemmas, "lemmas", "ic3: the lemma language: linear (boxes plus linear atoms over several variables drawn from the model's comparisons; a learned policy is certified over each region, and tree ensembles whose inputs each read one variable keep boxes) or box (bounds only)")
	freeCores := fs.Bool("free-cores", false, "polic3: take an unsat core that rests on no policy exclusion as a lemma without certifying it again (fewer queries on some tree ensembles, a worse invariant on others: measured in ic3/FIGURES.md)")
	ctg := fs.Bool("ctg", false, "ic3: counterexamples to generalization: when dropping a literal fails because of a state that a clause could exclude, learn that clause and retry (up to 3 per learned clause; smaller invariants, more SMT calls)")
	bf := addBDDFlags(fs)
	certFile := fs.String("cert", "", "write a certificate of a safe verdict to this file, for vigil cert check FILE: ic3, polic3 and ppa the inductive invariant in SMT-LIB2 (z3 FILE checks its own definitions), bfs (and auto when bfs decides) the reachable states as a JSON state list, gzip-compressed when FILE ends in .gz")
	mf := addModelFlags(fs, "property to verify (default: the only one)",
		"policy to verify (default: the only one; a model without policies is verified over all labels); all, or a comma-separated list of names and globs (np2x3_*), verifies each in turn, all within the one --timeout (a policy the timeout leaves no time for is not run), and ends with a summary (exit code: the worst; --cert, --record and --html then need {policy} in the file name)")
	maxStates := cli.AddCountFlag(fs, "max-states", 0, "give up (unknown, exit 4) after storing this many states; 0 means no limit")
	workers := addWorkersFlag(fs)
	rlimit := cli.AddCountFlag(fs, "rlimit", 0, "ic3, polic3, ppa and auto's SMT members: bound each Z3 query by Z3's deterministic resource limit (rlimit, Z3's units of work, the same on every machine, unlike --timeout); a query that reaches it answers unknown (exit 4, the reason names the limit), never a verdict; 0 means no limit")
	predicates := fs.String("predicates", "", "ppa: the initial predicates, a `FILE` of PlaJA predicates (a JSON array of JANI expressions, or a PA property file naming one) or of .spec `pred NAME = COND` declarations; default: those a PA property file given as --unsafe or --start names, else the atoms of the start and unsafe conditions")
	record := fs.String("record", "", "write the counterexample to this run file (replay with vigil run --replay)")
	jsonOut := fs.Bool("json", false, "print the verdict as JSON")
	htmlOut := fs.String("html", "", "write the verdict and the counterexample to this self-contained HTML `FILE`: a table of the states (changed cells highlighted) and a plot of numeric variables over the steps")
	plot := fs.String("plot", "", "verify --html: the numeric variables to plot, comma-separated (default: those that change along the counterexample, at most 8)")
	mf.writes("cert", certFile)
	mf.writes("record", record)
	mf.writes("html", htmlOut)
	full := fs.Bool("full", false, "list every variable at every step of a counterexample (by default the states after the first list the variables that changed)")
	timeout := cli.TimeoutFlag(fs)
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if !bf.check(e, "verify", engine.Val == "bdd") || !checkWorkers(e, "verify", *workers, engine.Val == "bfs" || engine.Val == "auto") {
		return cli.ExitUsage
	}
	if engine.Val == "bdd" && (*maxStates != 0 || *certFile != "") {
		return e.Fail(cli.ExitUsage, "vigil verify: --engine bdd takes neither --max-states nor --cert (its limit is --max-nodes; it exports no certificate)")
	}
	mf.readsPredicates = engine.Val == "ppa" // predicate abstraction reads a PA property's predicates
	mf.argmaxInReport = true                 // the report notes an --argmax override
	if *plot != "" && *htmlOut == "" {
		return e.Fail(cli.ExitUsage, "vigil verify: --plot needs --html FILE")
	}
	if *predicates != "" && engine.Val != "ppa" {
		return e.Fail(cli.ExitUsage, "vigil verify: --predicates needs --engine ppa")
	}
	if engine.Val == "ppa" && *maxStates != 0 {
		return e.Fail(cli.ExitUsage, "vigil verify: --engine ppa takes no --max-states")
	}
	if *rlimit > math.MaxUint32 {
		return e.Fail(cli.ExitUsage, "vigil verify: --rlimit %d is more than Z3 takes (at most %d; 0 means no limit)", *rlimit, uint32(math.MaxUint32))
	}
	if *rlimit > 0 && (engine.Val == "bfs" || engine.Val == "bdd") {
		return e.Fail(cli.ExitUsage, "vigil verify: --rlimit bounds Z3's queries; --engine %s asks none (use ic3, ic3-nog, polic3, polic3-nog, ppa or auto)", engine.Val)
	}
	sig, stop := cli.RunContext(0)
	defer stop()
	out := verifyOut{record: *record, cert: *certFile, html: *htmlOut, json: *jsonOut, full: *full}
	one := func(out verifyOut) int {
		ctx, cancel := sig, context.CancelFunc(func() {})
		if *timeout > 0 {
			ctx, cancel = context.WithTimeout(sig, *timeout)
		}
		defer cancel()
		if *rlimit > 0 {
			ctx = smt.WithRlimit(ctx, uint32(*rlimit))
		}
		return verifyPolicy(e, ctx, out, verifySetup{file: file, mf: mf, plot: *plot, predicates: *predicates,
			q: verify.Question{Engine: engine.Val,
				Limits:      verify.Limits{MaxStates: *maxStates, MaxNodes: *bf.maxNodes},
				BFS:         verify.BFSOptions{Workers: *workers},
				IC3:         verify.IC3Options{Order: order.Val, Widen: widen.Val, NoRelational: lemmas.Val == "box", CTG: *ctg, FreeCores: *freeCores, NoCertCache: !*certCache},
				Certificate: *certFile != "", Tamper: corruptAnswer,
			}, bf: bf})
	}
	names, err := policyList(mf, file)
	if err != nil {
		code := cli.ExitError
		if pe, ok := err.(*policyListError); ok && pe.usage {
			code = cli.ExitUsage
		}
		return e.Fail(code, "vigil verify: --policy %s: %v", *mf.pol, err)
	}
	if names == nil {
		return one(out)
	}
	return verifyEach(e, sig, mf, names, out, one)
}

// verifySetup is what vigil verify's flags say about one verification:
// the question without its model, property and policy, which verifyPolicy
// loads.
type verifySetup struct {
	file       string
	mf         *modelFlags
	plot       string // --plot
	predicates string // --predicates
	q          verify.Question
	bf         *bddFlags
}

// verifyPolicy loads the model with the policy mf names, decides the
// question and writes the verdict where out says; it returns the exit code.
func verifyPolicy(e *cli.Env, ctx context.Context, out verifyOut, st verifySetup) int {
	lm, ok := st.mf.load(e, "verify", st.file, true, load.ThePolicy)
	if !ok {
		return cli.ExitError
	}
	out.lm = lm
	if n := reachabilityNote(lm.m, lm.prop); n != "" {
		e.Notice(n)
	}
	var err error
	if out.plot, err = verify.PlotVars(lm.m, cli.SplitList(st.plot)); err != nil {
		return e.Fail(cli.ExitUsage, "vigil verify: --plot: %v", err)
	}
	q := &st.q
	if strings.HasPrefix(q.Engine, "polic3") && !ic3.IsLearned(lm.decl) {
		return e.Fail(cli.ExitUsage, "vigil verify: --engine %s verifies network and tree-ensemble policies; policy %q is not one: use --engine ic3", q.Engine, policyName(lm.decl))
	}
	prog := e.NewProgress(out.json)
	var progMu sync.Mutex // auto's members report at once
	q.Model, q.Property, q.Policy, q.Compiled = lm.m, lm.prop, lm.decl, lm.g
	q.Progress = func(p verify.Progress) {
		progMu.Lock()
		defer progMu.Unlock()
		prog.Printf("verify (%s): %s", p.Engine, p.Text)
	}
	if q.Engine == "bdd" {
		q.BDD = st.bf.options(prog, "verify (bdd)")
	}
	if q.Engine == "ppa" && st.predicates != "" {
		if q.PPA.Predicates, err = lang.LoadPredicatesNamed(st.predicates, st.file, *st.mf.prop, st.mf.defs, lm.m); err != nil {
			return e.Fail(cli.ExitError, "vigil verify: %v", err)
		}
		q.PPA.From = st.predicates
	}
	if q.Header, err = certHeader(st.file, st.mf, out.cert); err != nil {
		return e.Fail(cli.ExitError, "vigil verify: %v", err)
	}
	v, err := verify.Decide(ctx, q)
	prog.Clear()
	if err != nil {
		var ie *verify.InternalError
		if errors.As(err, &ie) {
			return e.InternalError("verify", "%s", ie.Msg)
		}
		return e.Fail(cli.ExitFor(err), "vigil verify: %v", err)
	}
	return writeVerify(e, ctx, q, v, out)
}

// verifyOut says where vigil verify's results go.
type verifyOut struct {
	lm           *loadedModel
	record, cert string // --record, --cert
	html         string // --html
	plot         []symbolic.VarID
	json, full   bool
	report       func(*verify.Report) // when set, called with the report before it is written
}

// writeVerify writes the verdict v of q where o says (the counterexample
// to --record, a certificate to --cert, the page to --html, the report to
// stdout) and returns the exit code.
//
// A certificate asked for and not written does not lose the verdict, as
// in vigil safe: a stop (ctx) while it is written removes the file, the
// report says "certificate: FILE not written" and the exit code is 4
// (unknown: a script that takes 0 for "safe, certificate written" must
// not find no file); a write error prints the report, then the error,
// and exits 1.
func writeVerify(e *cli.Env, ctx context.Context, q *verify.Question, v *verify.Verdict, o verifyOut) int {
	rep := verify.NewReport(q, v)
	if o.lm.argmaxNote != "" {
		rep.Notes = append(rep.Notes, o.lm.argmaxNote)
	}
	if o.report != nil {
		o.report(rep)
	}
	if v.Answer == explicit.UnsafeVerdict && o.record != "" {
		if err := explicit.WriteRunFile(o.record, rep.Run()); err != nil {
			return e.Fail(cli.ExitError, "vigil verify: %v", err)
		}
	}
	var certErr error
	if o.cert != "" {
		switch _, err := verify.WriteCertificate(ctx, o.cert, q, v, rep); {
		case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
			rep.CertNotWritten = o.cert
			if rep.Reason == "" {
				rep.Reason = phrase.StopReason(ctx)
			}
		case err != nil:
			certErr = err
			rep.CertError = err.Error()
		}
	}
	if v.PPA == nil && o.html != "" {
		if err := writeFile(o.html, func(w io.Writer) error { return rep.WriteHTML(w, o.plot) }); err != nil {
			return e.Fail(cli.ExitError, "vigil verify: --html: %v", err)
		}
	}
	code := cli.ExitUnknown
	switch v.Answer {
	case explicit.Safe:
		code = cli.ExitOK
	case explicit.UnsafeVerdict:
		code = cli.ExitUnsafe
	}
	if rep.CertNotWritten != "" {
		code = cli.ExitUnknown
	}
	code = e.WriteReport("verify", o.json, verifyText{rep, verify.TextOptions{Full: o.full, Rerun: o.lm.rerun}}, code)
	if certErr != nil {
		return e.Fail(cli.ExitFor(certErr), "vigil verify: --cert: %v (the verdict above stands; no certificate was written)", certErr)
	}
	return code
}

// verifyText is the report of vigil verify with the text options of its
// flags; its JSON is the report's.
type verifyText struct {
	*verify.Report
	opt verify.TextOptions
}

func (r verifyText) WriteText(w io.Writer) error { return r.Report.WriteText(w, r.opt) }

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// certHeader is what a certificate of this verification records about
// where the question came from (verify.NewHeader).
func certHeader(file string, mf *modelFlags, cert string) (invcert.Header, error) {
	var start, unsafe, policyFile string
	if p := mf.plaja; p != nil {
		start, unsafe, policyFile = *p.start, *p.unsafe, *p.policyFile
	}
	h, err := verify.NewHeader(cert, file, mf.defs, start, unsafe, policyFile)
	if mf.plaja != nil {
		h.ArgMax = string(mf.plaja.reading())
	}
	return h, err
}

// corruptAnswer, set only by tests, alters an engine's answer before
// vigil checks it, to drive the internal-error paths (exit 70) that a
// correct engine never takes.
var corruptAnswer *verify.Tamper

// reachabilityNote says, for a JANI reachability property (P(F goal)) as
// read from the model, that it has no unsafe states, so that verify
// answers safe (and ic3 has nothing to prove), and names the property
// that asks the safety question, its goal as unsafe states.
func reachabilityNote(m *symbolic.Model, p *symbolic.Property) string {
	if p == nil || !p.FromModel || p.Query == nil || p.Goal == nil || p.Unsafe == nil || p.Unsafe.Op != symbolic.CFalse {
		return ""
	}
	for _, q := range m.Properties {
		if q != p && q.FromModel && q.Unsafe == p.Goal {
			return fmt.Sprintf("vigil verify: note: property %s is the model's reachability query (%s of reaching its goal) and has no unsafe states, so every run is safe; whether the goal can be reached is property %s (its goal as unsafe states), and vigil prob computes the probability", p.Name, p.Query.Op, q.Name)
		}
	}
	return fmt.Sprintf("vigil verify: note: property %s is the model's reachability query (%s of reaching its goal) and has no unsafe states, so every run is safe; vigil prob computes the probability", p.Name, p.Query.Op)
}
