package cert

import (
	"io"
	"strconv"
	"strings"

	"vigil/smt/smtlib"
	"vigil/symbolic"
)

// Quote returns a name or path read from a certificate as it is safe to
// print: unchanged when it is printable ASCII without spaces, else as a Go
// string literal with every non-ASCII character escaped (\u0430 for a
// Cyrillic a), so that a look-alike name cannot read like the real one.
func Quote(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r <= ' ' || r > '~' || r == '"' || r == '\\' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// NonASCII reports whether s has a character outside printable ASCII,
// which Quote escapes.
func NonASCII(s string) bool {
	for _, r := range s {
		if r < ' ' || r > '~' {
			return true
		}
	}
	return false
}

// confusable maps letters that look like ASCII letters (Cyrillic, Greek,
// fullwidth and a few others) to the letter they imitate.
var confusable = map[rune]rune{
	'а': 'a', 'в': 'B', 'е': 'e', 'к': 'k', 'м': 'M', 'н': 'H', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 'T',
	'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'ɡ': 'g', 'һ': 'h', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'α': 'a', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ι': 'i', 'κ': 'k',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ℓ': 'l', 'ı': 'i', '\u00a0': ' ', '\u200b': -1, '\u200c': -1, '\u200d': -1, '\ufeff': -1,
}

// Skeleton maps the look-alike letters of s to the ASCII letters they
// imitate (fullwidth forms too) and drops zero-width characters: two
// names with one skeleton read alike.
func Skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xff01 && r <= 0xff5e { // fullwidth ASCII
			return r - 0xff01 + '!'
		}
		if a, ok := confusable[r]; ok {
			return a
		}
		return r
	}, s)
}

// PolicyHash returns symbolic.PolicyFilesHash of d: the SHA-256 of the
// files the policy reads, "" when it reads none.
func PolicyHash(d *symbolic.PolicyDecl) (string, error) {
	h, err := symbolic.PolicyFilesHash(d)
	if err != nil {
		return "", errorf("%v", err)
	}
	return h, nil
}

// Write writes c as the SMT-LIB2 certificate file that z3 FILE and Check
// read: c's header as comments, the definitions of the question (q's
// model, property and policy; a learned policy's facts are c's Facts),
// the invariant and the checks.
func (c *Cert) Write(w io.Writer, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	differ, err := c.resolveDiffer(m)
	if err != nil {
		return err
	}
	q := smtlib.Question{Model: m, Property: prop, Policy: policy, Differ: differ}
	inv := smtlib.Boxes(c.Inv)
	if policy == nil || (policy.Kind != symbolic.KindNN && policy.Kind != symbolic.KindTrees) {
		return smtlib.WriteCert(w, q, c.Lines(), inv)
	}
	facts, err := c.resolveFacts(m)
	if err != nil {
		return err
	}
	q.Policy = nil
	return smtlib.WriteCertFacts(w, q, c.Lines(), inv, facts.exclusions())
}
