// Package lsp is vigil's Language Server Protocol server for .spec files:
// diagnostics on open and change (the checker's codes and ranges),
// formatting (vigil fmt), hover, go to definition, find references,
// completion of names, document symbols, renaming, and quick fixes for
// misspelt names. It speaks JSON-RPC 2.0 over
// a stream (stdio for `vigil lsp`) and keeps serving after a malformed
// message.
//
// The server is one loop: it reads a message, handles it to the end and
// writes the answers, so that diagnostics are published in the order the
// changes came. Each change re-checks the whole document (full text
// synchronisation): checking is fast enough (a 2,000-line spec in a few
// milliseconds, BenchmarkDiagnosticsAfterChange) that an incremental
// checker would buy nothing.
package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"vigil/internal/inputfile"
	"vigil/lang"
	// Network and ensemble policies, so that their files are checked as
	// vigil check checks them (policyFileDiags) by any program serving
	// LSP, not only by the vigil binary.
	_ "vigil/nn"
	"vigil/symbolic"
	_ "vigil/trees"
)

// Options configure a server.
type Options struct {
	// Defines override constants in every document, as -D does.
	Defines map[string]string
	// Version is the server version reported to the client.
	Version string
}

// ErrNoShutdown is returned by Serve when the client sent exit without a
// shutdown request first, or closed the stream without exit (the LSP
// specification asks for exit code 1 then).
var ErrNoShutdown = errors.New("lsp: the client ended the session without a shutdown request")

// Serve answers the LSP messages read from r on w until the client sends
// exit or closes r. It returns nil after shutdown and exit, ErrNoShutdown
// when the session ended otherwise, or the error that broke the stream.
func Serve(r io.Reader, w io.Writer, opts Options) error {
	s := newServer(w, opts)
	rd := &reader{r: bufio.NewReaderSize(r, 1<<16)}
	s.more = rd.more
	for {
		if !rd.more() {
			s.checkDeferred() // before waiting for the client
		}
		body, err := rd.read()
		var fe errFraming
		switch {
		case errors.As(err, &fe):
			s.replyError(nil, &respError{codeParseError, "parse error: " + fe.msg})
			continue
		case err == io.EOF:
			if s.shutdown {
				return nil
			}
			return ErrNoShutdown
		case err != nil:
			return fmt.Errorf("lsp: reading a message: %w", err)
		}
		if s.handle(body) {
			if s.shutdown {
				return nil
			}
			return ErrNoShutdown
		}
	}
}

// server holds the open documents.
type server struct {
	out         *writer
	opts        Options
	docs        map[string]*document // by URI
	initialized bool
	shutdown    bool
	// policyDiags caches the diagnostics of each network or ensemble
	// declaration (see policyFileDiags).
	policyDiags map[string]lang.Diagnostics
	// more reports whether another message is arriving (nil: never).
	more func() bool
}

// slowCheck is how long a document's check must have taken for a
// change followed at once by another message to wait: the changes are
// then checked together, once the messages stop or a message other than
// a change comes. A file that takes seconds to check (a model whose
// lowering is large) made every keystroke queue another check of
// seconds: typing ten characters kept the server busy for a minute,
// answering nothing, and published diagnostics of texts long gone.
var slowCheck = 300 * time.Millisecond

// checkLimit bounds a document's check: a file whose check would take
// longer (a model that expands to millions of terms) held the server,
// answering nothing, for as long, and again after every change. At the
// limit the check stops where the checker polls its context (between its
// phases, in the expansion of quantifiers, schemas and arrays, in
// lowering), and the document's diagnostic says so; navigation keeps
// what the parse gave. The checker does not poll inside the overflow
// warnings (W0306) of one expression: 24 levels of pred pK = pJ && pJ
// spend 24 s there, past the limit, once lowering is done in 1 s.
var checkLimit = 20 * time.Second

type logMessageParams struct {
	Type    int    `json:"type"` // 1 error, 2 warning, 3 info
	Message string `json:"message"`
}

// document is an open text document and what the checker learnt of it.
type document struct {
	uri     string
	path    string
	version int
	text    *text
	// lost says why the server no longer knows the client's text (a
	// change whose range is not one of the document); until a change
	// sends the whole text, or the document is opened again, requests
	// about it are refused rather than answered with positions of a text
	// the client does not have.
	lost string
	an   *lang.Analysis
	// good is the latest analysis whose file parsed, with its text: while
	// a syntax error is being typed, navigation uses it.
	good     *lang.Analysis
	goodText *text
	// took is how long the latest check took; deferred holds the text of
	// a change not checked yet (see slowCheck), until checkDeferred.
	took     time.Duration
	deferred *string
}

func newServer(w io.Writer, opts Options) *server {
	return &server{out: &writer{w: w}, opts: opts, docs: map[string]*document{}, policyDiags: map[string]lang.Diagnostics{}}
}

// handle processes one message body; it reports whether the session
// ended (exit).
func (s *server) handle(body []byte) (exit bool) {
	m, rerr := decodeMessage(body)
	if rerr != nil {
		var id json.RawMessage
		if m != nil && validID(m.ID) {
			id = m.ID
		}
		s.replyError(id, rerr)
		return false
	}
	if m.Method == "" {
		return false // a response to a request of ours: we send none
	}
	isRequest := len(m.ID) > 0
	if m.Method == "exit" {
		return true
	}
	if m.Method != "textDocument/didChange" {
		s.checkDeferred() // every other message sees checked texts
	}
	result, rerr := s.dispatch(m, isRequest)
	if !isRequest {
		if rerr != nil {
			// A notification has no answer; the client's log says what
			// was wrong with it.
			s.notify("window/logMessage", logMessageParams{Type: 1, Message: "vigil: " + m.Method + ": " + rerr.Message})
		}
		return false
	}
	if rerr != nil {
		s.replyError(m.ID, rerr)
		return false
	}
	s.reply(m.ID, result)
	return false
}

// dispatch runs a method; a panic in it is an internal error, answered
// as one, and the server goes on.
func (s *server) dispatch(m *message, isRequest bool) (result any, rerr *respError) {
	defer func() {
		if r := recover(); r != nil {
			result, rerr = nil, &respError{codeInternalError, fmt.Sprintf("internal error in %s: %v (a bug in vigil, please report it)\n%s", m.Method, r, debug.Stack())}
		}
	}()
	if !s.initialized && m.Method != "initialize" {
		if !isRequest {
			return nil, nil // notifications before initialize are dropped
		}
		return nil, &respError{codeServerNotInitialized, "the server is not initialized: send initialize first"}
	}
	if s.shutdown && isRequest && m.Method != "shutdown" {
		return nil, &respError{codeInvalidRequest, "the server is shutting down: only exit is accepted"}
	}
	h, ok := handlers[m.Method]
	if !ok {
		if isRequest {
			return nil, &respError{codeMethodNotFound, "method not found: " + m.Method}
		}
		return nil, nil // unknown notifications ($/cancelRequest, ...) are ignored
	}
	return h(s, m.Params)
}

type handler func(s *server, params json.RawMessage) (any, *respError)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"initialize":                  (*server).initialize,
		"initialized":                 nop,
		"shutdown":                    (*server).shutdownReq,
		"textDocument/didOpen":        (*server).didOpen,
		"textDocument/didChange":      (*server).didChange,
		"textDocument/didClose":       (*server).didClose,
		"textDocument/didSave":        (*server).didSave,
		"textDocument/formatting":     (*server).formatting,
		"textDocument/hover":          (*server).hover,
		"textDocument/definition":     (*server).definition,
		"textDocument/references":     (*server).references,
		"textDocument/completion":     (*server).completion,
		"textDocument/documentSymbol": (*server).documentSymbol,
		"textDocument/rename":         (*server).rename,
		"textDocument/codeAction":     (*server).codeAction,
	}
}

func nop(*server, json.RawMessage) (any, *respError) { return nil, nil }

func (s *server) reply(id json.RawMessage, result any) {
	_ = s.out.write(response{JSONRPC: "2.0", ID: id, Result: result})
}

func (s *server) replyError(id json.RawMessage, e *respError) {
	if id == nil {
		id = json.RawMessage("null")
	}
	_ = s.out.write(errorResponse{JSONRPC: "2.0", ID: id, Error: e})
}

func (s *server) notify(method string, params any) {
	_ = s.out.write(notification{JSONRPC: "2.0", Method: method, Params: params})
}

// decode unmarshals params, or says which request was malformed.
func decode(params json.RawMessage, v any) *respError {
	if t := bytes.TrimSpace(params); len(t) == 0 || string(t) == "null" {
		// null too: it unmarshals into the zero value without an error,
		// and hover then said "the document is not open: " (no URI)
		return &respError{codeInvalidParams, "invalid params: none given"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &respError{codeInvalidParams, "invalid params: " + err.Error()}
	}
	return nil
}

// ---- lifecycle ---------------------------------------------------------------

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type serverCapabilities struct {
	PositionEncoding           string            `json:"positionEncoding"`
	TextDocumentSync           textDocumentSync  `json:"textDocumentSync"`
	HoverProvider              bool              `json:"hoverProvider"`
	DefinitionProvider         bool              `json:"definitionProvider"`
	ReferencesProvider         bool              `json:"referencesProvider"`
	DocumentSymbolProvider     bool              `json:"documentSymbolProvider"`
	DocumentFormattingProvider bool              `json:"documentFormattingProvider"`
	CompletionProvider         completionOptions `json:"completionProvider"`
	RenameProvider             bool              `json:"renameProvider"`
	CodeActionProvider         codeActionOptions `json:"codeActionProvider"`
}

type codeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type textDocumentSync struct {
	OpenClose bool `json:"openClose"`
	Change    int  `json:"change"` // 1: full text
	Save      bool `json:"save"`   // send didSave (didSave re-checks the open documents)
}

type completionOptions struct {
	ResolveProvider bool `json:"resolveProvider"`
}

func (s *server) initialize(json.RawMessage) (any, *respError) {
	if s.initialized {
		return nil, &respError{codeInvalidRequest, "initialize was already received"}
	}
	s.initialized = true
	return initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding:           "utf-16",
			TextDocumentSync:           textDocumentSync{OpenClose: true, Change: 1, Save: true},
			HoverProvider:              true,
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			RenameProvider:             true,
			CodeActionProvider:         codeActionOptions{CodeActionKinds: []string{"quickfix"}},
		},
		ServerInfo: serverInfo{Name: "vigil", Version: s.opts.Version},
	}, nil
}

func (s *server) shutdownReq(json.RawMessage) (any, *respError) {
	s.shutdown = true
	return nil, nil
}

// ---- documents ---------------------------------------------------------------

type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument   textDocumentItem `json:"textDocument"`
	ContentChanges []contentChange  `json:"contentChanges"`
}

// contentChange is a whole new text (Range nil) or a replacement of a
// range; clients must send whole texts (we ask for change kind 1), but
// ranges are applied too.
type contentChange struct {
	Range *Range `json:"range"`
	Text  string `json:"text"`
}

func (s *server) didOpen(params json.RawMessage) (any, *respError) {
	var p didOpenParams
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	if p.TextDocument.URI == "" {
		return nil, &respError{codeInvalidParams, "invalid params: textDocument.uri is empty"}
	}
	d := &document{uri: p.TextDocument.URI, path: uriPath(p.TextDocument.URI), version: p.TextDocument.Version}
	s.docs[d.uri] = d
	s.update(d, p.TextDocument.Text)
	return nil, nil
}

func (s *server) didChange(params json.RawMessage) (any, *respError) {
	var p didChangeParams
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, &respError{codeInvalidParams, "didChange for a document that is not open: " + p.TextDocument.URI}
	}
	src, lost := d.text.src, d.lost
	if d.deferred != nil {
		src = *d.deferred // a change not checked yet
	}
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			src, lost = ch.Text, ""
			continue
		}
		if lost != "" {
			continue // a change of a text we do not have
		}
		var err error
		if src, err = applyChange(src, *ch.Range, ch.Text); err != nil {
			lost = fmt.Sprintf("change %d of version %d: %v", i+1, p.TextDocument.Version, err)
		}
	}
	d.version = p.TextDocument.Version
	if lost != "" {
		d.deferred = nil
		if d.lost == "" {
			s.notify("window/showMessage", logMessageParams{Type: 1, Message: fmt.Sprintf("vigil lost track of %s: %s. Close and reopen it.", d.path, lost)})
		}
		d.lost = lost
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: d.version, Diagnostics: []diagnostic{{
			Severity: 1, Source: "vigil", Message: "vigil lost track of this document's text (" + lost + "); close and reopen it"}}})
		return nil, nil
	}
	d.lost = ""
	if d.took >= slowCheck && s.more != nil && s.more() {
		d.deferred = &src
		return nil, nil
	}
	d.deferred = nil
	s.update(d, src)
	return nil, nil
}

// checkDeferred checks the documents whose changes wait (in the order of
// their URIs) and publishes their diagnostics.
func (s *server) checkDeferred() {
	var uris []string
	for uri, d := range s.docs {
		if d.deferred != nil {
			uris = append(uris, uri)
		}
	}
	sort.Strings(uris)
	for _, uri := range uris {
		d := s.docs[uri]
		src := *d.deferred
		d.deferred = nil
		s.update(d, src)
	}
}

// maxChangeWork bounds the bytes a didChange may make the server copy
// (each range change copies the document): range changes are for clients
// that ignore the full synchronisation this server asks for, and a
// million of them on a 10 MB document would take hours.
const maxChangeWork = 1 << 30

// applyChange replaces a range of src, as the LSP specification defines
// it: a character past its line's end means the line's end (not its line
// break); a range whose start lies after its end, a negative position, or
// a line past the document's last is not one of this document, and is
// refused rather than guessed at.
func applyChange(src string, r Range, repl string) (string, error) {
	if len(src)+len(repl) > maxChangeWork {
		return "", fmt.Errorf("a range change of a document of %d bytes is more than this server copies; send the whole text (the server asks for full synchronisation)", len(src))
	}
	t := newText(src)
	for _, p := range []Position{r.Start, r.End} {
		switch {
		case p.Line < 0 || p.Character < 0:
			return "", fmt.Errorf("position %d:%d is negative", p.Line, p.Character)
		case p.Line >= t.lsp.count():
			return "", fmt.Errorf("line %d is past the document's last line, %d", p.Line, t.lsp.count()-1)
		}
	}
	if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		return "", fmt.Errorf("the range %d:%d-%d:%d starts after its end", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	a, b := t.offset(r.Start), t.offset(r.End)
	return src[:a] + repl + src[b:], nil
}

// didSave re-checks every open document: a document is checked with the
// files it imports (and its network files) as they are on disk, and a
// save may have changed one. Without it, a.spec kept showing the error of
// an imported b.spec fixed and saved since, until a.spec itself changed,
// while vigil check a.spec passed.
func (s *server) didSave(params json.RawMessage) (any, *respError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	uris := make([]string, 0, len(s.docs))
	for uri, d := range s.docs {
		if d.lost == "" {
			uris = append(uris, uri)
		}
	}
	sort.Strings(uris)
	for _, uri := range uris {
		d := s.docs[uri]
		s.update(d, d.text.src)
	}
	return nil, nil
}

func (s *server) didClose(params json.RawMessage) (any, *respError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	if _, ok := s.docs[p.TextDocument.URI]; ok {
		delete(s.docs, p.TextDocument.URI)
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []diagnostic{}})
	}
	return nil, nil
}

// update re-checks a document with new text and publishes its
// diagnostics.
func (s *server) update(d *document, src string) {
	start := time.Now()
	defer func() { d.took = time.Since(start) }()
	d.text = newText(src)
	// The diagnostics vigil check gives the same text: the overflow
	// warnings (W0306) and the errors of network and ensemble files that
	// do not load or fit (E0509) too; without them the editor showed a
	// file clean that vigil check refused.
	ctx, cancel := context.WithTimeout(context.Background(), checkLimit)
	d.an = lang.Analyze(d.path, []byte(src), lang.Options{Defines: s.opts.Defines, OverflowWarnings: true, Context: ctx})
	if ctx.Err() != nil && len(d.an.Diags) == 1 && d.an.Diags[0].Code == "E0005" {
		// The checker stopped at the limit: say so, and why, rather than
		// "interrupted" (the user interrupted nothing).
		d.an.Diags[0].Msg = fmt.Sprintf("vigil lsp stopped checking this file after %v, so it shows no other diagnostics (vigil check %s takes as long): the model expands to something very large (quantifiers over large ranges, arrays, action schemas)", checkLimit, filepath.Base(d.path))
	}
	cancel()
	if d.an.Model != nil {
		if pd := s.policyFileDiags(d.an.Model); pd.HasErrors() {
			d.an.Diags = append(d.an.Diags, pd...)
		}
	}
	if d.an.File != nil {
		d.good, d.goodText = d.an, d.text
	}
	s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: d.version, Diagnostics: s.diagnostics(d)})
}

// doc returns the open document named by params' textDocument.
func (s *server) doc(uri string) (*document, *respError) {
	if uri == "" {
		return nil, &respError{codeInvalidParams, "invalid params: textDocument.uri is missing"}
	}
	d := s.docs[uri]
	if d == nil {
		return nil, &respError{codeInvalidParams, "the document is not open: " + uri}
	}
	if d.lost != "" {
		return nil, &respError{codeRequestFailed, "vigil lost track of this document's text (" + d.lost + "): close and reopen it"}
	}
	return d, nil
}

// uriPath turns a file: URI into a path; other URIs (untitled:) are
// used as they are.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

// pathURI turns a path into a file: URI; an open document's own URI is
// used when the path is one's.
func (s *server) pathURI(path string) string {
	for _, d := range s.docs {
		if d.path == path {
			return d.uri
		}
	}
	if strings.Contains(path, ":") && !filepath.IsAbs(path) {
		return path // an untitled: URI used as a path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// viewOf converts positions in the file at path as the checker read it
// (from disk: an import is read there) to the client's: an open
// document's text when it has one, which may hold edits not saved yet
// (positions in them, or moved by them, do not map), else the file's.
func (s *server) viewOf(path string) (view, bool) {
	b, err := inputfile.ReadFile(path)
	for _, d := range s.docs {
		if d.path != path {
			continue
		}
		switch {
		case d.lost != "":
			return view{}, false // positions in it would be guesses
		case err != nil || string(b) == d.text.src:
			return view{t: d.text}, true
		}
		return newView(newText(string(b)), d.text), true
	}
	if err != nil {
		return view{}, false
	}
	return view{t: newText(string(b))}, true
}

// policyFileDiags is lang.PolicyFileDiagnostics, as vigil check runs it,
// one declaration at a time and remembered: loading a network on every
// keystroke would make typing wait for it. A declaration is loaded again
// when it, the model's variables or labels, or its files (size or
// modification time) change.
func (s *server) policyFileDiags(m *symbolic.Model) lang.Diagnostics {
	var out lang.Diagnostics
	vars := fmt.Sprint(m.Vars, m.Labels)
	for _, d := range m.Policies {
		if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
			continue // checked by the checker
		}
		key := fmt.Sprintf("%v|%s|%s|%s", *d, vars, fileStamp(d.File), fileStamp(d.Interface))
		pd, ok := s.policyDiags[key]
		if !ok {
			one := *m
			one.Policies = []*symbolic.PolicyDecl{d}
			pd = lang.PolicyFileDiagnostics(&one)
			if len(s.policyDiags) >= 256 {
				clear(s.policyDiags)
			}
			s.policyDiags[key] = pd
		}
		out = append(out, pd...)
	}
	return out
}

// fileStamp identifies a version of a file: its size and modification
// time ("" for no file, the error for one that cannot be read).
func fileStamp(path string) string {
	if path == "" {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
}
