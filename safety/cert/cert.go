package cert

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// FormatName and Version identify the file format; Read rejects others.
const (
	FormatName = "vigil-safety-certificate"
	Version    = 1
)

// Inf is the infinite radius: every label is free, and the certificate is
// about plain safety (Definition 2) rather than r-safety (Definition 5).
const Inf = -1

// Kind is what a certificate proves about its state.
type Kind string

const (
	Safe   Kind = "safe"   // the state is r-safe: entries name a label to take
	Unsafe Kind = "unsafe" // the state is not r-safe: entries carry ranks
	// Invariant: the entries are a set of states closed under the tested
	// policy's successors (every label's without one), holding every start
	// state of the property and no unsafe one; vigil verify --engine bfs
	// --cert writes the reachable states this way.
	Invariant Kind = "invariant"
	// Starts: several states (vigil safe --starts), each listed under its
	// verdict, sharing one table: entries with a label are safe entries,
	// entries without one unsafe entries with a rank.
	Starts Kind = "starts"
)

// Certificate is a safety certificate; its fields mirror the JSON object
// described in the package documentation. Use Read and Write to convert:
// the radius and the entries have a JSON form of their own.
type Certificate struct {
	Format  string
	Version int
	Kind    Kind
	// Spec is the model file: relative to the certificate's directory
	// (or absolute) when CertDir is set, else as given on the command line
	// (older certificates). The PlaJA files follow the same rule.
	Spec string
	// CertDir is the absolute directory the certificate was written in:
	// the fallback for relative paths when the certificate was moved
	// without its model ("" in older certificates).
	CertDir string
	Defines map[string]string // -D overrides; nil when absent
	Plaja   *Plaja            // PlaJA flags; nil when absent
	// ArgMax is the tested policy's arg-max reading given on the command
	// line (--argmax all or applicable; "" when not given).
	ArgMax   string
	Model    string
	Property string
	Policy   string // the tested policy; "" only with Radius == Inf
	// PolicySHA256 is symbolic.PolicyFilesHash of the tested policy: the
	// SHA-256 of the files it reads ("" when it reads none or the writer
	// did not record it).
	PolicySHA256 string
	// ModelSHA256 binds the certificate to its question as an invariant
	// certificate's model-sha256 does: ic3/cert.ModelHash of the model as
	// loaded (printed, so with each policy's arg-max reading), the
	// property, and HashPolicy's policy with its files. "" in
	// certificates written before it was recorded. (This package does not
	// compute it: it keeps out of SMT; vigil cert check compares it.)
	ModelSHA256 string
	Radius      int // >= 0, or Inf
	Vars        []string
	State       []int // the state the certificate is about, in Vars order
	// SafeStates and UnsafeStates are, in a certificate of kind starts, the
	// states it proves r-safe and not r-safe (all start states of the
	// property).
	SafeStates, UnsafeStates [][]int
	Entries                  []Entry
}

// UsesPolicy reports whether the certificate's claim depends on its
// tested policy: a finite radius, or an invariant under a policy. (With
// radius inf every label is free.)
func (c *Certificate) UsesPolicy() bool {
	return c.Radius != Inf || (c.Kind == Invariant && c.Policy != "")
}

// HashPolicy is the policy whose files ModelSHA256 covers: the tested
// policy when the claim depends on it (UsesPolicy), else "" (none).
func (c *Certificate) HashPolicy() string {
	if c.UsesPolicy() {
		return c.Policy
	}
	return ""
}

// Plaja records the PlaJA flags (--start, --unsafe, --policy-file) the model
// was loaded with.
type Plaja struct {
	Start      string `json:"start"`
	Unsafe     string `json:"unsafe"`
	PolicyFile string `json:"policy_file"`
}

// Entry is one pair (S, B) of a certificate: in a safe certificate, taking
// Label in S keeps it B-safe; in an unsafe certificate, S is not B-safe by
// Rank. Label is used only by safe certificates, Rank only by unsafe ones.
type Entry struct {
	S     []int
	B     int
	Label string
	Rank  int
}

// wire is the JSON form of a Certificate.
type wire struct {
	Format       string            `json:"format"`
	Version      int               `json:"version"`
	Kind         Kind              `json:"kind"`
	Spec         string            `json:"spec"`
	CertDir      string            `json:"cert_dir,omitempty"`
	Defines      map[string]string `json:"defines,omitempty"`
	Plaja        *Plaja            `json:"plaja,omitempty"`
	ArgMax       string            `json:"argmax,omitempty"`
	Model        string            `json:"model"`
	Property     string            `json:"property"`
	Policy       string            `json:"policy"`
	PolicySHA256 string            `json:"policy_sha256,omitempty"`
	ModelSHA256  string            `json:"model_sha256,omitempty"`
	Radius       json.RawMessage   `json:"radius"`
	Vars         []string          `json:"vars"`
	State        []int             `json:"state,omitempty"`
	SafeStates   [][]int           `json:"safe_states,omitempty"`
	UnsafeStates [][]int           `json:"unsafe_states,omitempty"`
	Entries      []wireEntry       `json:"entries"`
}

// wireEntry is the JSON form of an Entry; pointers tell absent from zero.
type wireEntry struct {
	S     []int   `json:"s"`
	B     *int    `json:"b,omitempty"`
	Label *string `json:"label,omitempty"`
	Rank  *int    `json:"rank,omitempty"`
}

func parseRadius(raw json.RawMessage) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, errorf(`missing radius; want "inf" or a non-negative integer`)
	}
	if string(raw) == `"inf"` {
		return Inf, nil
	}
	var r int
	if err := json.Unmarshal(raw, &r); err != nil || r < 0 {
		return 0, errorf(`radius %s; want "inf" or a non-negative integer`, raw)
	}
	return r, nil
}

// validate checks what a certificate must satisfy regardless of the model.
func validate(c *Certificate) error {
	if err := validateHeader(c); err != nil {
		return err
	}
	for i, e := range c.Entries {
		if err := validateEntry(c, i, e); err != nil {
			return err
		}
	}
	return nil
}

// validateHeader checks every field but the entries.
func validateHeader(c *Certificate) error {
	if c.Format != FormatName {
		return errorf("format %q, want %q", c.Format, FormatName)
	}
	if c.Version != Version {
		return errorf("version %d is not supported (this vigil reads version %d)", c.Version, Version)
	}
	if c.Kind != Safe && c.Kind != Unsafe && c.Kind != Invariant && c.Kind != Starts {
		return errorf("kind %q; want %q, %q, %q or %q", c.Kind, Safe, Unsafe, Starts, Invariant)
	}
	if c.Kind == Invariant && c.Radius != Inf {
		return errorf("an invariant certificate has radius \"inf\" (the tested policy is followed exactly), not %d", c.Radius)
	}
	if c.Radius < Inf {
		return errorf("negative radius %d", c.Radius)
	}
	if c.Radius != Inf && c.Policy == "" {
		return errorf("radius %d needs the tested policy; only radius inf may leave policy empty", c.Radius)
	}
	return nil
}

// validateEntry checks entry i, e, of c.
func validateEntry(c *Certificate, i int, e Entry) error {
	if e.B < 0 {
		return errorf("entries[%d]: negative budget %d", i, e.B)
	}
	if c.Radius != Inf && e.B > c.Radius {
		return errorf("entries[%d]: budget %d exceeds the radius %d", i, e.B, c.Radius)
	}
	switch c.Kind {
	case Safe:
		if e.Label == "" {
			return errorf("entries[%d]: missing label", i)
		}
		if e.Rank != 0 {
			return errorf("entries[%d]: a safe certificate's entry has no rank", i)
		}
	case Starts:
		if e.Label != "" && e.Rank != 0 {
			return errorf("entries[%d]: an entry has a label (safe) or a rank (not safe), not both", i)
		}
		if e.Rank < 0 {
			return errorf("entries[%d]: negative rank %d", i, e.Rank)
		}
	case Invariant:
		if e.Label != "" || e.Rank != 0 || e.B != 0 {
			return errorf("entries[%d]: an invariant certificate's entry is a state alone", i)
		}
	case Unsafe:
		if e.Label != "" {
			return errorf("entries[%d]: an unsafe certificate's entry has no label", i)
		}
		if e.Rank < 0 {
			return errorf("entries[%d]: negative rank %d", i, e.Rank)
		}
	}
	return nil
}

// RadiusString renders a radius as the file writes it: "inf" or the number.
func RadiusString(r int) string {
	if r == Inf {
		return "inf"
	}
	return fmt.Sprint(r)
}

// Write encodes c, one entry per line. It refuses a certificate that Read
// would reject on its own, before it writes anything.
func Write(w io.Writer, c *Certificate) error {
	if err := validate(c); err != nil {
		return err
	}
	enc, err := NewEncoder(w, c)
	if err != nil {
		return err
	}
	for _, e := range c.Entries {
		if err := enc.Add(e); err != nil {
			return err
		}
	}
	return enc.Close()
}

// Encoder writes a certificate entry by entry, so that a certificate of
// millions of entries need not be held in memory, whole or encoded (a
// decider's certificate of 10^8 entries took 16 GiB before it was
// written): the header when the Encoder is made, each entry as it is
// added, the end on Close. The bytes are Write's for the certificate
// with the same header and entries, so Read takes them. Writes are
// buffered (64 KiB); the first error sticks.
type Encoder struct {
	w   *bufio.Writer
	c   Certificate // the header: its Entries are ignored
	n   int         // entries written
	err error
}

// NewEncoder writes header's fields (all but its entries, which it
// ignores) to w and returns the Encoder that writes the entries. It
// refuses a header that Read would reject.
func NewEncoder(w io.Writer, header *Certificate) (*Encoder, error) {
	if err := validateHeader(header); err != nil {
		return nil, err
	}
	enc := &Encoder{w: bufio.NewWriterSize(w, 64<<10), c: *header}
	enc.c.Entries = nil
	c, buf := &enc.c, enc.w
	field := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil { // strings, ints and maps of strings always marshal
			panic(err)
		}
		fmt.Fprintf(buf, "  %q: %s,\n", name, b)
	}
	buf.WriteString("{\n")
	field("format", c.Format)
	field("version", c.Version)
	field("kind", c.Kind)
	field("spec", c.Spec)
	if c.CertDir != "" {
		field("cert_dir", c.CertDir)
	}
	if c.Defines != nil {
		field("defines", c.Defines)
	}
	if c.Plaja != nil {
		field("plaja", c.Plaja)
	}
	if c.ArgMax != "" {
		field("argmax", c.ArgMax)
	}
	field("model", c.Model)
	field("property", c.Property)
	field("policy", c.Policy)
	if c.PolicySHA256 != "" {
		field("policy_sha256", c.PolicySHA256)
	}
	if c.ModelSHA256 != "" {
		field("model_sha256", c.ModelSHA256)
	}
	if c.Radius == Inf {
		field("radius", "inf")
	} else {
		field("radius", c.Radius)
	}
	field("vars", nonNil(c.Vars))
	switch c.Kind {
	case Starts:
		field("safe_states", nonNil(c.SafeStates))
		field("unsafe_states", nonNil(c.UnsafeStates))
	case Invariant:
	default:
		field("state", nonNil(c.State))
	}
	_, enc.err = buf.WriteString(`  "entries": [`)
	return enc, enc.err
}

// Add writes the entry e. It refuses an entry that Read would reject in
// this certificate (nothing of it is written then).
func (enc *Encoder) Add(e Entry) error {
	if enc.err != nil {
		return enc.err
	}
	if err := validateEntry(&enc.c, enc.n, e); err != nil {
		return err
	}
	we := wireEntry{S: nonNil(e.S), B: &e.B}
	switch enc.c.Kind {
	case Safe:
		we.Label = &e.Label
	case Unsafe:
		we.Rank = &e.Rank
	case Starts:
		if e.Label != "" {
			we.Label = &e.Label
		} else {
			we.Rank = &e.Rank
		}
	case Invariant:
		we.B = nil
	}
	b, err := json.Marshal(we)
	if err != nil {
		panic(err)
	}
	if enc.n > 0 {
		enc.w.WriteByte(',')
	}
	enc.w.WriteString("\n    ")
	_, enc.err = enc.w.Write(b)
	enc.n++
	return enc.err
}

// Entries returns the number of entries written.
func (enc *Encoder) Entries() int { return enc.n }

// Close writes the end of the certificate and flushes it to the writer
// (which it does not close).
func (enc *Encoder) Close() error {
	if enc.err != nil {
		return enc.err
	}
	if enc.n > 0 {
		enc.w.WriteString("\n  ")
	}
	enc.w.WriteString("]\n}\n")
	err := enc.w.Flush()
	enc.err = err
	if err == nil {
		enc.err = errClosed
	}
	return err
}

// errClosed is the error of an Encoder used after Close.
var errClosed = errors.New("cert: Encoder used after Close")

// gzipError says what a gzip read error means for a certificate file:
// "unexpected EOF" and gzip's own "gzip: invalid checksum" named neither
// a cut-short file nor a damaged one.
func gzipError(err error) error {
	var ce flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errorf("gzip: the compressed data ends early: the file is truncated (its writing was cut short, or it was copied in part); write the certificate again")
	case errors.Is(err, gzip.ErrChecksum):
		return errorf("gzip: the decompressed data does not match the file's checksum: the file is corrupted; write the certificate again")
	case errors.Is(err, gzip.ErrHeader):
		return errorf("gzip: data that is not gzip follows the compressed certificate, or the file is corrupted")
	case errors.As(err, &ce):
		return errorf("gzip: the compressed data is corrupted at byte %d; write the certificate again", int64(ce))
	}
	return errorf("gzip: %v", err)
}

// nonNil makes a nil slice marshal as [] rather than null.
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
