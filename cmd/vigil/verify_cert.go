package main

import (
	"compress/gzip"
	"io"
	"os"
	"strings"

	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// writeReachCert writes the states bfs reached, which it proved safe, as
// an invariant certificate (package safety/cert, kind "invariant"): a set
// that holds every start state, is closed under the policy's successors
// and holds no unsafe state. vigil cert check re-checks all three by its
// own enumeration. A path ending in .gz is written gzip-compressed.
func writeReachCert(path, file string, mf *modelFlags, lm *loadedModel, res *explicit.Result) error {
	m := lm.m
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Kind: cert.Invariant,
		Spec: file, Model: m.Name, Property: lm.prop.Name, Policy: policyName(lm.decl), Radius: cert.Inf}
	if len(mf.defs) > 0 {
		c.Defines = map[string]string(mf.defs)
	}
	var err error
	if lm.decl != nil {
		if c.PolicySHA256, err = symbolic.PolicyFilesHash(lm.decl); err != nil {
			return err
		}
	}
	pl := cert.Plaja{Start: *mf.plaja.start, Unsafe: *mf.plaja.unsafe, PolicyFile: *mf.plaja.policyFile}
	if c.CertDir, err = certPaths(path, &c.Spec, &pl.Start, &pl.Unsafe, &pl.PolicyFile); err != nil {
		return err
	}
	if pl != (cert.Plaja{}) {
		c.Plaja = &pl
	}
	for _, v := range m.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	n := res.Store.Len()
	c.Entries = make([]cert.Entry, n)
	for id := 0; id < n; id++ {
		s := make(symbolic.State, len(m.Vars))
		lm.g.L.Unpack(res.Store.Get(uint32(id)), s)
		c.Entries[id] = cert.Entry{S: s}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	err = cert.Write(w, c)
	if zw != nil && err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
