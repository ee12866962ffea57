package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	invcert "vigil/ic3/cert"
	"vigil/symbolic"
)

// checked says what vigil cert check checked a certificate against: the
// model file and its -D values, the PlaJA files, the model, property and
// policy, and the hash of the policy's files next to the one the
// certificate records. Names and paths come from files an adversary may
// write, so the text form prints them through invcert.Quote.
type checked struct {
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
	// PolicyUnused: the certificate names a policy that plays no part
	// (a safety certificate of radius inf: every label is free).
	PolicyUnused bool `json:"policy_unused,omitempty"`
	// PolicyFiles are the files the policy reads; PolicySHA256 is their
	// hash as loaded ("" when it reads none), RecordedPolicySHA256 the
	// certificate's, and PolicyHashMatches whether the two agree (absent
	// when the certificate records none).
	PolicyFiles          []string `json:"policy_files,omitempty"`
	PolicySHA256         string   `json:"policy_sha256"`
	RecordedPolicySHA256 string   `json:"recorded_policy_sha256,omitempty"`
	PolicyHashMatches    *bool    `json:"policy_sha256_matches,omitempty"`
	ModelSHA256          string   `json:"model_sha256,omitempty"` // invariant certificates
	// NonASCII lists the names and paths above with characters outside
	// printable ASCII, which may imitate other names.
	NonASCII []string `json:"non_ascii_names,omitempty"`
}

// compareDefines rejects -D flags that differ from the values the
// certificate records: a certificate proves its claim for the constants
// it was made with and no others.
func compareDefines(path string, recorded map[string]string, given defines) error {
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
				invcert.Quote(path), invcert.Quote(k), showDefines(recorded), invcert.Quote(k), invcert.Quote(given[k]))
		case rv != given[k]:
			return fmt.Errorf("%s was made with -D %s=%s; it proves nothing about -D %s=%s: drop the flag, or make a certificate with it",
				invcert.Quote(path), invcert.Quote(k), invcert.Quote(rv), invcert.Quote(k), invcert.Quote(given[k]))
		}
	}
	return nil
}

// showDefines writes -D values as "-D A=1 -D B=2", or "no -D values".
func showDefines(d map[string]string) string {
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

// describe fills in the model, property and policy, with the hash of the
// policy's files and whether it matches recorded.
func (c *checked) describe(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, recorded string) error {
	c.Model, c.Property = m.Name, prop.Name
	c.RecordedPolicySHA256 = recorded
	if pol != nil {
		c.Policy, c.PolicyKind = pol.Name, string(pol.Kind)
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
	c.NonASCII = nonASCII(append([]string{c.ModelFile, c.StartFile, c.UnsafeFile, c.PolicyFile, c.Model, c.Property, c.Policy}, c.PolicyFiles...)...)
	return nil
}

// print writes the text form: what was checked, one item a line.
func (c *checked) print(w io.Writer) {
	q := invcert.Quote
	fmt.Fprintf(w, "checked against:\n")
	fmt.Fprintf(w, "  model file:  %s\n", q(c.ModelFile))
	switch c.DefinesFrom {
	case "certificate":
		fmt.Fprintf(w, "  constants:   %s (recorded in the certificate)\n", showDefines(c.Defines))
	default:
		fmt.Fprintf(w, "  constants:   the model's own (no -D values)\n")
	}
	for _, f := range [][2]string{{"start file:  ", c.StartFile}, {"unsafe file: ", c.UnsafeFile}, {"policy file: ", c.PolicyFile}} {
		if f[1] != "" {
			fmt.Fprintf(w, "  %s%s\n", f[0], q(f[1]))
		}
	}
	fmt.Fprintf(w, "  model:       %s, property %s\n", q(c.Model), q(c.Property))
	if c.ModelSHA256 != "" {
		fmt.Fprintf(w, "  model hash:  sha256 %s (matches the certificate)\n", c.ModelSHA256)
	}
	switch {
	case c.PolicyUnused:
		fmt.Fprintf(w, "  policy:      %s, not used (radius inf: every applicable label)\n", q(c.Policy))
	case c.Policy == "":
		fmt.Fprintf(w, "  policy:      none (every applicable label)\n")
	case len(c.PolicyFiles) == 0:
		fmt.Fprintf(w, "  policy:      %s (%s, written in the model file: no policy file to hash)\n", q(c.Policy), c.PolicyKind)
	default:
		files := make([]string, len(c.PolicyFiles))
		for i, f := range c.PolicyFiles {
			files[i] = q(f)
		}
		fmt.Fprintf(w, "  policy:      %s (%s, reads %s)\n", q(c.Policy), c.PolicyKind, strings.Join(files, " and "))
		match := "the certificate records no policy hash"
		if c.PolicyHashMatches != nil {
			match = "matches the certificate"
			if !*c.PolicyHashMatches {
				match = "DIFFERS from the certificate's " + c.RecordedPolicySHA256
			}
		}
		fmt.Fprintf(w, "  policy hash: sha256 %s (%s)\n", c.PolicySHA256, match)
	}
	for _, s := range c.NonASCII {
		fmt.Fprintf(w, "warning: the name %s has characters outside ASCII (shown escaped); it may imitate another name\n", q(s))
	}
	if c.DefinesFrom == "certificate" {
		fmt.Fprintf(w, "note: the certificate is about model %s with %s, not at the constants the model file declares\n", q(c.Model), showDefines(c.Defines))
	}
}

// nonASCII returns the names with characters outside printable ASCII.
func nonASCII(names ...string) []string {
	var out []string
	for _, s := range names {
		if invcert.NonASCII(s) {
			out = append(out, s)
		}
	}
	return out
}

// plainName refuses a property or policy name from a certificate that has
// characters outside printable ASCII: vigil's own names never do, and
// such a name may imitate one of the model's (a Cyrillic а for a Latin
// a), so it is printed escaped, with the name it imitates.
func plainName(path, what, name string, names []string) error {
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

// modelNames returns m's property and policy names.
func modelNames(m *symbolic.Model) (props, pols []string) {
	for _, p := range m.Properties {
		props = append(props, p.Name)
	}
	for _, p := range m.Policies {
		pols = append(pols, p.Name)
	}
	return props, pols
}
