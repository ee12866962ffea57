// Package certfile checks a certificate file against the model it names:
// vigil cert check as a library. A certificate (a safety certificate of
// package safety/cert, JSON; or an invariant certificate of package
// ic3/cert, SMT-LIB2) records the question it answers: the model file with
// its -D values, the PlaJA files, the property and the policy, and the
// hash of the policy's files. Check reads the certificate, finds those
// files (internal/certpath: beside the certificate, then where it was
// written), loads them with package load, refuses -D values and names
// that the certificate does not vouch for, and runs the certificate's
// own checker (safety/cert.Check, ic3/cert.Check) — never an engine.
//
// Check returns a Result, never prints: the JSON report and the text a
// caller writes (package verify's SafetyCheck, InvariantCheck, Checked),
// with the loader's diagnostics and messages and what kind of failure it
// was.
package certfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/internal/certpath"
	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/load"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/verify"
)

// Options override what a certificate records.
type Options struct {
	// Spec is the model file to check against instead of the
	// certificate's (--spec).
	Spec string
	// Files replace the PlaJA files the certificate records, each one
	// that is given (--start, --unsafe, --policy-file); their ArgMax
	// (--argmax) must be the reading the certificate records, if any: the
	// recorded one is applied to the policy either way.
	load.Files
	// Defines are -D values; they must be the ones the certificate
	// records: a certificate proves its claim for those only.
	Defines map[string]string
}

// Fault says what kind of failure a Result's Err is.
type Fault uint8

const (
	// Invalid: the certificate does not hold, cannot be read, or names
	// what it may not (the answer of the check).
	Invalid Fault = iota
	// Input: a problem of the input, not the certificate's fault (a file
	// that is not found, a policy file that cannot be hashed).
	Input
	// Loading: the model or the PlaJA files did not load, or the
	// property or policy cannot be selected; LoadErr (with Diagnostics)
	// says why, and Err only sums it up.
	Loading
	// Stopped: the check's context ended (Ctrl-C, SIGTERM, a timeout)
	// before a verdict: the certificate is neither valid nor invalid.
	// Result.Stop says why; Err wraps the context's cause.
	Stopped
	// Inconclusive: Z3 answered unknown on one of an invariant
	// certificate's conditions (an *invcert.Inconclusive: a resource
	// limit, an incomplete theory) while the check's context had not
	// ended: the certificate could not be checked, it is neither valid
	// nor invalid. Msg says so and names the condition and Z3's reason.
	Inconclusive
)

// Result is the outcome of checking one certificate file.
type Result struct {
	// Report is the JSON form of the check: a *verify.SafetyCheck or a
	// *verify.InvariantCheck.
	Report any
	// Checked is what the certificate was checked against (nil when the
	// model was not loaded).
	Checked *verify.Checked
	// Valid is the line that says what a valid certificate proves ("" when
	// it is not valid).
	Valid string
	// Diagnostics and Messages are the loader's: the model file's
	// diagnostics, and the warnings and notes of its PlaJA files.
	Diagnostics lang.Diagnostics
	Messages    []load.Message
	// LoadErr is the loader's error when the model, its files, its
	// property or its policy did not load (a *load.DiagnosticsError,
	// *load.FilesError or *load.NameError).
	LoadErr error
	// Err is nil when the certificate is valid; Msg is its text as the
	// report gives it.
	Err   error
	Msg   string
	Fault Fault
	// Stop is why a Stopped check stopped: "interrupted" or "timeout"
	// (phrase.StopReason).
	Stop string
}

// stopped makes r the result of a check that ctx stopped before a
// verdict, err being what the check returned: the report's verdict is
// unknown, with the reason and no error or failed condition.
func (r *Result) stopped(ctx context.Context, err error) *Result {
	r.Err, r.Fault, r.Stop = err, Stopped, phrase.StopReason(ctx)
	r.Msg = phrase.Stopped(r.Stop) + " before a verdict"
	r.Valid = ""
	switch rep := r.Report.(type) {
	case *verify.InvariantCheck:
		rep.Verdict, rep.Valid, rep.Reason, rep.Error, rep.Condition = "unknown", false, r.Stop, "", ""
	case *verify.SafetyCheck:
		rep.Verdict, rep.Valid, rep.Reason, rep.Error = "unknown", false, r.Stop, ""
	}
	return r
}

// Check checks the certificate file at path against the model it names.
// When ctx ends before a verdict (an invariant certificate's SMT queries
// and policy facts heed it; a safety certificate's check is given up), the
// Result's Fault is Stopped: no verdict.
func Check(ctx context.Context, path string, opts Options) *Result {
	if invcert.IsCertificate(path) {
		return checkInvariant(ctx, path, opts)
	}
	return checkSafety(ctx, path, opts)
}

// checkSafety checks a safety certificate (package safety/cert).
func checkSafety(ctx context.Context, path string, opts Options) *Result {
	r := &Result{}
	rep := &verify.SafetyCheck{}
	finish := func(err error, f Fault) *Result {
		rep.Finish(err)
		r.Report, r.Checked, r.Err, r.Msg, r.Fault = rep, rep.Checked, err, rep.Error, f
		return r
	}
	f, err := os.Open(path)
	if err != nil {
		return finish(err, Input)
	}
	ct, err := cert.ReadContext(ctx, f)
	f.Close()
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err := fmt.Errorf("%w", context.Cause(ctx))
		return finish(err, Invalid).stopped(ctx, err)
	}
	if err != nil && cert.IsTooMuchHeld(err) {
		// The entries passed the memory bound (--max-entry-memory): a
		// limit of the checker's, no verdict on the certificate.
		r := finish(fmt.Errorf("%s: %s", path, verify.CertMessage(err)), Inconclusive)
		r.Msg = "the certificate could not be checked: " + r.Msg
		rep.Verdict, rep.Valid, rep.Reason, rep.Error = "unknown", false, "inconclusive", r.Msg
		return r
	}
	if err != nil {
		return finish(fmt.Errorf("%s: %s", path, verify.CertMessage(err)), Invalid)
	}
	rep = verify.NewSafetyCheck(ct)

	rec := record{spec: ct.Spec, dir: ct.CertDir, defines: ct.Defines, model: &ct.Model, property: ct.Property, policy: ct.Policy,
		argmax: ct.ArgMax, policyHash: ct.PolicySHA256, loadFault: Loading}
	if ct.Plaja != nil {
		rec.files = load.Files{Start: ct.Plaja.Start, Unsafe: ct.Plaja.Unsafe, PolicyFile: ct.Plaja.PolicyFile}
	}
	// With radius inf the tested policy plays no part, except in an
	// invariant.
	q, fault, err := rec.question(r, path, opts, func(string) bool { return ct.UsesPolicy() })
	if err != nil {
		return finish(err, fault)
	}
	if q.pol == nil && ct.Policy != "" {
		q.chk.Policy, q.chk.PolicyUnused = ct.Policy, true
		q.chk.NonASCII = append(q.chk.NonASCII, verify.NonASCII(ct.Policy)...)
	}
	rep.Checked = q.chk
	if fault, err := modelHash(ct, q); err != nil {
		return finish(err, fault)
	}
	// safety/cert's check does not poll a context: it runs on a
	// goroutine of its own, given up (left to finish unseen) when ctx
	// ends first.
	type outcome struct {
		rep cert.Report
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		crep, err := cert.Check(q.m, q.prop, q.pol, ct)
		done <- outcome{crep, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		select {
		case o = <-done: // it ended too: its answer stands
		default:
			err := fmt.Errorf("%w", context.Cause(ctx))
			return finish(err, Invalid).stopped(ctx, err)
		}
	}
	crep, err := o.rep, o.err
	rep.States, rep.Starts = crep.States, crep.Starts
	if err != nil && cert.IsTooMuchStartWork(err) {
		// The start set passed the checker's enumeration bound
		// (cert.MaxStartWork): a limit of the checker's, no verdict on
		// the certificate, as --max-entry-memory's.
		r := finish(err, Inconclusive)
		r.Msg = "the certificate could not be checked: " + r.Msg
		rep.Verdict, rep.Valid, rep.Reason, rep.Error = "unknown", false, "inconclusive", r.Msg
		return r
	}
	if err != nil {
		return finish(err, Invalid)
	}
	r.Valid = verify.ValidSafetyLine(q.m, q.prop, q.pol, ct, crep)
	return finish(nil, Invalid)
}

// checkInvariant checks an invariant certificate (package ic3/cert).
func checkInvariant(ctx context.Context, path string, opts Options) *Result {
	r := &Result{}
	rep := &verify.InvariantCheck{}
	finish := func(err error, f Fault) *Result {
		rep.Finish(err)
		r.Report, r.Checked, r.Err, r.Msg, r.Fault = rep, rep.Checked, err, rep.Error, f
		return r
	}
	c, err := invcert.Read(path)
	if err != nil {
		return finish(err, Invalid)
	}
	rep.Boxes = len(c.Inv)
	// A load failure is an Input fault here, with a line of its own after
	// the loader's: the invariant check has always reported it so.
	rec := record{spec: c.Model, dir: c.Dir, defines: map[string]string{}, property: c.Property, policy: c.Policy,
		files: load.Files{Start: c.StartFile, Unsafe: c.UnsafeFile, PolicyFile: c.PolicyFile}, argmax: c.ArgMax, policyHash: c.PolicyHash, loadFault: Input}
	for _, d := range c.Defines {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			return finish(fmt.Errorf("%s: define %+q: want NAME=VALUE", path, d), Invalid)
		}
		rec.defines[k] = v
	}
	q, fault, err := rec.question(r, path, opts, func(polName string) bool { return polName != "" })
	if err != nil {
		return finish(err, fault)
	}
	rep.Checked = q.chk
	if err := invcert.Check(ctx, c, q.m, q.prop, q.pol); err != nil {
		if _, failed := errors.AsType[*invcert.Failure](err); !failed && ctx.Err() != nil {
			// The check stopped (an SMT query interrupted, a parse given
			// up, a policy fact left unchecked): no verdict.
			return finish(err, Invalid).stopped(ctx, err)
		}
		if u, ok := errors.AsType[*invcert.Inconclusive](err); ok {
			// Z3 could not decide a condition: no verdict either.
			r := finish(err, Inconclusive)
			r.Msg = "the certificate could not be checked: " + u.Message()
			rep.Verdict, rep.Valid, rep.Reason, rep.Error, rep.Condition = "unknown", false, "inconclusive", r.Msg, ""
			return r
		}
		if rerr := readingChanged("model-sha256", c.Hash, q, q.pol); rerr != nil {
			err = rerr
		}
		return finish(err, Invalid)
	}
	q.chk.ModelSHA256 = c.Hash // Check compared it with the model's
	r.Valid = verify.ValidInvariantLine(q.m, q.prop, q.pol, c)
	return finish(nil, Invalid)
}

// record is what a certificate records of the question it answers.
type record struct {
	spec     string
	dir      string // where the certificate was written ("" in older ones)
	defines  map[string]string
	model    *string // the model's name, when the certificate records it
	property string
	policy   string
	files    load.Files
	// argmax is the --argmax the certificate was made with ("" when none).
	argmax string
	// policyHash is the recorded hash of the policy's files.
	policyHash string
	// loadFault is the Fault of a failure to load.
	loadFault Fault
}

// question is the question a certificate answers, loaded: the model with
// the property and policy it names, and what they were loaded from.
type question struct {
	m    *symbolic.Model
	prop *symbolic.Property
	pol  *symbolic.PolicyDecl // nil when the claim does not depend on one
	chk  *verify.Checked
}

// question is the part of the check that every kind of certificate
// shares: it compares the -D values with the recorded defines, loads the
// model (load), checks the recorded names (the model's when recorded, the
// property's and the policy's), selects the property and, when
// wantPolicy says the claim depends on it, the policy, and describes what
// the certificate is checked against. The loader's diagnostics, messages
// and error go to r.
func (rec record) question(r *Result, path string, opts Options, wantPolicy func(polName string) bool) (*question, Fault, error) {
	if err := verify.CompareDefines(path, rec.defines, opts.Defines); err != nil {
		return nil, Invalid, err
	}
	argmax, err := compareArgMax(path, rec.argmax, opts.ArgMax)
	if err != nil {
		return nil, Invalid, err
	}
	opts.ArgMax = argmax // a policy file stands in under the recorded reading
	m, chk, propName, polName, fault, err := rec.load(r, path, opts)
	if err != nil {
		return nil, fault, err
	}
	props, pols := verify.ModelNames(m)
	if rec.model != nil {
		if err := verify.PlainName(path, "model", *rec.model, []string{m.Name}); err != nil {
			return nil, Invalid, err
		}
	}
	if err := verify.PlainName(path, "property", propName, props); err != nil {
		return nil, Invalid, err
	}
	if err := verify.PlainName(path, "policy", polName, pols); err != nil {
		return nil, Invalid, err
	}
	prop, err := load.SelectProperty(m, propName, true)
	if err != nil {
		r.LoadErr = err
		return nil, rec.loadFault, fmt.Errorf("model %s: no property %q", chk.ModelFile, propName)
	}
	var pol *symbolic.PolicyDecl
	if wantPolicy(polName) {
		if pol, err = load.SelectPolicy(m, polName, false); err != nil {
			r.LoadErr = err
			return nil, rec.loadFault, fmt.Errorf("model %s: no policy %q", chk.ModelFile, polName)
		}
		if r.Messages, err = load.ApplyArgMax(pol, argmax, r.Messages); err != nil {
			return nil, Invalid, fmt.Errorf("%s records %v", invcert.Quote(path), err)
		}
		chk.ArgMax, chk.ArgMaxRecorded = load.ReadingOf(pol), argmax != load.ArgMaxDeclared
	} else if d := m.Policy(polName); d != nil && polName != "" && load.ReadingOf(d) != "" {
		// The claim does not depend on the policy, but the model the
		// certificate's hash covers was printed with the recorded reading.
		_ = load.SetArgMax(d, argmax) // a learned policy takes either reading
	}
	if err := chk.Describe(m, prop, pol, rec.policyHash); err != nil {
		return nil, Input, err
	}
	return &question{m: m, prop: prop, pol: pol, chk: chk}, Invalid, nil
}

// load loads the model the certificate at path names: its spec (unless
// opts.Spec overrides it) with its defines and PlaJA files (unless opts
// gives others), each found by locate. It returns the model, what it was
// loaded from (chk), and the property and policy names after the PlaJA
// files are attached.
func (rec record) load(r *Result, path string, opts Options) (m *symbolic.Model, chk *verify.Checked, prop, pol string, fault Fault, err error) {
	model := opts.Spec
	if model == "" {
		if rec.spec == "" {
			return nil, nil, "", "", Input, fmt.Errorf("%s names no spec; give the model with --spec", invcert.Quote(path))
		}
		if model, err = locate("model", rec.spec, path, rec.dir); err != nil {
			return nil, nil, "", "", Input, err
		}
	}
	merged := map[string]string{}
	for k, v := range rec.defines {
		merged[k] = v
	}
	chk = &verify.Checked{ModelFile: model, Defines: merged, DefinesFrom: "none"}
	if len(merged) > 0 {
		chk.DefinesFrom = "certificate"
	}
	files := opts.Files
	for _, p := range []struct {
		what     string
		given    *string
		recorded string
	}{{"start", &files.Start, rec.files.Start}, {"unsafe", &files.Unsafe, rec.files.Unsafe}, {"policy", &files.PolicyFile, rec.files.PolicyFile}} {
		if *p.given == "" && p.recorded != "" {
			if *p.given, err = locate(p.what, p.recorded, path, rec.dir); err != nil {
				return nil, chk, "", "", Input, err
			}
		}
	}
	chk.StartFile, chk.UnsafeFile, chk.PolicyFile = files.Start, files.Unsafe, files.PolicyFile
	m, r.Diagnostics = load.Model(model, merged)
	if m == nil {
		r.LoadErr = &load.DiagnosticsError{Diagnostics: r.Diagnostics}
		return nil, chk, "", "", rec.loadFault, fmt.Errorf("cannot load model %s", invcert.Quote(model))
	}
	prop, pol = rec.property, rec.policy
	msgs, err := load.Attach(m, files, &prop, &pol)
	r.Messages = append(r.Messages, msgs...)
	if err != nil {
		r.LoadErr = err
		return nil, chk, "", "", rec.loadFault, fmt.Errorf("cannot attach the PlaJA files to model %s", invcert.Quote(model))
	}
	return m, chk, prop, pol, Invalid, nil
}

// locate finds a file a certificate at certPath records (certpath.Locate),
// or says every place it looked and the flag that gives the file.
func locate(what, recorded, certPath, written string) (string, error) {
	p, err := certpath.Locate(what, recorded, certPath, written)
	nf, ok := errors.AsType[*certpath.NotFoundError](err)
	if !ok {
		return p, err
	}
	var looked []string
	for _, t := range nf.Looked {
		looked = append(looked, fmt.Sprintf("%s (%s)", invcert.Quote(t.Path), t.Why))
	}
	flag := map[string]string{"start": "--start", "unsafe": "--unsafe", "policy": "--policy-file"}[what]
	if flag == "" {
		flag = "--spec"
	}
	return "", fmt.Errorf("%s records %s file %s, which is not found: looked for %s; give it with %s",
		invcert.Quote(certPath), what, invcert.Quote(recorded), strings.Join(looked, " and "), flag)
}

// compareArgMax returns the reading the certificate at path records
// (recorded, "" for none) after refusing a given --argmax that differs
// from it: a certificate proves its claim for the reading it was made
// with, as for its -D values.
func compareArgMax(path, recorded string, given load.ArgMax) (load.ArgMax, error) {
	rec, err := load.ParseArgMax(recorded)
	if err != nil {
		return "", fmt.Errorf("%s records %v", invcert.Quote(path), err)
	}
	switch {
	case given == load.ArgMaxDeclared || given == rec:
		return rec, nil
	case rec == load.ArgMaxDeclared:
		return "", fmt.Errorf("%s was made without --argmax (the policy read as declared); it proves nothing about %s: drop the flag, or make a certificate with it",
			invcert.Quote(path), given.Flag())
	}
	return "", fmt.Errorf("%s was made with %s; it proves nothing about %s: drop the flag, or make a certificate with it",
		invcert.Quote(path), rec.Flag(), given.Flag())
}

// modelHash compares the model hash a safety certificate ct records with
// that of q's model (Certificate.HashPolicy's policy), before the closure
// check, which would otherwise fail at some state of a model that is not
// the certificate's. A certificate made for other policy files is left to
// cert.Check, which names them; one without a hash (older ones) is
// checked without it, as the report notes: its check re-derives the
// claim from the model as loaded, so the hash only binds the question.
func modelHash(ct *cert.Certificate, q *question) (Fault, error) {
	if ct.ModelSHA256 == "" {
		q.chk.ModelHashUnrecorded = true
		return Invalid, nil
	}
	loaded, err := invcert.ModelHash(q.m, q.prop.Name, ct.HashPolicy())
	if err != nil {
		return Input, err
	}
	if loaded == ct.ModelSHA256 {
		q.chk.ModelSHA256 = loaded
		return Invalid, nil
	}
	if m := q.chk.PolicyHashMatches; q.pol != nil && m != nil && !*m {
		return Invalid, nil // cert.Check refuses the policy files first
	}
	if err := readingChanged("model_sha256", ct.ModelSHA256, q, q.pol); err != nil {
		return Invalid, err
	}
	return Invalid, fmt.Errorf("the certificate does not belong to this model: its model_sha256 is %.12s..., the model loaded is %.12s... (was the model or the policy changed?); check it against the model it was made with, or make a certificate for this one",
		ct.ModelSHA256, loaded)
}

// readingChanged explains a certificate whose recorded model hash (hash,
// in its field named field) does not match q's model only because d, q's learned policy, reads its
// arg-max the other way (its argmax line or its interface's "filter"
// changed since the certificate was made): it returns the error that says
// so, or nil when the model hash differs otherwise, or not at all.
func readingChanged(field, hash string, q *question, d *symbolic.PolicyDecl) error {
	if load.ReadingOf(d) == "" {
		return nil
	}
	loaded, err := invcert.ModelHash(q.m, q.prop.Name, d.Name)
	if err != nil || loaded == hash {
		return nil
	}
	now := load.ReadingOf(d)
	d.ArgMaxAll = !d.ArgMaxAll
	h, err := invcert.ModelHash(q.m, q.prop.Name, d.Name)
	made := load.ReadingOf(d)
	d.ArgMaxAll = !d.ArgMaxAll
	if err != nil || h != hash {
		return nil
	}
	return fmt.Errorf("the certificate does not belong to this model: its %s is %.12s..., the model loaded is %.12s...: it was made with policy %s read argmax %s, and the model as loaded reads it argmax %s (its argmax line, its PlaJA interface's \"filter\" or the --argmax the certificate records differ); it proves nothing about argmax %s: check it against the model it was made with, or make a certificate for this reading",
		field, hash, loaded, invcert.Quote(d.Name), made, now, now)
}
