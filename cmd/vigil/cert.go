package main

import (
	"encoding/json"
	"fmt"
	"os"

	invcert "vigil/ic3/cert"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/verify"
)

func init() {
	register(&command{
		Name:    "cert",
		Summary: "check a safety certificate independently of the decider that wrote it",
		Usage:   "vigil cert check [flags] CERT",
		Examples: []string{
			"vigil cert check safe.cert.json",
			"vigil cert check inv.smt2",
		},
		Run: func(e *env, args []string) int { return runSubcommands(e, "cert", args) },
	})
	register(&command{
		Name:    "cert check",
		Summary: "check a certificate: exit 0 when it holds, 1 when it does not",
		Usage:   "vigil cert check [flags] CERT",
		Help: `A safety certificate (CERT.json, written by vigil safe --cert) proves that
one state is safe or r-safe for a property and a tested policy, or that it
is not. An invariant certificate (SMT-LIB2, written by vigil verify --engine
ic3 --cert) proves that no run of the policy reaches an unsafe state; check
tests its conditions (init, consecution, safety, and a learned policy's
facts) with an encoding of its own: SMT-LIB2 text rebuilt from the model
and solved by Z3's text front end, not the encoder ic3 searches with.

A reachable-set certificate (JSON, kind "invariant", written by vigil
verify --engine bfs --cert, gzip-compressed when its name ends in .gz)
lists the states bfs reached; check enumerates the property's start
states itself and tests that each is listed, that every successor of a
listed state under the policy (every label without one) is listed and in
range, and that no listed state is unsafe. A certificate of kind "starts"
(vigil safe --starts --cert) proves the verdict of each start state it
lists, from one shared table.

check loads the model the certificate names (its "spec", defines and
PlaJA files). Certificates record these paths relative to themselves, and
the directory they were written in: a path is tried beside the
certificate, then where the certificate was written, so a certificate
checks from any directory, and after a move with its model or alone.
(Older certificates: from the current directory, then the certificate's.)
A file found in neither place is reported with each path looked for.
--spec and the PlaJA flags override what the certificate records. A certificate proves its claim for the -D
values it was made with only: -D values that differ from the recorded
ones are refused. check then prints what it checked against: the model
file and its -D values, the start, unsafe and policy files, the model,
property and policy, and the SHA-256 of the policy's files with whether it
matches the one the certificate records (--json: all of it under
"checked"). Names and paths outside printable ASCII are printed escaped
(a Cyrillic a as \u0430), with a warning; a property or policy name
outside ASCII is refused.

z3 CERT on an invariant certificate checks less: only the file's own
definitions (that the invariant written there is inductive for the
transition relation written there), never that they are the model's, nor
the policy facts.`,
		Examples: []string{
			"vigil cert check safe.cert.json",
			"vigil cert check safe.cert.json --spec model.spec -D L=20",
			"vigil cert check unsafe.cert.json --json",
			"vigil verify specs/flappy.spec --engine bfs --cert reach.json.gz; vigil cert check reach.json.gz",
		},
		Run: certCheck,
	})
}

func certCheck(e *env, args []string) int {
	c := commands["cert check"]
	fs := newFlags(e, c)
	spec := fs.String("spec", "", "model file to check against (default: the certificate's spec)")
	plaja := addPlajaFlags(fs)
	defs := defines{}
	fs.Var(defs, "D", "a constant: -D `NAME=VALUE` (repeatable); refused unless the certificate was made with the same value")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 {
		fmt.Fprintf(e.stderr, "vigil cert check: want one certificate file, got %d\nusage: %s\n", len(rest), c.Usage)
		return exitUsage
	}
	path := rest[0]

	res := &verify.SafetyCheck{}
	finish := func(err error, how certHow) int {
		res.Finish(err)
		return certFinish(e, *asJSON, res, res.Checked, res.Error, err == nil, how)
	}

	if invcert.IsCertificate(path) {
		return invariantCheck(e, path, *spec, plaja, defs, *asJSON)
	}
	f, err := os.Open(path)
	if err != nil {
		return finish(err, certInput)
	}
	ct, err := cert.Read(f)
	f.Close()
	if err != nil {
		return finish(fmt.Errorf("%s: %s", path, verify.CertMessage(err)), certAnswer)
	}
	res = verify.NewSafetyCheck(ct)

	// The model as the certificate's writer loaded it, unless flags say otherwise.
	rec := certRecord{spec: ct.Spec, dir: ct.CertDir, defines: ct.Defines, property: ct.Property, policy: ct.Policy}
	if ct.Plaja != nil {
		rec.start, rec.unsafe, rec.policyFile = ct.Plaja.Start, ct.Plaja.Unsafe, ct.Plaja.PolicyFile
	}
	wantPolicy := func(string) bool { // with radius inf the tested policy plays no part, except in an invariant
		return ct.Radius != cert.Inf || (ct.Kind == cert.Invariant && ct.Policy != "")
	}
	q, how, err := rec.question(e, path, *spec, plaja, defs, &ct.Model, wantPolicy, ct.PolicySHA256, certReported)
	if err != nil {
		return finish(err, how)
	}
	m, prop, pol, chk := q.m, q.prop, q.pol, q.chk
	if pol == nil && ct.Policy != "" {
		chk.Policy, chk.PolicyUnused = ct.Policy, true
		chk.NonASCII = append(chk.NonASCII, verify.NonASCII(ct.Policy)...)
	}
	res.Checked = chk
	rep, err := cert.Check(m, prop, pol, ct)
	res.States, res.Starts = rep.States, rep.Starts
	if err != nil {
		return finish(err, certAnswer)
	}
	if !*asJSON {
		fmt.Fprintln(e.stdout, verify.ValidSafetyLine(m, prop, pol, ct, rep))
	}
	return finish(nil, certAnswer)
}

// certHow says where cert check prints a failure.
type certHow int

const (
	certAnswer   certHow = iota // valid or invalid: print on stdout
	certInput                   // an input problem, not the certificate's fault: print on stderr
	certReported                // already on stderr (printed by the loaders)
)

// certFinish prints the result of cert check (res as JSON, or text: an
// invalid certificate is the answer, on stdout; input problems go to
// stderr unless already printed there) and returns the exit code.
func certFinish(e *env, asJSON bool, res any, chk *verify.Checked, msg string, valid bool, how certHow) int {
	switch {
	case asJSON:
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	case valid:
		if chk != nil {
			chk.WriteText(e.stdout)
		}
	case how == certReported:
	case how == certInput:
		fmt.Fprintf(e.stderr, "vigil cert check: %s\n", msg)
	default:
		fmt.Fprintf(e.stdout, "invalid: %s\n", msg)
		if chk != nil {
			chk.WriteText(e.stdout)
		}
	}
	if !valid {
		return exitError
	}
	return exitOK
}

// certRecord is what a certificate records of the question it answers.
type certRecord struct {
	spec                      string
	dir                       string // where the certificate was written ("" in older ones)
	defines                   map[string]string
	property, policy          string
	start, unsafe, policyFile string // PlaJA files
}

// load loads the model a certificate at path names: its spec (unless
// --spec overrides it) with its defines and PlaJA files, each path tried
// from the current directory and then from the certificate's. -D flags
// must agree with the defines the certificate records: the caller checks
// them with compareDefines first.
// It returns the model, what it was loaded from (chk), and the property
// and policy names after the PlaJA files are attached. On failure, input
// tells whether the error is yet to be printed (true) or the loaders
// have printed it.
func (r certRecord) load(e *env, path, spec string, plaja *plajaFlags, defs defines) (m *symbolic.Model, chk *verify.Checked, prop, pol string, input bool, err error) {
	model := spec
	if model == "" {
		if r.spec == "" {
			return nil, nil, "", "", true, fmt.Errorf("%s names no spec; give the model with --spec", invcert.Quote(path))
		}
		if model, err = locate("model", r.spec, path, r.dir); err != nil {
			return nil, nil, "", "", true, err
		}
	}
	merged := defines{}
	for k, v := range r.defines {
		merged[k] = v
	}
	chk = &verify.Checked{ModelFile: model, Defines: merged, DefinesFrom: "none"}
	if len(merged) > 0 {
		chk.DefinesFrom = "certificate"
	}
	for _, p := range []struct {
		what     string
		flag     *string
		recorded string
	}{{"start", plaja.start, r.start}, {"unsafe", plaja.unsafe, r.unsafe}, {"policy", plaja.policyFile, r.policyFile}} {
		if *p.flag == "" && p.recorded != "" {
			if *p.flag, err = locate(p.what, p.recorded, path, r.dir); err != nil {
				return nil, chk, "", "", true, err
			}
		}
	}
	chk.StartFile, chk.UnsafeFile, chk.PolicyFile = *plaja.start, *plaja.unsafe, *plaja.policyFile
	if m = loadModel(e, model, merged); m == nil {
		return nil, chk, "", "", false, fmt.Errorf("cannot load model %s", invcert.Quote(model))
	}
	prop, pol = r.property, r.policy
	if !plaja.apply(e, m, &prop, &pol) {
		return nil, chk, "", "", false, fmt.Errorf("cannot attach the PlaJA files to model %s", invcert.Quote(model))
	}
	return m, chk, prop, pol, false, nil
}

// certQuestion is the question a certificate answers, loaded: the model
// with the property and policy it names, and what they were loaded from.
type certQuestion struct {
	m    *symbolic.Model
	prop *symbolic.Property
	pol  *symbolic.PolicyDecl // nil when the claim does not depend on one
	chk  *verify.Checked
}

// question is the part of cert check that every kind of certificate
// shares: it compares the -D flags with the recorded defines, loads the
// model (load), checks the recorded names (the model's when modelName is
// not nil, the property's and the policy's), selects the property and,
// when wantPolicy says the claim depends on it, the policy, and describes
// what the certificate is checked against (policyHash is the recorded
// hash of the policy's files). On failure it returns the error and where
// certFinish prints it; a failure the loaders printed already gets
// reported.
func (r certRecord) question(e *env, path, spec string, plaja *plajaFlags, defs defines, modelName *string, wantPolicy func(polName string) bool, policyHash string, reported certHow) (*certQuestion, certHow, error) {
	if err := verify.CompareDefines(path, r.defines, defs); err != nil {
		return nil, certAnswer, err
	}
	m, chk, propName, polName, input, err := r.load(e, path, spec, plaja, defs)
	if err != nil {
		if input {
			return nil, certInput, err
		}
		return nil, reported, err
	}
	model := chk.ModelFile
	props, pols := verify.ModelNames(m)
	if modelName != nil {
		if err := verify.PlainName(path, "model", *modelName, []string{m.Name}); err != nil {
			return nil, certAnswer, err
		}
	}
	if err := verify.PlainName(path, "property", propName, props); err != nil {
		return nil, certAnswer, err
	}
	if err := verify.PlainName(path, "policy", polName, pols); err != nil {
		return nil, certAnswer, err
	}
	prop, ok := selectProperty(e, "cert check", m, propName, true)
	if !ok {
		return nil, reported, fmt.Errorf("model %s: no property %q", model, propName)
	}
	var pol *symbolic.PolicyDecl
	if wantPolicy(polName) {
		if pol, ok = selectPolicy(e, "cert check", m, polName, false); !ok {
			return nil, reported, fmt.Errorf("model %s: no policy %q", model, polName)
		}
	}
	if err := chk.Describe(m, prop, pol, policyHash); err != nil {
		return nil, certInput, err
	}
	return &certQuestion{m: m, prop: prop, pol: pol, chk: chk}, certAnswer, nil
}
