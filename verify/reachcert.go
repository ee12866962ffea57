package verify

import (
	"context"
	"errors"
	"fmt"
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
	if v.BFS == nil || v.Answer != explicit.Safe {
		return nil, errors.New("verify: a reachable-set certificate needs a safe verdict of bfs")
	}
	p := v.prep
	if p == nil {
		var err error
		if p, err = prepare(context.Background(), q); err != nil {
			return nil, err
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
			return nil, err
		}
	}
	// The model as loaded (q.Model, with the policy's reading), as vigil
	// cert check loads it again; not the prepared one.
	if c.ModelSHA256, err = invcert.ModelHash(q.Model, q.Property.Name, c.HashPolicy()); err != nil {
		return nil, err
	}
	if pl := (cert.Plaja{Start: h.StartFile, Unsafe: h.UnsafeFile, PolicyFile: h.PolicyFile}); pl != (cert.Plaja{}) {
		c.Plaja = &pl
	}
	for _, x := range m.Vars {
		c.Vars = append(c.Vars, x.Name)
	}
	store := v.BFS.Store
	n := store.Len()
	c.Entries = make([]cert.Entry, n)
	for id := 0; id < n; id++ {
		s := make(symbolic.State, len(m.Vars))
		p.Gen.L.Unpack(store.Get(uint32(id)), s)
		c.Entries[id] = cert.Entry{S: s}
	}
	return c, nil
}

// WriteCertificate writes the certificate of a safe verdict v of q to path
// and records it in rep (when rep is not nil): the states bfs reached
// (ReachCertificate, gzip-compressed when path ends in .gz), or the
// invariant of ic3, polic3 or ppa in SMT-LIB2 (ic3/cert). It reports
// whether v had one to write: other verdicts, and those of engines without
// certificates (bdd), write nothing.
func WriteCertificate(path string, q *Question, v *Verdict, rep *Report) (bool, error) {
	var err error
	switch {
	case v.Answer != explicit.Safe:
		return false, nil
	case v.BFS != nil:
		var c *cert.Certificate
		if c, err = ReachCertificate(q, v); err == nil {
			err = cert.WriteFile(path, c)
		}
	case v.Invariant != nil:
		if err = headerPaths(&v.Invariant.Header); err == nil {
			err = invcert.WriteFile(path, v.Invariant, q.Model, q.Property, q.Policy)
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
