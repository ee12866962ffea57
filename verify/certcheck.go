package verify

// The reports of a certificate check (vigil cert check): what the
// certificate was checked against (Checked), the JSON form of a check of
// each kind (SafetyCheck, InvariantCheck) and their text. The checks
// themselves are safety/cert.Check and ic3/cert.Check; loading the model a
// certificate names is the caller's (vigil cert check loads .spec and
// JANI files and PlaJA's).

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/safety/cert"
	"vigil/symbolic"
)

// Checked says what a certificate was checked against: the model file
// and its -D values, the PlaJA files, the model, property and policy, and
// the hash of the policy's files next to the one the certificate records.
// Names and paths come from files an adversary may write, so the text
// form prints them through invcert.Quote.
type Checked struct {
	ModelFile string            `json:"model_file"`
	Defines   map[string]string `json:"defines"` // the -D values the model was loaded with
	// DefinesFrom is "certificate" when the -D values are the ones the
	// certificate records (the flags gave none or the same), "none" when
	// neither gave any.
	DefinesFrom string `json:"defines_from"`
	StartFile   string `json:"start_file,omitempty"`
	UnsafeFile  string `json:"unsafe_file,omitempty"`
	PolicyFile  string `json:"policy_file,omitempty"` // the --policy-file, if any
	Model       string `json:"model"`
	Property    string `json:"property"`
	Policy      string `json:"policy,omitempty"`
	PolicyKind  string `json:"policy_kind,omitempty"`
	// ArgMax is how a network or tree-ensemble policy reads its arg-max
	// ("all" or "applicable"; "" for other policies), ArgMaxRecorded
	// whether that is the --argmax the certificate records rather than
	// the policy's declaration.
	ArgMax         string `json:"argmax,omitempty"`
	ArgMaxRecorded bool   `json:"argmax_recorded,omitempty"`
	// PolicyUnused: the certificate names a policy that plays no part
	// (a safety certificate of radius inf: every label is free).
	PolicyUnused bool `json:"policy_unused,omitempty"`
	// PolicyFiles are the files the policy reads; PolicySHA256 is their
	// hash as loaded ("" when it reads none), RecordedPolicySHA256 the
	// certificate's, and PolicyHashMatches whether the two agree (absent
	// when the certificate records none).
	PolicyFiles []string `json:"policy_files,omitempty"`
	// PolicyOutput is the ONNX graph output a network policy reads
	// (`output "NAME"`; "" for the graph's only output).
	PolicyOutput         string `json:"policy_output,omitempty"`
	PolicySHA256         string `json:"policy_sha256"`
	RecordedPolicySHA256 string `json:"recorded_policy_sha256,omitempty"`
	PolicyHashMatches    *bool  `json:"policy_sha256_matches,omitempty"`
	// ModelSHA256 is the model hash the certificate records, which the
	// model as loaded matches (ic3/cert.ModelHash); ModelHashUnrecorded
	// says a safety certificate records none (one written before vigil
	// recorded it), so it was checked against the model as loaded alone.
	ModelSHA256         string `json:"model_sha256,omitempty"`
	ModelHashUnrecorded bool   `json:"model_sha256_unrecorded,omitempty"`
	// NonASCII lists the names and paths above with characters outside
	// printable ASCII, which may imitate other names.
	NonASCII []string `json:"non_ascii_names,omitempty"`
}

// CompareDefines rejects -D values (given) that differ from the values
// the certificate at path records: a certificate proves its claim for the
// constants it was made with and no others.
func CompareDefines(path string, recorded, given map[string]string) error {
	var keys []string
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rv, ok := recorded[k]
		switch {
		case !ok:
			return fmt.Errorf("%s was made without -D %s (it records %s); it proves nothing about -D %s=%s: drop the flag, or make a certificate with it",
				invcert.Quote(path), invcert.Quote(k), ShowDefines(recorded), invcert.Quote(k), invcert.Quote(given[k]))
		case rv != given[k]:
			return fmt.Errorf("%s was made with -D %s=%s; it proves nothing about -D %s=%s: drop the flag, or make a certificate with it",
				invcert.Quote(path), invcert.Quote(k), invcert.Quote(rv), invcert.Quote(k), invcert.Quote(given[k]))
		}
	}
	return nil
}

// ShowDefines writes -D values as "-D A=1 -D B=2", or "no -D values".
func ShowDefines(d map[string]string) string {
	if len(d) == 0 {
		return "no -D values"
	}
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "-D " + invcert.Quote(k+"="+d[k])
	}
	return strings.Join(parts, " ")
}

// Describe fills in the model, property and policy, with the hash of the
// policy's files and whether it matches recorded.
func (c *Checked) Describe(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, recorded string) error {
	c.Model, c.Property = m.Name, prop.Name
	c.RecordedPolicySHA256 = recorded
	if pol != nil {
		c.Policy, c.PolicyKind, c.PolicyOutput = pol.Name, string(pol.Kind), pol.Output
		for _, f := range []string{pol.File, pol.Interface} {
			if f != "" {
				c.PolicyFiles = append(c.PolicyFiles, f)
			}
		}
		h, err := symbolic.PolicyFilesHash(pol)
		if err != nil {
			return err
		}
		c.PolicySHA256 = h
	}
	if recorded != "" {
		ok := recorded == c.PolicySHA256
		c.PolicyHashMatches = &ok
	}
	c.NonASCII = NonASCII(append([]string{c.ModelFile, c.StartFile, c.UnsafeFile, c.PolicyFile, c.Model, c.Property, c.Policy}, c.PolicyFiles...)...)
	return nil
}

// WriteText writes the text form: what was checked, one item a line.
func (c *Checked) WriteText(w io.Writer) error {
	t := &textWriter{w: w}
	q := invcert.Quote
	t.printf("checked against:\n")
	t.printf("  model file:  %s\n", q(c.ModelFile))
	switch c.DefinesFrom {
	case "certificate":
		t.printf("  constants:   %s (recorded in the certificate)\n", ShowDefines(c.Defines))
	default:
		t.printf("  constants:   the model's own (no -D values)\n")
	}
	for _, f := range [][2]string{{"start file:  ", c.StartFile}, {"unsafe file: ", c.UnsafeFile}, {"policy file: ", c.PolicyFile}} {
		if f[1] != "" {
			t.printf("  %s%s\n", f[0], q(f[1]))
		}
	}
	t.printf("  model:       %s, property %s\n", q(c.Model), q(c.Property))
	switch {
	case c.ModelSHA256 != "":
		t.printf("  model hash:  sha256 %s (matches the certificate)\n", c.ModelSHA256)
	case c.ModelHashUnrecorded:
		t.printf("  model hash:  none recorded (an older certificate)\n")
	}
	switch {
	case c.PolicyUnused:
		t.printf("  policy:      %s, not used (radius inf: every applicable label)\n", q(c.Policy))
	case c.Policy == "":
		t.printf("  policy:      none (every applicable label)\n")
	case len(c.PolicyFiles) == 0:
		t.printf("  policy:      %s (%s, written in the model file: no policy file to hash)\n", q(c.Policy), c.PolicyKind)
	default:
		files := make([]string, len(c.PolicyFiles))
		for i, f := range c.PolicyFiles {
			files[i] = q(f)
		}
		kind := c.PolicyKind
		if c.ArgMax != "" {
			kind += ", argmax " + c.ArgMax
		}
		reads := strings.Join(files, " and ")
		if c.PolicyOutput != "" {
			reads += ", its output " + q(c.PolicyOutput)
		}
		t.printf("  policy:      %s (%s, reads %s)\n", q(c.Policy), kind, reads)
		match := "the certificate records no policy hash"
		if c.PolicyHashMatches != nil {
			match = "matches the certificate"
			if !*c.PolicyHashMatches {
				match = "DIFFERS from the certificate's " + c.RecordedPolicySHA256
			}
		}
		t.printf("  policy hash: sha256 %s (%s)\n", c.PolicySHA256, match)
	}
	for _, s := range c.NonASCII {
		t.printf("warning: the name %s has characters outside ASCII (shown escaped); it may imitate another name\n", q(s))
	}
	if c.DefinesFrom == "certificate" {
		t.printf("note: the certificate is about model %s with %s, not at the constants the model file declares\n", q(c.Model), ShowDefines(c.Defines))
	}
	if c.ModelHashUnrecorded {
		t.printf("note: the certificate records no model_sha256 (it was written before vigil recorded one); its check re-derives the claim from the model as loaded, so it holds for this model, but nothing binds it to the model it was made for: make it again to record the hash\n")
	}
	if c.ArgMaxRecorded && c.ArgMax != "" && !c.PolicyUnused {
		t.printf("note: the certificate is about policy %s read argmax %s, as --argmax %s (recorded in the certificate) says, whatever its declaration says\n", q(c.Policy), c.ArgMax, c.ArgMax)
	}
	return t.err
}

// NonASCII returns the names with characters outside printable ASCII.
func NonASCII(names ...string) []string {
	var out []string
	for _, s := range names {
		if invcert.NonASCII(s) {
			out = append(out, s)
		}
	}
	return out
}

// PlainName refuses a property or policy name (what) from the certificate
// at path that has characters outside printable ASCII: vigil's own names
// never do, and such a name may imitate one of the model's names (a
// Cyrillic а for a Latin a), so it is printed escaped, with the name it
// imitates.
func PlainName(path, what, name string, names []string) error {
	if !invcert.NonASCII(name) {
		return nil
	}
	like := ""
	for _, n := range names {
		if invcert.Skeleton(n) == invcert.Skeleton(name) {
			like = fmt.Sprintf("; it only looks like %s %s", what, invcert.Quote(n))
		}
	}
	return fmt.Errorf("%s names %s %s, which has characters outside ASCII%s", invcert.Quote(path), what, invcert.Quote(name), like)
}

// ModelNames returns m's property and policy names.
func ModelNames(m *symbolic.Model) (props, pols []string) {
	for _, p := range m.Properties {
		props = append(props, p.Name)
	}
	for _, p := range m.Policies {
		pols = append(pols, p.Name)
	}
	return props, pols
}

// SafetyCheck is the JSON form of a check of a safety certificate
// (package safety/cert), as vigil cert check --json prints it.
type SafetyCheck struct {
	Verdict string    `json:"verdict"` // valid, invalid, or unknown when the check was stopped
	Valid   bool      `json:"valid"`
	Reason  string    `json:"reason,omitempty"` // why an unknown check stopped: interrupted or timeout
	Kind    cert.Kind `json:"kind,omitempty"`
	Radius  any       `json:"radius,omitempty"` // "inf" or an integer
	Entries int       `json:"entries"`
	States  int       `json:"states"`
	Starts  int       `json:"start_states,omitempty"` // invariant certificates
	Error   string    `json:"error,omitempty"`
	// Checked is what the certificate was checked against (absent when
	// the model could not be loaded).
	Checked *Checked `json:"checked,omitempty"`
}

// NewSafetyCheck starts the report of a check of ct.
func NewSafetyCheck(ct *cert.Certificate) *SafetyCheck {
	r := &SafetyCheck{Kind: ct.Kind, Entries: len(ct.Entries), Radius: ct.Radius}
	if ct.Radius == cert.Inf {
		r.Radius = "inf"
	}
	return r
}

// Finish records the outcome of the check: err nil is a valid
// certificate.
func (r *SafetyCheck) Finish(err error) {
	r.Valid, r.Verdict = err == nil, "valid"
	if err != nil {
		r.Verdict, r.Error = "invalid", CertMessage(err)
	}
}

// CertMessage is err as a certificate check reports it: a safety
// certificate's error without the package prefix (the report names the
// certificate), any other error as it is.
func CertMessage(err error) string {
	if ce, ok := errors.AsType[*cert.Error](err); ok {
		return ce.Msg
	}
	return err.Error()
}

// ValidSafetyLine says what the valid certificate ct proves about (m,
// prop, pol) and how much the check (rep) covered.
func ValidSafetyLine(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, ct *cert.Certificate, rep cert.Report) string {
	about := fmt.Sprintf("model %s, property %s", invcert.Quote(m.Name), invcert.Quote(prop.Name))
	if pol != nil {
		about += ", policy " + invcert.Quote(pol.Name)
	}
	switch ct.Kind {
	case cert.Invariant:
		closed := "successors of every label"
		if pol != nil {
			closed = "policy's choices"
		}
		return fmt.Sprintf("valid: invariant certificate (reachable states) for %s: %s, holding every start state (%d); closed under the %s with no unsafe state or range error (%d successors checked)",
			about, Plural(rep.States, "state"), rep.Starts, closed, rep.Successors)
	case cert.Starts:
		of := "the property's start states, too many to count"
		if rep.Starts >= 0 {
			of = fmt.Sprintf("the property's %s", Plural(rep.Starts, "start state"))
		}
		r := cert.RadiusString(ct.Radius)
		safe := r + "-safe"
		if r == "inf" {
			safe = "safe"
		}
		return fmt.Sprintf("valid: certificate for start states (%s, radius %s): %d %s, %d not, of %s; %d entries, %d states, %d successors checked",
			about, r, len(ct.SafeStates), safe, len(ct.UnsafeStates), of, rep.Entries, rep.States, rep.Successors)
	}
	return fmt.Sprintf("valid: %s certificate for %s (%s, radius %s): %d entries, %d states, %d successors checked",
		ct.Kind, m.FormatState(ct.State), about, cert.RadiusString(ct.Radius), rep.Entries, rep.States, rep.Successors)
}

// InvariantCheck is the JSON form of a check of an invariant certificate
// (package ic3/cert), as vigil cert check --json prints it.
type InvariantCheck struct {
	Verdict   string `json:"verdict"` // valid, invalid, or unknown when the check was stopped or inconclusive
	Valid     bool   `json:"valid"`
	Reason    string `json:"reason,omitempty"` // why a check is unknown: interrupted, timeout, or inconclusive (Z3 answered unknown; Error says where)
	Kind      string `json:"kind"`
	Boxes     int    `json:"boxes"`
	Condition string `json:"failed_condition,omitempty"`
	Error     string `json:"error,omitempty"`
	// Checked is what the certificate was checked against (absent when
	// the model could not be loaded).
	Checked *Checked `json:"checked,omitempty"`
}

// Finish records the outcome of the check: err nil is a valid
// certificate; an *invcert.Failure names the condition that failed.
func (r *InvariantCheck) Finish(err error) {
	r.Kind = "invariant"
	r.Valid, r.Verdict = err == nil, "valid"
	if err != nil {
		r.Verdict, r.Error = "invalid", invcert.Message(err)
		if f, ok := errors.AsType[*invcert.Failure](err); ok {
			r.Condition = f.Condition
		}
	}
}

// ValidInvariantLine says what the valid invariant certificate c proves
// about (m, prop, pol).
func ValidInvariantLine(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, c *invcert.Cert) string {
	about := fmt.Sprintf("model %s, property %s", invcert.Quote(m.Name), invcert.Quote(prop.Name))
	if pol != nil {
		about += ", policy " + invcert.Quote(pol.Name)
	}
	holds := "init, consecution and safety hold"
	if len(c.Facts) > 0 {
		holds = fmt.Sprintf("init, consecution, safety and %d policy facts hold", len(c.Facts))
	}
	return fmt.Sprintf("valid: invariant certificate for %s: %s; %s", about, Boxes(len(c.Inv)), holds)
}
