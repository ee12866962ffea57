package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"vigil/verify"

	invcert "vigil/ic3/cert"
	"vigil/symbolic"
)

// writeInvariant writes the SMT-LIB2 certificate of c; a learned policy's
// certificate checks consecution per label, given its facts.
func writeInvariant(path string, c *invcert.Cert, m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Write(f, m, prop, decl); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// invariantCheck is vigil cert check on an invariant certificate.
func invariantCheck(e *env, path, spec string, plaja *plajaFlags, defs defines, asJSON bool) int {
	type result struct {
		Verdict   string `json:"verdict"` // valid or invalid
		Valid     bool   `json:"valid"`
		Kind      string `json:"kind"`
		Boxes     int    `json:"boxes"`
		Condition string `json:"failed_condition,omitempty"`
		Error     string `json:"error,omitempty"`
		// Checked is what the certificate was checked against (absent
		// when the model could not be loaded).
		Checked *checked `json:"checked,omitempty"`
	}
	res := result{Kind: "invariant"}
	finish := func(err error, answer bool) int {
		res.Valid, res.Verdict = err == nil, "valid"
		if err != nil {
			res.Verdict = "invalid"
			res.Error = strings.TrimPrefix(err.Error(), "cert: ")
		}
		switch {
		case asJSON:
			b, _ := json.MarshalIndent(res, "", "  ")
			fmt.Fprintln(e.stdout, string(b))
		case err == nil:
			if res.Checked != nil {
				res.Checked.print(e.stdout)
			}
		case answer:
			fmt.Fprintf(e.stdout, "invalid: %s\n", res.Error)
			if res.Checked != nil {
				res.Checked.print(e.stdout)
			}
		default:
			fmt.Fprintf(e.stderr, "vigil cert check: %s\n", res.Error)
		}
		if err != nil {
			return exitError
		}
		return exitOK
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
	if err := compareDefines(path, rec.defines, defs); err != nil {
		return finish(err, true)
	}
	m, chk, propName, polName, _, err := rec.load(e, path, spec, plaja, defs)
	if err != nil {
		return finish(err, false)
	}
	model := chk.ModelFile
	props, pols := modelNames(m)
	if err := plainName(path, "property", propName, props); err != nil {
		return finish(err, true)
	}
	if err := plainName(path, "policy", polName, pols); err != nil {
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
	if err := chk.describe(m, prop, pol, c.PolicyHash); err != nil {
		return finish(err, false)
	}
	res.Checked = chk
	ctx, cancel := runContext(0)
	defer cancel()
	if err := invcert.Check(ctx, c, m, prop, pol); err != nil {
		var f *invcert.Failure
		if errors.As(err, &f) {
			res.Condition = f.Condition
		}
		return finish(err, true)
	}
	chk.ModelSHA256 = c.Hash // Check compared it with the model's
	if !asJSON {
		about := fmt.Sprintf("model %s, property %s", invcert.Quote(m.Name), invcert.Quote(prop.Name))
		if pol != nil {
			about += ", policy " + invcert.Quote(pol.Name)
		}
		holds := "init, consecution and safety hold"
		if len(c.Facts) > 0 {
			holds = fmt.Sprintf("init, consecution, safety and %d policy facts hold", len(c.Facts))
		}
		fmt.Fprintf(e.stdout, "valid: invariant certificate for %s: %s; %s\n", about, verify.Boxes(len(c.Inv)), holds)
	}
	return finish(nil, true)
}
