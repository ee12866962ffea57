package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ReachCertificate returns the certificate of a safe bfs verdict on q: the
// states bfs reached, which it proved safe, as an invariant certificate
// (package safety/cert, kind "invariant"): a set that holds every start
// state, is closed under the policy's successors and holds no unsafe
// state. vigil cert check re-checks all three by its own enumeration. The
// certificate records where the question came from as q.Header says.
func ReachCertificate(q *Question, v *Verdict) (*cert.Certificate, error) {
	c, each, err := reachCertificate(q, v)
	if err != nil {
		return nil, err
	}
	err = each(func(e cert.Entry) error {
		e.S = append(symbolic.State(nil), e.S...)
		c.Entries = append(c.Entries, e)
		return nil
	})
	return c, err
}

// reachCertificate returns the header of ReachCertificate's certificate
// (without entries) and a function that gives its entries to add in
// order, one state at a time (the state's slice is reused), so that they
// can be written as they are made.
func reachCertificate(q *Question, v *Verdict) (*cert.Certificate, func(add func(cert.Entry) error) error, error) {
	if v.BFS == nil || v.Answer != explicit.Safe {
		return nil, nil, errors.New("verify: a reachable-set certificate needs a safe verdict of bfs")
	}
	p := v.prep
	if p == nil {
		var err error
		if p, err = prepare(context.Background(), q); err != nil {
			return nil, nil, err
		}
	}
	h, m := q.Header, p.Model
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Kind: cert.Invariant,
		Spec: h.Model, CertDir: h.Dir, ArgMax: h.ArgMax, Model: m.Name, Property: q.Property.Name, Policy: policyName(q.Policy), Radius: cert.Inf}
	if len(h.Defines) > 0 {
		c.Defines = map[string]string{}
		for _, d := range h.Defines {
			k, val, _ := strings.Cut(d, "=")
			c.Defines[k] = val
		}
	}
	var err error
	if q.Policy != nil {
		if c.PolicySHA256, err = symbolic.PolicyFilesHash(q.Policy); err != nil {
			return nil, nil, err
		}
	}
	// The model as loaded (q.Model, with the policy's reading), as vigil
	// cert check loads it again; not the prepared one.
	if c.ModelSHA256, err = invcert.ModelHash(q.Model, q.Property.Name, c.HashPolicy()); err != nil {
		return nil, nil, err
	}
	if pl := (cert.Plaja{Start: h.StartFile, Unsafe: h.UnsafeFile, PolicyFile: h.PolicyFile}); pl != (cert.Plaja{}) {
		c.Plaja = &pl
	}
	for _, x := range m.Vars {
		c.Vars = append(c.Vars, x.Name)
	}
	store := v.BFS.Store
	each := func(add func(cert.Entry) error) error {
		n := store.Len()
		s := make(symbolic.State, len(m.Vars))
		for id := 0; id < n; id++ {
			p.Gen.L.Unpack(store.Get(uint32(id)), s)
			if err := add(cert.Entry{S: s}); err != nil {
				return err
			}
		}
		return nil
	}
	return c, each, nil
}

// WriteCertificate writes the certificate of a safe verdict v of q to path
// and records it in rep (when rep is not nil): the states bfs reached
// (ReachCertificate, gzip-compressed when path ends in .gz), or the
// invariant of ic3, polic3 or ppa in SMT-LIB2 (ic3/cert). It reports
// whether v had one to write: other verdicts, and those of engines without
// certificates (bdd), write nothing.
//
// The certificate is written as it is made, and the end of ctx stops the
// writing within a buffer of 64 KiB: the error is then ctx.Err() (tell
// it by errors.Is(err, ctx.Err())). On any error what was written is
// discarded and an older certificate of that name is kept
// (safety/cert.File: a regular file is written to a temporary file
// renamed over it at the end; a device or a pipe is written in place).
func WriteCertificate(ctx context.Context, path string, q *Question, v *Verdict, rep *Report) (bool, error) {
	var err error
	switch {
	case v.Answer != explicit.Safe:
		return false, nil
	case v.BFS != nil:
		var c *cert.Certificate
		var each func(func(cert.Entry) error) error
		if c, each, err = reachCertificate(q, v); err == nil {
			err = writeCert(ctx, path, cert.Create, func(w io.Writer) error {
				enc, err := cert.NewEncoder(w, c)
				if err != nil {
					return err
				}
				if err := each(enc.Add); err != nil {
					return err
				}
				return enc.Close()
			})
		}
	case v.Invariant != nil:
		if err = headerPaths(&v.Invariant.Header); err == nil {
			err = writeCert(ctx, path, cert.CreatePlain, func(w io.Writer) error {
				bw := bufio.NewWriterSize(w, 64<<10)
				if err := v.Invariant.Write(bw, q.Model, q.Property, q.Policy); err != nil {
					return err
				}
				return bw.Flush()
			})
		}
	default:
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if rep != nil {
		rep.Certificate = path
	}
	return true, nil
}

// writeCert creates path with create and writes it with write, through a
// writer that fails once ctx ends (cert.Stopping); on an error the file
// is aborted.
func writeCert(ctx context.Context, path string, create func(context.Context, string) (*cert.File, error), write func(io.Writer) error) error {
	f, err := create(ctx, path)
	if err != nil {
		return err
	}
	if err := write(cert.Stopping(ctx, f)); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// headerPaths refuses the paths and -D values of an invariant
// certificate's header that vigil cert check could not read back: the
// header holds one item a line ("; model: PATH"), read without the white
// space around it, so a file name that starts or ends with white space
// (or holds a line break) was recorded as another name, and the check of a
// true certificate failed with "not found" (s25f_cert_path_spaces.txtar).
func headerPaths(h *invcert.Header) error {
	items := [][2]string{{"model file", h.Model}, {"start file", h.StartFile}, {"unsafe file", h.UnsafeFile}, {"policy file", h.PolicyFile}}
	for _, d := range h.Defines {
		items = append(items, [2]string{"-D value", d})
	}
	for _, it := range items {
		bad := strings.TrimSpace(it[1]) != it[1]
		for _, r := range it[1] {
			bad = bad || r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029
		}
		if bad {
			return fmt.Errorf("cannot write an invariant certificate that names the %s %s: its header holds one name a line, read without surrounding white space, so vigil cert check would look for another file; rename it (without leading or trailing white space or line breaks), or use --engine bfs, whose JSON certificate holds any name", it[0], invcert.Quote(it[1]))
		}
	}
	return nil
}

// PlotVars are the variables of m that names name, for the plot of an
// HTML report (Report.WriteHTML); a name m lacks is an error that offers
// the closest one.
func PlotVars(m *symbolic.Model, names []string) ([]symbolic.VarID, error) {
	var vars []symbolic.VarID
	for _, name := range names {
		v := m.VarIndex(name)
		if v < 0 {
			var all []string
			for i := range m.Vars {
				all = append(all, m.Vars[i].Name)
			}
			return nil, fmt.Errorf("model %s has no variable %q%s", m.Name, name, symbolic.Suggest(name, all))
		}
		vars = append(vars, v)
	}
	return vars, nil
}
