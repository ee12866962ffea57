package safety

// Writing a certificate file that vigil cert check can check on its own:
// the certificate of the decided states, with how to load the model again.

import (
	"context"

	"vigil/internal/certpath"
	"vigil/safety/cert"
	"vigil/symbolic"
)

// Source says how the model of a certificate was loaded, so that the
// checker can load it again: the spec file, the -D defines, the property
// and policy, and the PlaJA files that replaced parts of the spec (nil
// when none did).
type Source struct {
	Spec     string
	Defines  map[string]string
	Property string
	Policy   *symbolic.PolicyDecl // nil without a tested policy
	Plaja    *cert.Plaja
	ArgMax   string // --argmax, "" when not given
	// ModelHash returns the hash that binds the certificate to the model
	// as loaded, with the policy whose files it covers
	// (cert.Certificate.HashPolicy): ic3/cert.ModelHash of the model and
	// Property. nil records none. (A function, so that this package
	// keeps out of SMT.)
	ModelHash func(policy string) (string, error)
}

// WriteCertificate writes to path one certificate for the states ids that
// d decided (CertifyStarts: one table for all of them), recording src
// with its files relative to path (certpath.Record), the hash of the
// policy's files and the model's (src.ModelHash). The file is
// gzip-compressed when path ends in .gz. Each entry is encoded and
// written as it is made (cert.Encoder), so that memory does not grow with
// the certificate: on an error nothing is left half-written and an
// older file of that name is kept (cert.File). When ctx ends first (a
// certificate of millions of entries takes seconds to write, minutes at
// 10^8) the same holds and the error is ctx's (errors.Is(err,
// ctx.Err())).
func WriteCertificate(ctx context.Context, path string, d Decider, ids []uint32, src Source) error {
	c, cf, err := newCertifier(d, ids)
	if err != nil {
		return err
	}
	c.Spec, c.Property, c.ArgMax = src.Spec, src.Property, src.ArgMax
	if len(src.Defines) > 0 {
		c.Defines = src.Defines
	}
	if src.Policy != nil {
		c.Policy = src.Policy.Name
		if c.PolicySHA256, err = symbolic.PolicyFilesHash(src.Policy); err != nil {
			return err
		}
	}
	if src.ModelHash != nil {
		if c.ModelSHA256, err = src.ModelHash(c.HashPolicy()); err != nil {
			return err
		}
	}
	var pl cert.Plaja
	if src.Plaja != nil {
		pl = *src.Plaja
	}
	if c.CertDir, err = certpath.Record(path, &c.Spec, &pl.Start, &pl.Unsafe, &pl.PolicyFile); err != nil {
		return err
	}
	if src.Plaja != nil {
		c.Plaja = &pl
	}
	f, err := cert.Create(ctx, path)
	if err != nil {
		return err
	}
	err = func() error {
		enc, err := cert.NewEncoder(f, c)
		if err != nil {
			return err
		}
		cf.emit = func(e cert.Entry) error {
			if enc.Entries()&1023 == 1023 && ctx.Err() != nil {
				return ctx.Err()
			}
			return enc.Add(e)
		}
		for _, id := range ids {
			if err := cf.add(id); err != nil {
				return err
			}
		}
		return enc.Close()
	}()
	if err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}
