package main

import (
	"fmt"
	"strings"
	"vigil/verify"

	invcert "vigil/ic3/cert"
	"vigil/symbolic"
)

// invariantCheck is vigil cert check on an invariant certificate.
func invariantCheck(e *env, path, spec string, plaja *plajaFlags, defs defines, asJSON bool) int {
	res := &verify.InvariantCheck{}
	finish := func(err error, answer bool) int {
		res.Finish(err)
		how := certAnswer
		if !answer {
			how = certInput
		}
		return certFinish(e, asJSON, res, res.Checked, res.Error, err == nil, how)
	}
	c, err := invcert.Read(path)
	if err != nil {
		return finish(err, true)
	}
	res.Boxes = len(c.Inv)
	rec := certRecord{spec: c.Model, dir: c.Dir, defines: map[string]string{}, property: c.Property, policy: c.Policy,
		start: c.StartFile, unsafe: c.UnsafeFile, policyFile: c.PolicyFile}
	for _, d := range c.Defines {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			return finish(fmt.Errorf("%s: define %+q: want NAME=VALUE", path, d), true)
		}
		rec.defines[k] = v
	}
	if err := verify.CompareDefines(path, rec.defines, defs); err != nil {
		return finish(err, true)
	}
	m, chk, propName, polName, _, err := rec.load(e, path, spec, plaja, defs)
	if err != nil {
		return finish(err, false)
	}
	model := chk.ModelFile
	props, pols := verify.ModelNames(m)
	if err := verify.PlainName(path, "property", propName, props); err != nil {
		return finish(err, true)
	}
	if err := verify.PlainName(path, "policy", polName, pols); err != nil {
		return finish(err, true)
	}
	prop, ok := selectProperty(e, "cert check", m, propName, true)
	if !ok {
		return finish(fmt.Errorf("model %s: no property %q", model, propName), false)
	}
	var pol *symbolic.PolicyDecl
	if polName != "" {
		if pol, ok = selectPolicy(e, "cert check", m, polName, false); !ok {
			return finish(fmt.Errorf("model %s: no policy %q", model, polName), false)
		}
	}
	if err := chk.Describe(m, prop, pol, c.PolicyHash); err != nil {
		return finish(err, false)
	}
	res.Checked = chk
	ctx, cancel := runContext(0)
	defer cancel()
	if err := invcert.Check(ctx, c, m, prop, pol); err != nil {
		return finish(err, true)
	}
	chk.ModelSHA256 = c.Hash // Check compared it with the model's
	if !asJSON {
		fmt.Fprintln(e.stdout, verify.ValidInvariantLine(m, prop, pol, c))
	}
	return finish(nil, true)
}
