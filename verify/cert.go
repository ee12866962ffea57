package verify

import (
	"context"
	"errors"
	"sort"

	"vigil/ic3"
	invcert "vigil/ic3/cert"
	"vigil/internal/certpath"
	"vigil/internal/vigilerr"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// certificate makes the ic3/cert certificate of an invariant and the
// policy facts it relies on: the question's Header with the property,
// policy, model and policy hashes, and each ic3.Fact as a certificate
// fact (labels by name, its sub-region's bounds and linear atoms as
// FormatFactLit writes them; one it cannot write is an internal error).
//
// differ are the pairs of the invariant's disequality part (PolIC3's
// ic3.Result.Differ), written as differ lines; nil for none.
func (q *Prepared) certificate(inv [][]smt.Lit, facts []ic3.Fact, differ [][2]symbolic.VarID) (*invcert.Cert, error) {
	m := q.Model
	h := q.Header
	h.Property, h.Policy, h.Boxes = q.Property.Name, q.policyName(), len(inv)
	h.Defines = append([]string(nil), q.Header.Defines...)
	h.Facts, h.Differ = nil, nil
	for _, d := range differ {
		h.Differ = append(h.Differ, [2]string{m.Vars[d[0]].Name, m.Vars[d[1]].Name})
	}
	for _, f := range facts {
		pf := invcert.PolicyFact{Box: f.Box, Label: m.Labels[f.Label].Name, Differ: f.Differ}
		for _, l := range f.Within {
			w, err := invcert.FormatFactLit(m, l)
			if err != nil {
				// The fact's region (a sub-box, a relational cell's atom)
				// must be stated exactly; never dropped.
				return nil, vigilerr.Internalf("verify", "policy fact on box %d, label %s: %v", f.Box, m.Labels[f.Label].Name, err)
			}
			pf.Within = append(pf.Within, w)
		}
		for _, l := range f.Sure {
			pf.Sure = append(pf.Sure, m.Labels[l].Name)
		}
		h.Facts = append(h.Facts, pf)
	}
	var err error
	if h.Hash, err = invcert.ModelHash(m, h.Property, h.Policy); err != nil {
		return nil, err
	}
	if h.PolicyHash, err = invcert.PolicyHash(q.Policy); err != nil {
		return nil, err
	}
	if q.Tamper != nil && q.Tamper.Invariant != nil {
		inv = q.Tamper.Invariant(inv)
	}
	c := &invcert.Cert{Header: h, Inv: inv}
	for _, v := range m.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	return c, nil
}

// checkCert runs the independent checker on c.
func (q *Prepared) checkCert(ctx context.Context, c *invcert.Cert) error {
	return invcert.CheckWith(ctx, c, q.Model, q.Property, q.Policy, q.Executable)
}

// checkInvariant checks an IC3 invariant; the end of ctx during the
// check, or a condition Z3 answers unknown on (*invcert.Inconclusive),
// makes the verdict Unknown (an unchecked invariant is no answer).
func (q *Prepared) checkInvariant(ctx context.Context, v *Verdict) error {
	err := q.checkCert(ctx, v.Invariant)
	if err == nil {
		return nil
	}
	if u, ok := errors.AsType[*invcert.Inconclusive](err); ok && ctx.Err() == nil {
		// Z3 answered unknown on a condition: not a bug, no answer.
		v.Answer, v.Invariant = explicit.Unknown, nil
		v.Reason = inconclusiveReason(u)
		return nil
	}
	if ctx.Err() == nil {
		return internal("the %s invariant does not check: %v", cexEngine(v.Engine), err)
	}
	v.Answer, v.Invariant = explicit.Unknown, nil
	v.Reason = "timeout while checking the invariant"
	if errors.Is(ctx.Err(), context.Canceled) {
		v.Reason = "interrupted while checking the invariant"
	}
	return nil
}

// inconclusiveReason is the reason of an Unknown answer whose
// certificate's check Z3 could not decide.
func inconclusiveReason(u *invcert.Inconclusive) string {
	return inconclusivePrefix + u.Message()
}

// inconclusivePrefix begins the reason of an Unknown answer whose
// certificate's check Z3 could not decide.
const inconclusivePrefix = "the certificate's check was inconclusive: "

// NewHeader is what the certificate of a question records about where the
// question came from (Question.Header): the model file, its -D defines
// and the PlaJA start, unsafe and policy files ("" when not given). With
// certFile, the file the certificate is to be written to, the paths are
// recorded relative to its directory (internal/certpath.Record), so that
// the certificate travels with the model.
func NewHeader(certFile, model string, defines map[string]string, start, unsafe, policyFile string) (invcert.Header, error) {
	h := invcert.Header{Model: model, StartFile: start, UnsafeFile: unsafe, PolicyFile: policyFile}
	for k, v := range defines {
		h.Defines = append(h.Defines, k+"="+v)
	}
	sort.Strings(h.Defines)
	if certFile == "" {
		return h, nil
	}
	var err error
	h.Dir, err = certpath.Record(certFile, &h.Model, &h.StartFile, &h.UnsafeFile, &h.PolicyFile)
	return h, err
}
