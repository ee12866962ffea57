package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	invcert "vigil/ic3/cert"
	"vigil/safety/cert"
	"vigil/symbolic"
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

// certResult is the --json form of a check.
type certResult struct {
	Verdict string    `json:"verdict"` // valid or invalid
	Valid   bool      `json:"valid"`
	Kind    cert.Kind `json:"kind,omitempty"`
	Radius  any       `json:"radius,omitempty"` // "inf" or an integer
	Entries int       `json:"entries"`
	States  int       `json:"states"`
	Starts  int       `json:"start_states,omitempty"` // invariant certificates`
	Error   string    `json:"error,omitempty"`
	// Checked is what the certificate was checked against (absent when
	// the model could not be loaded).
	Checked *checked `json:"checked,omitempty"`
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

	res := certResult{}
	finish := func(err error, how certHow) int { return res.finish(e, *asJSON, err, how) }

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
		return finish(fmt.Errorf("%s: %s", path, certMessage(err)), certAnswer)
	}
	res.Kind, res.Entries = ct.Kind, len(ct.Entries)
	if ct.Radius == cert.Inf {
		res.Radius = "inf"
	} else {
		res.Radius = ct.Radius
	}

	// The model as the certificate's writer loaded it, unless flags say otherwise.
	rec := certRecord{spec: ct.Spec, dir: ct.CertDir, defines: ct.Defines, property: ct.Property, policy: ct.Policy}
	if ct.Plaja != nil {
		rec.start, rec.unsafe, rec.policyFile = ct.Plaja.Start, ct.Plaja.Unsafe, ct.Plaja.PolicyFile
	}
	if err := compareDefines(path, rec.defines, defs); err != nil {
		return finish(err, certAnswer)
	}
	m, chk, propName, polName, how, err := rec.load(e, path, *spec, plaja, defs)
	if err != nil {
		return finish(err, map[bool]certHow{true: certInput, false: certReported}[how])
	}
	model := chk.ModelFile
	props, pols := modelNames(m)
	if err := plainName(path, "model", ct.Model, []string{m.Name}); err != nil {
		return finish(err, certAnswer)
	}
	if err := plainName(path, "property", propName, props); err != nil {
		return finish(err, certAnswer)
	}
	if err := plainName(path, "policy", polName, pols); err != nil {
		return finish(err, certAnswer)
	}
	prop, ok := selectProperty(e, "cert check", m, propName, true)
	if !ok {
		return finish(fmt.Errorf("model %s: no property %q", model, propName), certReported)
	}
	var pol *symbolic.PolicyDecl
	if ct.Radius != cert.Inf || (ct.Kind == cert.Invariant && ct.Policy != "") { // with radius inf the tested policy plays no part, except in an invariant
		if pol, ok = selectPolicy(e, "cert check", m, polName, false); !ok {
			return finish(fmt.Errorf("model %s: no policy %q", model, polName), certReported)
		}
	}

	if err := chk.describe(m, prop, pol, ct.PolicySHA256); err != nil {
		return finish(err, certInput)
	}
	if pol == nil && ct.Policy != "" {
		chk.Policy, chk.PolicyUnused = ct.Policy, true
		chk.NonASCII = append(chk.NonASCII, nonASCII(ct.Policy)...)
	}
	res.Checked = chk
	rep, err := cert.Check(m, prop, pol, ct)
	res.States, res.Starts = rep.States, rep.Starts
	if err != nil {
		return finish(err, certAnswer)
	}
	if !*asJSON {
		printValidCert(e, m, prop, pol, ct, rep)
	}
	return finish(nil, certAnswer)
}

// printValidCert says what a valid certificate proves and how much the
// check covered.
func printValidCert(e *env, m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, ct *cert.Certificate, rep cert.Report) {
	about := fmt.Sprintf("model %s, property %s", invcert.Quote(m.Name), invcert.Quote(prop.Name))
	if pol != nil {
		about += ", policy " + invcert.Quote(pol.Name)
	}
	if ct.Kind == cert.Invariant {
		fmt.Fprintf(e.stdout, "valid: invariant certificate (reachable states) for %s: %s, holding every start state (%d); closed under the %s with no unsafe state or range error (%d successors checked)\n",
			about, plural(rep.States, "state"), rep.Starts, map[bool]string{true: "policy's choices", false: "successors of every label"}[pol != nil], rep.Successors)
	} else if ct.Kind == cert.Starts {
		of := "the property's start states, too many to count"
		if rep.Starts >= 0 {
			of = fmt.Sprintf("the property's %s", plural(rep.Starts, "start state"))
		}
		fmt.Fprintf(e.stdout, "valid: certificate for start states (%s, radius %s): %d %s, %d not, of %s; %d entries, %d states, %d successors checked\n",
			about, cert.RadiusString(ct.Radius), len(ct.SafeStates), radiusWords(cert.RadiusString(ct.Radius)), len(ct.UnsafeStates), of, rep.Entries, rep.States, rep.Successors)
	} else {
		fmt.Fprintf(e.stdout, "valid: %s certificate for %s (%s, radius %s): %d entries, %d states, %d successors checked\n",
			ct.Kind, m.FormatState(ct.State), about, cert.RadiusString(ct.Radius), rep.Entries, rep.States, rep.Successors)
	}
}

// certHow says where cert check prints a failure.
type certHow int

const (
	certAnswer   certHow = iota // valid or invalid: print on stdout
	certInput                   // an input problem, not the certificate's fault: print on stderr
	certReported                // already on stderr (printed by the loaders)
)

// finish prints the result of cert check (JSON, or text: an invalid
// certificate is the answer, on stdout; input problems go to stderr
// unless already printed there) and returns the exit code.
func (res *certResult) finish(e *env, asJSON bool, err error, how certHow) int {
	res.Valid, res.Verdict = err == nil, "valid"
	if err != nil {
		res.Verdict = "invalid"
		res.Error = certMessage(err)
	}
	switch {
	case asJSON:
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	case err == nil:
		if res.Checked != nil {
			res.Checked.print(e.stdout)
		}
	case how == certReported:
	case how == certInput:
		fmt.Fprintf(e.stderr, "vigil cert check: %s\n", res.Error)
	default:
		fmt.Fprintf(e.stdout, "invalid: %s\n", res.Error)
		if res.Checked != nil {
			res.Checked.print(e.stdout)
		}
	}
	if err != nil {
		return exitError
	}
	return exitOK
}

// certMessage is err as cert check prints it: a certificate's error
// without the package prefix (the command names the certificate), any
// other error as it is.
func certMessage(err error) string {
	if ce, ok := errors.AsType[*cert.Error](err); ok {
		return ce.Msg
	}
	return err.Error()
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
func (r certRecord) load(e *env, path, spec string, plaja *plajaFlags, defs defines) (m *symbolic.Model, chk *checked, prop, pol string, input bool, err error) {
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
	chk = &checked{ModelFile: model, Defines: merged, DefinesFrom: "none"}
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
