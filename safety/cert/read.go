package cert

// Reading a certificate as a stream: a certificate of hundreds of MB (a
// bfs certificate of millions of states) is decoded one entry at a time
// from a buffered (and, for .gz, decompressing) reader, never held whole
// in memory as bytes, then as a parse tree, then as entries.

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	gounsafe "unsafe"

	"vigil/internal/jsonerr"
)

// maxUnzipped bounds a gzip-compressed certificate's decompressed size.
const maxUnzipped = 1 << 34

// Read decodes a certificate, gzip-compressed or not (it tells by the
// first bytes), and checks that it is well-formed on its own (everything
// that does not need the model; Check does the rest). It reads r as a
// stream: the entries, and the states of a starts certificate, are
// decoded one at a time into shared blocks of memory. An error names
// where: the line and column, or the entry (entries[i]) and where it
// starts.
func Read(r io.Reader) (*Certificate, error) {
	br := bufio.NewReaderSize(r, 16<<10)
	var src io.Reader = br
	var gz *gunzipper
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if errors.Is(err, gzip.ErrHeader) {
			return nil, errorf("gzip: the file starts as gzip data but its header is invalid: the file is corrupted")
		}
		if err != nil {
			return nil, gzipError(err)
		}
		gz = &gunzipper{zr: zr}
		src = gz
	}
	in := &window{r: src, line: 1, col: 1, limit: maxValue}
	rd := &reader{dec: json.NewDecoder(in), in: in}
	rd.dec.DisallowUnknownFields()
	c, err := rd.read()
	if err != nil && gz != nil && !errors.Is(err, errValueTooLarge) && !errors.Is(err, errTooMuchHeld) {
		// a changed byte shows as bad JSON before the checksum at the
		// end says the file is corrupted: that says more
		var ce *Error
		if _, derr := io.Copy(io.Discard, gz); errors.As(derr, &ce) {
			return nil, ce
		}
	}
	if err != nil {
		return nil, err
	}
	if err := validate(c); err != nil {
		return nil, err
	}
	return c, nil
}

// readError is an error of the reader under the JSON (a read error, a
// damaged gzip stream), told from a JSON error.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// gunzipper decompresses, saying what a gzip error means for the file
// (gzipError) and refusing more than maxUnzipped bytes.
type gunzipper struct {
	zr *gzip.Reader
	n  int64
}

func (g *gunzipper) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	g.n += int64(n)
	if g.n > maxUnzipped {
		return n, &readError{errorf("gzip: decompresses to more than %d bytes", int64(maxUnzipped))}
	}
	if err != nil && err != io.EOF {
		err = &readError{gzipError(err)}
	}
	return n, err
}

// maxValue bounds the bytes the decoder may read for one value (a header
// field, an entry, a key): encoding/json holds a value whole, and a
// 400 KB gzip file whose "spec" was a 400 MB string took 1.4 GB of memory
// (session 31's fuzzing), a 4 MB one would take 14 GB. A certificate's
// header values are small (the model's text, the largest, is some KB to
// a few MB), its entries and states are read one at a time.
const maxValue = 1 << 26

// maxHeader bounds the bytes of the header's values together (every
// field but entries, safe_states and unsafe_states): without it sixteen
// fields of just under maxValue each were read into memory (1 GiB of
// strings, several times that while encoding/json decoded them).
const maxHeader = maxValue

// MaxHeld bounds the memory, in bytes, that the entries and states read
// are estimated to take (an Entry, its state's integers and its label):
// the reading holds them all, and a gzip file of 16 GiB of short entries
// ({"s":[0]},), a few MB compressed, asked for some 120 GB (a 107 KB
// file of 5 million took 1.1 GB). The process takes about three times the
// estimate. The bound is above what the largest certificate measured
// needs (a 16,000,000-state bfs certificate, safety/FIGURES.md: 1.2 GB by
// this estimate); vigil cert check --max-entry-memory raises it.
var MaxHeld int64 = 2 << 30

// errValueTooLarge is a window's error past maxValue bytes of one value.
var errValueTooLarge = errors.New("a value too large")

// errTooMuchHeld is the error of a certificate whose entries and states
// take more than MaxHeld bytes.
var errTooMuchHeld = errors.New("entries too large")

// IsTooMuchHeld reports whether err is Read's refusal of entries and
// states beyond MaxHeld (--max-entry-memory): a limit of the checker's,
// not a fault of the certificate, so the check has no verdict.
func IsTooMuchHeld(err error) bool { return errors.Is(err, errTooMuchHeld) }

// winSize is how much of the JSON read last a window keeps, to turn a
// byte offset into a line and column.
const winSize = 1 << 20

// window passes r's bytes on, keeping the last winSize to 2*winSize of
// them and the line and column where they start.
type window struct {
	r         io.Reader
	buf       []byte
	base      int64 // the offset of buf[0]
	line, col int   // where buf[0] is
	// value counts the bytes read since the reader began its current
	// value (reader.decode, reader.token): past limit, Read fails
	value int64
	// limit is the bytes the current value may take: maxValue, or for
	// a header field what is left of maxHeader (reader.decode)
	limit int64
}

func (w *window) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	w.value += int64(n)
	if w.value > w.limit && (err == nil || err == io.EOF) {
		// the bytes read are passed on (the stream stays whole for a
		// reader that goes on: the decoder's More swallows errors)
		err = errValueTooLarge
	}
	w.buf = append(w.buf, p[:n]...)
	if len(w.buf) > 2*winSize {
		drop := len(w.buf) - winSize
		w.line, w.col = advance(w.line, w.col, w.buf[:drop])
		w.base += int64(drop)
		w.buf = append(w.buf[:0], w.buf[drop:]...)
	}
	if err != nil && err != io.EOF {
		var re *readError
		if !errors.As(err, &re) {
			err = &readError{err}
		}
	}
	return n, err
}

func advance(line, col int, b []byte) (int, int) {
	for _, c := range b {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// at says where the byte at offset off is: "line L, column C", or "byte
// off" when the window no longer holds it.
func (w *window) at(off int64) string {
	if off < w.base || off > w.base+int64(len(w.buf)) {
		return fmt.Sprintf("byte %d", off)
	}
	line, col := advance(w.line, w.col, w.buf[:off-w.base])
	return fmt.Sprintf("line %d, column %d", line, col)
}

// afterSep is where the decoder starts scanning a value asked for at
// off: after the comma or colon before it (and the white space before
// that), else at off.
func (w *window) afterSep(off int64) int64 {
	for o := off; o >= w.base && o < w.base+int64(len(w.buf)); o++ {
		switch w.buf[o-w.base] {
		case ' ', '\t', '\r', '\n':
			continue
		case ',', ':':
			return o + 1
		}
		break
	}
	return off
}

// next is the offset of the first byte from off on that is neither white
// space nor a comma: where the value after off starts.
func (w *window) next(off int64) int64 {
	for off >= w.base && off < w.base+int64(len(w.buf)) {
		switch w.buf[off-w.base] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// reader decodes a certificate's JSON object one member at a time.
type reader struct {
	dec *json.Decoder
	in  *window
	// slab is the block the next state is copied into
	slab []int
	// scanned is the decoder's count of the bytes of the values it
	// decoded (decode)
	scanned int64
	// valueAt is the offset where the value decode or token reads last
	// starts, kept for the error of one too long (errValueTooLarge), by
	// which the window no longer holds its start
	valueAt int64
	// header is the bytes the header's values took so far (decodeHeader)
	header int64
	// held is the estimated memory of the entries and states read so
	// far (hold), labels the entries' labels, each held once
	held   int64
	labels map[string]string
}

// decodeHeader decodes the header field where into v, within what is left
// of maxHeader bytes for the header's values together.
func (rd *reader) decodeHeader(where string, v any) error {
	before := rd.dec.InputOffset()
	// the window counts what the decoder reads ahead too: a slack of
	// winSize, and the exact count below decides
	rd.in.limit = min(maxValue, maxHeader-rd.header+winSize)
	err := rd.decode(where, v)
	rd.in.limit = maxValue
	rd.header += rd.dec.InputOffset() - before
	if err == nil && rd.header <= maxHeader {
		return nil
	}
	if err != nil && rd.in.value > maxValue {
		return err // the field alone is too long, and err says so
	}
	if err == nil || errors.Is(err, errValueTooLarge) {
		return &Error{Msg: fmt.Sprintf("%s: the header's fields (all but entries, safe_states and unsafe_states) are longer than %d MiB together, by the field that starts at %s; a certificate's header is short: the file is not a certificate vigil wrote", where, maxHeader>>20, rd.in.at(rd.valueAt)), Err: errValueTooLarge}
	}
	return err
}

// hold adds n bytes to the estimated memory of the entries and states
// read (where names the one read last), refusing more than MaxHeld.
func (rd *reader) hold(where string, n int64) error {
	rd.held += n
	if rd.held <= MaxHeld {
		return nil
	}
	return &Error{Msg: fmt.Sprintf("%s, which ends at %s: the entries and states read take more than %d MiB of memory (by vigil's estimate: each entry %d bytes, its state 8 bytes per variable); vigil cert check holds them all, and --max-entry-memory raises the bound", where, rd.in.at(rd.dec.InputOffset()), MaxHeld>>20, entryBytes), Err: errTooMuchHeld}
}

// entryBytes is the memory one Entry takes, with its byte in entries'
// list of the fields it has.
const entryBytes = int64(gounsafe.Sizeof(Entry{})) + 1

// label returns l, one copy of each of the first 4096 labels read: a
// label decoded into each entry held its own copy.
func (rd *reader) label(l string) string {
	if c, ok := rd.labels[l]; ok {
		return c
	}
	if rd.labels == nil {
		rd.labels = map[string]string{}
	}
	if len(rd.labels) < 4096 {
		rd.labels[l] = l
	}
	return l
}

// decode decodes the next value into v. The offset of a syntax error in
// it is the decoder's count of the bytes it scanned in its values, not
// the stream's offset (tokens are not counted): scanned keeps that count,
// so that the error's place in the stream is known.
func (rd *reader) decode(where string, v any) error {
	before := rd.dec.InputOffset()
	rd.in.value, rd.valueAt = 0, rd.in.next(before)
	err := rd.dec.Decode(v)
	from := rd.in.afterSep(before)
	if err == nil {
		rd.scanned += rd.dec.InputOffset() - from
		return nil
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		prefix := ""
		if where != "" {
			prefix = where + ": "
		}
		off := from + syn.Offset - rd.scanned
		if msg := syn.Error(); strings.HasPrefix(msg, "expected ") || strings.HasPrefix(msg, "not at beginning of value") {
			// the decoder's own check of the separator before the
			// value: its offset is the stream's, at the character
			off = syn.Offset + 1
		}
		return errorf("%sinvalid JSON at %s: %s", prefix, rd.in.at(off), syntaxMsg(syn))
	}
	return rd.fail(where, before, err)
}

// token reads the next token, counting the bytes of a scalar (a key, a
// string, a number) in scanned: the decoder reads those as values.
//
// A syntax error's offset is made the stream's, as the count of the
// bytes up to the bad character (as json.Unmarshal's): the decoder gives
// a scalar's error as its count of value bytes (as in decode), and an
// error of the structure around the tokens at the character.
func (rd *reader) token() (json.Token, error) {
	before := rd.dec.InputOffset()
	rd.in.value, rd.valueAt = 0, rd.in.next(before)
	t, err := rd.dec.Token()
	if _, delim := t.(json.Delim); err == nil && !delim {
		rd.scanned += rd.dec.InputOffset() - rd.in.next(before)
	}
	var syn *json.SyntaxError
	if err != nil && errors.As(err, &syn) {
		s := *syn
		switch {
		case strings.HasSuffix(syn.Error(), " looking for beginning of value") && !strings.Contains(syn.Error(), "character ','") && !strings.Contains(syn.Error(), "character ':'"):
			// the token's first character, whether the scanner or
			// the token check found it
			s.Offset = rd.in.next(before) + 1
		case scannerError(syn):
			s.Offset = rd.in.next(before) + syn.Offset - rd.scanned
		default:
			s.Offset = syn.Offset + 1
		}
		err = &s
	}
	return t, err
}

// scannerError reports whether syn, an error of Token, is one of the
// decoder's scanner inside a scalar (its offset counts the bytes of the
// values scanned), not one of its checks of the tokens around values
// (whose offset is the stream's, at the bad character).
func scannerError(syn *json.SyntaxError) bool {
	msg := syn.Error()
	if !strings.HasPrefix(msg, "invalid character ") {
		return true
	}
	if strings.HasSuffix(msg, "'") {
		return false // a check's, where an object's first key is wanted
	}
	// the token checks' contexts, after the quoted character
	for _, ctx := range []string{" looking for beginning of value", " after top-level value", " after array element",
		" looking for beginning of object key string", " after object key", " after object key:value pair"} {
		if strings.HasSuffix(msg, ctx) {
			return false
		}
	}
	return true
}

// state copies s into the current block of memory (a state is a few
// ints: one allocation each made millions of them).
func (rd *reader) state(s []int) []int {
	if len(s) > cap(rd.slab)-len(rd.slab) {
		// blocks grow with what was read, to 64 Ki ints: a small
		// certificate (the conformance suites read thousands) costs
		// no large block
		rd.slab = make([]int, 0, max(len(s), min(2*cap(rd.slab), 1<<16), 64))
	}
	n := len(rd.slab)
	rd.slab = append(rd.slab, s...)
	return rd.slab[n:len(rd.slab):len(rd.slab)]
}

// fail describes err, an error of the decoder: where is the member or
// element being read ("" for the object itself), start the offset where
// its value starts (-1: the decoder's own offset is right).
func (rd *reader) fail(where string, start int64, err error) error {
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	if errors.Is(err, errValueTooLarge) {
		return &Error{Msg: fmt.Sprintf("%sthe value that starts at %s is longer than %d MiB; a certificate's values are short (vigil reads its entries and states one at a time): the file is not a certificate vigil wrote", prefix, rd.in.at(rd.valueAt), maxValue>>20), Err: errValueTooLarge}
	}
	var re *readError
	if errors.As(err, &re) {
		var ce *Error
		if errors.As(re.err, &ce) {
			return ce
		}
		return errorf("%v", re.err)
	}
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if where == "" && rd.in.base == 0 && len(rd.in.buf) == 0 {
			return errorf("empty input; want a JSON certificate")
		}
		return errorf("%sthe JSON ends early at %s (is the file cut short?)", prefix, rd.in.at(rd.dec.InputOffset()))
	case errors.As(err, &syn) && start < 0:
		return errorf("%sinvalid JSON at %s: %s", prefix, rd.in.at(syn.Offset), syntaxMsg(syn))
	case errors.As(err, &syn):
		// the decoder's offset inside a value decoded after tokens is not
		// the stream's: name where the value starts
		return errorf("%sinvalid JSON in the value that starts at %s: %s", prefix, rd.in.at(rd.in.next(start)), syntaxMsg(syn))
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		t := *typ
		t.Field = strings.Trim(where+"."+typ.Field, ".")
		t.Offset = 0
		msg := jsonerr.Describe(nil, &t)
		if start >= 0 {
			// where the value starts, first, as vigil's positioned
			// messages have it
			msg = rd.in.at(rd.in.next(start)) + ": " + msg
		}
		return errorf("%s", msg)
	}
	msg := jsonerr.Describe(nil, err)
	if start >= 0 {
		msg = rd.in.at(rd.in.next(start)) + ": " + msg
	}
	return errorf("%s%s", prefix, msg)
}

func syntaxMsg(syn *json.SyntaxError) string {
	msg := strings.TrimPrefix(syn.Error(), "invalid character ")
	if msg != syn.Error() {
		msg = "unexpected character " + msg
	}
	return msg
}

func tokenNoun(t json.Token) string {
	switch t := t.(type) {
	case json.Delim:
		return map[json.Delim]string{'{': "an object", '[': "an array", '}': "the end of an object", ']': "the end of an array"}[t]
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "true or false"
	case nil:
		return "null"
	}
	return "a value of another kind"
}

// read reads the certificate's object and nothing after it.
func (rd *reader) read() (*Certificate, error) {
	var w wire
	fields := map[string]any{
		"format": &w.Format, "version": &w.Version, "kind": &w.Kind, "spec": &w.Spec, "cert_dir": &w.CertDir,
		"defines": &w.Defines, "plaja": &w.Plaja, "argmax": &w.ArgMax, "model": &w.Model, "property": &w.Property,
		"policy": &w.Policy, "policy_sha256": &w.PolicySHA256, "model_sha256": &w.ModelSHA256, "radius": &w.Radius,
		"vars": &w.Vars, "state": &w.State,
	}
	t, err := rd.token()
	if errors.Is(err, io.EOF) {
		return nil, errorf("empty input; want a JSON certificate")
	}
	if err != nil {
		return nil, rd.fail("", -1, err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errorf("%s: the top-level value: got %s, want an object (a JSON certificate)", rd.in.at(rd.dec.InputOffset()), tokenNoun(t))
	}
	var entries []Entry
	var has []uint8 // per entry: which of b, label, rank it has
	var safeStates, unsafeStates [][]int
	seen := map[string]bool{}
	for rd.dec.More() {
		start := rd.dec.InputOffset()
		t, err := rd.token()
		if err != nil {
			return nil, rd.fail("", -1, err)
		}
		key, _ := t.(string)
		if seen[key] {
			// encoding/json would keep the last (and merge two defines):
			// a certificate whose two copies of a field say different
			// things is refused, not read one way
			return nil, errorf("field %q appears a second time at %s; a certificate names each field once", key, rd.in.at(rd.in.next(start)))
		}
		seen[key] = true
		switch key {
		case "entries":
			if entries, has, err = rd.entries(); err != nil {
				return nil, err
			}
			continue
		case "safe_states", "unsafe_states":
			ss, err := rd.states(key)
			if err != nil {
				return nil, err
			}
			if key == "safe_states" {
				safeStates = ss
			} else {
				unsafeStates = ss
			}
			continue
		}
		switch key {
		case "defines", "plaja":
			if err := rd.object(key, &w); err != nil {
				return nil, err
			}
			continue
		}
		ptr, ok := fields[key]
		if !ok {
			return nil, errorf("unknown field %q at %s; check its spelling", key, rd.in.at(rd.in.next(start)))
		}
		if err := rd.decodeHeader(key, ptr); err != nil {
			return nil, err
		}
	}
	if _, err := rd.token(); err != nil {
		return nil, rd.fail("", -1, err)
	}
	if _, err := rd.token(); !errors.Is(err, io.EOF) {
		if err != nil {
			var re *readError
			if errors.As(err, &re) {
				return nil, rd.fail("", -1, err)
			}
		}
		return nil, errorf("data after the certificate's JSON object")
	}
	w.SafeStates, w.UnsafeStates = safeStates, unsafeStates
	return certificate(&w, entries, has)
}

// object reads the header field name, defines or plaja, an object (or
// null) into w, member by member: encoding/json keeps the last of two
// members of one name, so {"L": "5", "L": "6"} was read as L=6 and a
// header whose two copies of a constant said different things was
// checked one way. A member named twice is refused; plaja's unknown
// members are, as every unknown field.
func (rd *reader) object(name string, w *wire) error {
	start := rd.dec.InputOffset()
	t, err := rd.token()
	if err != nil {
		return rd.fail(name, -1, err)
	}
	if t == nil {
		return nil // null, as missing
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return errorf("%s at %s: got %s, want an object", name, rd.in.at(rd.in.next(start)), tokenNoun(t))
	}
	seen := map[string]bool{}
	if name == "defines" {
		w.Defines = map[string]string{}
	} else {
		w.Plaja = &Plaja{}
	}
	for rd.dec.More() {
		at := rd.dec.InputOffset()
		t, err := rd.token()
		if err != nil {
			return rd.fail(name, -1, err)
		}
		key, _ := t.(string)
		if rd.header += int64(len(key)); rd.header > maxHeader {
			return &Error{Msg: fmt.Sprintf("%s: the header's fields (all but entries, safe_states and unsafe_states) are longer than %d MiB together, by the key that starts at %s; a certificate's header is short: the file is not a certificate vigil wrote", name, maxHeader>>20, rd.in.at(rd.in.next(at))), Err: errValueTooLarge}
		}
		if seen[key] {
			return errorf("%s: %q appears a second time at %s; a certificate names each once", name, key, rd.in.at(rd.in.next(at)))
		}
		seen[key] = true
		where := name + "." + key
		var ptr any
		switch {
		case name == "defines":
			var v string
			if err := rd.decodeHeader(where, &v); err != nil {
				return err
			}
			w.Defines[key] = v
			continue
		case key == "start":
			ptr = &w.Plaja.Start
		case key == "unsafe":
			ptr = &w.Plaja.Unsafe
		case key == "policy_file":
			ptr = &w.Plaja.PolicyFile
		default:
			return errorf("unknown field %q of plaja at %s; check its spelling", key, rd.in.at(rd.in.next(at)))
		}
		if err := rd.decodeHeader(where, ptr); err != nil {
			return err
		}
	}
	if _, err := rd.token(); err != nil {
		return rd.fail(name, -1, err)
	}
	return nil
}

// certificate checks the header w, and the entries against its kind, and
// makes the certificate.
func certificate(w *wire, entries []Entry, has []uint8) (*Certificate, error) {
	if w.Format != FormatName {
		return nil, errorf("format %q, want %q", w.Format, FormatName)
	}
	if w.Version != Version {
		return nil, errorf("version %d is not supported (this vigil reads version %d)", w.Version, Version)
	}
	radius, err := parseRadius(w.Radius)
	if err != nil {
		return nil, err
	}
	if w.Vars == nil {
		return nil, errorf("missing vars")
	}
	if w.State == nil && w.Kind != Invariant && w.Kind != Starts {
		return nil, errorf("missing state")
	}
	if w.Kind == Starts && w.State != nil {
		return nil, errorf(`a certificate of kind "starts" lists its states under safe_states and unsafe_states, not state`)
	}
	if w.Kind != Starts && (w.SafeStates != nil || w.UnsafeStates != nil) {
		return nil, errorf(`safe_states and unsafe_states belong to certificates of kind "starts", not %q`, w.Kind)
	}
	if entries == nil {
		entries = []Entry{}
	}
	for i := range entries {
		if err := checkEntry(w.Kind, i, has[i]); err != nil {
			return nil, err
		}
	}
	return &Certificate{
		Format: w.Format, Version: w.Version, Kind: w.Kind, Spec: w.Spec, CertDir: w.CertDir,
		Defines: w.Defines, Plaja: w.Plaja, ArgMax: w.ArgMax,
		Model: w.Model, Property: w.Property, Policy: w.Policy, PolicySHA256: w.PolicySHA256, ModelSHA256: w.ModelSHA256,
		Radius: radius, Vars: w.Vars, State: w.State, SafeStates: w.SafeStates, UnsafeStates: w.UnsafeStates,
		Entries: entries,
	}, nil
}

// Which fields an entry has, in the bits of the byte entries keeps for
// it (the kind, which says which it must have, may come after them).
const (
	hasB uint8 = 1 << iota
	hasLabel
	hasRank
)

// entries reads the array of entries, one at a time, with which fields
// each has.
func (rd *reader) entries() ([]Entry, []uint8, error) {
	start := rd.dec.InputOffset()
	t, err := rd.token()
	if err != nil {
		return nil, nil, rd.fail("entries", -1, err)
	}
	if t == nil {
		return nil, nil, nil // "entries": null, as missing
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return nil, nil, errorf("entries at %s: got %s, want an array of objects", rd.in.at(rd.in.next(start)), tokenNoun(t))
	}
	out, has := []Entry{}, []uint8{}
	for i := 0; rd.dec.More(); i++ {
		where := fmt.Sprintf("entries[%d]", i)
		var we wireEntry
		if err := rd.decode(where, &we); err != nil {
			return nil, nil, err
		}
		if we.S == nil {
			return nil, nil, errorf("%s: missing s", where)
		}
		n := entryBytes + 8*int64(len(we.S))
		if we.Label != nil {
			if _, ok := rd.labels[*we.Label]; !ok {
				n += int64(len(*we.Label))
			}
		}
		if err := rd.hold(where, n); err != nil {
			return nil, nil, err
		}
		e, h := Entry{S: rd.state(we.S)}, uint8(0)
		if we.B != nil {
			e.B, h = *we.B, h|hasB
		}
		if we.Label != nil {
			e.Label, h = rd.label(*we.Label), h|hasLabel
		}
		if we.Rank != nil {
			e.Rank, h = *we.Rank, h|hasRank
		}
		out, has = append(out, e), append(has, h)
	}
	if _, err := rd.token(); err != nil {
		return nil, nil, rd.fail("entries", -1, err)
	}
	return out, has, nil
}

// checkEntry checks that entry i has the fields kind asks for.
func checkEntry(kind Kind, i int, h uint8) error {
	b, label, rank := h&hasB != 0, h&hasLabel != 0, h&hasRank != 0
	switch {
	case kind == Invariant && h != 0:
		return errorf("entries[%d]: an invariant certificate's entry is a state alone: {\"s\": [...]}", i)
	case kind == Invariant:
		return nil
	case !b:
		return errorf("entries[%d]: missing b (write 0 for radius inf)", i)
	case kind == Safe && rank:
		return errorf("entries[%d]: a safe certificate's entry has a label, not a rank", i)
	case kind == Safe && !label:
		return errorf("entries[%d]: missing label", i)
	case kind == Starts && label == rank:
		return errorf("entries[%d]: an entry of a starts certificate has a label (safe) or a rank (not safe), one of them", i)
	case kind == Unsafe && label:
		return errorf("entries[%d]: an unsafe certificate's entry has a rank, not a label", i)
	case kind == Unsafe && !rank:
		return errorf("entries[%d]: missing rank", i)
	}
	return nil
}

// states reads the array of states name (safe_states, unsafe_states) one
// at a time.
func (rd *reader) states(name string) ([][]int, error) {
	start := rd.dec.InputOffset()
	t, err := rd.token()
	if err != nil {
		return nil, rd.fail(name, -1, err)
	}
	if t == nil {
		return nil, nil
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return nil, errorf("field %s at %s: got %s, want an array of arrays of integers", name, rd.in.at(rd.in.next(start)), tokenNoun(t))
	}
	out := [][]int{}
	var s []int
	for i := 0; rd.dec.More(); i++ {
		s = s[:0]
		if err := rd.decode(fmt.Sprintf("%s[%d]", name, i), &s); err != nil {
			return nil, err
		}
		if err := rd.hold(fmt.Sprintf("%s[%d]", name, i), 24+8*int64(len(s))); err != nil {
			return nil, err
		}
		if s == nil {
			out = append(out, nil)
			continue
		}
		out = append(out, rd.state(s))
	}
	if _, err := rd.token(); err != nil {
		return nil, rd.fail(name, -1, err)
	}
	return out, nil
}

// ReadContext is Read, stopped when ctx ends: the reading of a
// certificate of millions of states takes tens of seconds, and Ctrl-C or
// --timeout went unheeded until its end. The error is then ctx's
// (errors.Is(err, ctx.Err())).
func ReadContext(ctx context.Context, r io.Reader) (*Certificate, error) {
	c, err := Read(&ctxReader{ctx, r})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return c, err
}

// ctxReader reads r until ctx ends (checked once a read: the reader
// above it reads 16 KiB at a time).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
