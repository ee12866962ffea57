package main

import (
	"fmt"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/verify"
)

// invariantCheck is vigil cert check on an invariant certificate.
func invariantCheck(e *env, path, spec string, plaja *plajaFlags, defs defines, asJSON bool) int {
	res := &verify.InvariantCheck{}
	finish := func(err error, how certHow) int {
		res.Finish(err)
		return certFinish(e, asJSON, res, res.Checked, res.Error, err == nil, how)
	}
	c, err := invcert.Read(path)
	if err != nil {
		return finish(err, certAnswer)
	}
	res.Boxes = len(c.Inv)
	rec := certRecord{spec: c.Model, dir: c.Dir, defines: map[string]string{}, property: c.Property, policy: c.Policy,
		start: c.StartFile, unsafe: c.UnsafeFile, policyFile: c.PolicyFile}
	for _, d := range c.Defines {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			return finish(fmt.Errorf("%s: define %+q: want NAME=VALUE", path, d), certAnswer)
		}
		rec.defines[k] = v
	}
	// A failure the loaders printed gets a line of cert check's own on
	// stderr too (certInput, not certReported): the invariant check has
	// always reported it so.
	q, how, err := rec.question(e, path, spec, plaja, defs, nil, func(polName string) bool { return polName != "" }, c.PolicyHash, certInput)
	if err != nil {
		return finish(err, how)
	}
	m, prop, pol, chk := q.m, q.prop, q.pol, q.chk
	res.Checked = chk
	ctx, cancel := runContext(0)
	defer cancel()
	if err := invcert.Check(ctx, c, m, prop, pol); err != nil {
		return finish(err, certAnswer)
	}
	chk.ModelSHA256 = c.Hash // Check compared it with the model's
	if !asJSON {
		fmt.Fprintln(e.stdout, verify.ValidInvariantLine(m, prop, pol, c))
	}
	return finish(nil, certAnswer)
}
