package load

// A policy file with a network or a tree ensemble: the learned policy a
// user trained, tested in place of a declared one (vigil verify SPEC
// --policy-file NET). The file needs a binding of its inputs to the model's
// variables and of its outputs to labels; it takes the binding of a declared
// learned policy, or, when the model declares none, the model's variables in
// order as inputs and its labels in order as outputs.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"vigil/internal/inputfile"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/trees"
)

// PolicyFileKind tells whether path is a network (symbolic.KindNN) or a
// tree ensemble (symbolic.KindTrees), with learned true, or a PlaJA file (a
// .jani2nnet interface or a PA property file, which jani.Attach reads),
// with learned false. It reads the file's start and, for a JSON object,
// the names of its top-level members. Its errors name the file as
// --policy-file does.
func PolicyFileKind(path string) (symbolic.PolicyKind, bool, error) {
	if fi, err := os.Stat(path); err != nil {
		return "", false, fmt.Errorf("--policy-file: %v", err)
	} else if fi.IsDir() {
		return "", false, fmt.Errorf("--policy-file %s: a directory, not a file; give a network (.onnx, .nnet, vigil JSON), a tree ensemble (XGBoost JSON, LightGBM text, Veritas JSON) or a .jani2nnet interface", path)
	} else if !fi.Mode().IsRegular() {
		// A pipe (<(cat net.onnx)) or FIFO: the kind is sniffed from the
		// file's start, then the file is loaded and hashed, each a read of
		// its own; a pipe gives its bytes once, and a FIFO blocks.
		return "", false, fmt.Errorf("--policy-file %s: %s, not a regular file: vigil reads a policy file more than once (to tell its kind, load it and hash it into certificates); save it to a file and give that", path, inputfile.Special(fi))
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".onnx", ".nnet":
		return symbolic.KindNN, true, nil
	case ".jani2nnet":
		return "", false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("--policy-file: %v", err)
	}
	defer f.Close()
	head := make([]byte, 1<<16)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", false, fmt.Errorf("--policy-file: %v", err)
	}
	if bytes.HasPrefix(head[:n], []byte{0xEF, 0xBB, 0xBF}) {
		// Neither JSON nor LightGBM's text allows one: without this
		// error, a JSON file with one was read as LightGBM text ("not
		// a LightGBM text model").
		return "", false, fmt.Errorf("--policy-file %s: the file starts with a UTF-8 byte order mark (bytes EF BB BF), which neither JSON nor LightGBM's text format allows; save it without one", path)
	}
	t := bytes.TrimSpace(head[:n])
	if len(t) == 0 {
		return "", false, fmt.Errorf("--policy-file %s: the file is empty; give a network (.onnx, .nnet, vigil JSON), a tree ensemble (XGBoost JSON, LightGBM text, Veritas JSON) or a .jani2nnet interface", path)
	}
	if t[0] != '{' && t[0] != '[' {
		// Not JSON: LightGBM's text format (NNet and ONNX go by their
		// extension above).
		return symbolic.KindTrees, true, nil
	}
	if t[0] == '{' {
		// The top-level members decide, wherever they are in the file: a
		// JANI model's "properties" come after its automata, often past
		// the first 64 KiB.
		if keys, err := topLevelKeys(f); err == nil {
			switch {
			case keys["properties"], keys["input"] && keys["file"]:
				return "", false, nil // a PA property file (or a model with PA properties) or a policy interface
			case keys["automata"], keys["jani-version"]:
				return "", false, fmt.Errorf("--policy-file %s: the file is a JANI model without PA properties, not a policy; give a network (.onnx, .nnet, vigil JSON), a tree ensemble or a .jani2nnet interface (or a PA property file naming one)", path)
			case keys["learner"], keys["trees"]:
				return symbolic.KindTrees, true, nil // XGBoost or Veritas
			case keys["layers"], keys["format"]:
				// vigil's network JSON, whatever strings its values
				// hold (its loader then names a misspelt member).
				return symbolic.KindNN, true, nil
			}
		}
	}
	switch {
	case bytes.Contains(t, []byte(`"properties"`)), bytes.Contains(t, []byte(`"input"`)) && bytes.Contains(t, []byte(`"file"`)):
		return "", false, nil // a PA property file or a policy interface
	case bytes.Contains(t, []byte(`"learner"`)), bytes.Contains(t, []byte(`"trees"`)):
		return symbolic.KindTrees, true, nil
	}
	return symbolic.KindNN, true, nil // vigil's network JSON
}

// topLevelKeys reads the JSON object in f from its start and returns the
// names of its members, skipping their values without keeping them or
// decoding them: it scans the bytes for strings and brackets (the members'
// JSON is checked by the loader that reads the file). Session 31 replaced
// a json.Decoder read token by token, which took 2.5 s of CPU for a 48 MB
// XGBoost JSON, each time a command loaded its model (vigil faults loads
// it twice): five times the ensemble's own parse.
func topLevelKeys(f *os.File) (map[string]bool, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return scanTopLevelKeys(bufio.NewReaderSize(f, 1<<16))
}

// errNotObject is scanTopLevelKeys's error for what is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// scanTopLevelKeys is topLevelKeys over r.
func scanTopLevelKeys(r *bufio.Reader) (map[string]bool, error) {
	next := func() (byte, error) { // the next byte that is not white space
		for {
			c, err := r.ReadByte()
			if err != nil {
				return 0, err
			}
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c, nil
			}
		}
	}
	if c, err := next(); err != nil || c != '{' {
		return nil, errNotObject
	}
	keys := map[string]bool{}
	var key []byte
	for first := true; ; first = false {
		c, err := next()
		if err != nil {
			return nil, err
		}
		if c == '}' && first {
			return keys, nil
		}
		if c != '"' {
			return nil, errNotObject
		}
		key = append(key[:0], '"')
		if key, err = scanString(r, key); err != nil {
			return nil, err
		}
		var k string
		if err := json.Unmarshal(key, &k); err != nil {
			return nil, err
		}
		keys[k] = true
		if c, err = next(); err != nil || c != ':' {
			return nil, errNotObject
		}
		if c, err = next(); err != nil {
			return nil, err
		}
		if c, err = skipJSONValue(r, c); err != nil {
			return nil, err
		}
		switch c {
		case ' ', '\t', '\n', '\r', 0:
			if c, err = next(); err != nil {
				return nil, err
			}
		}
		switch c {
		case ',':
		case '}':
			return keys, nil
		default:
			return nil, errNotObject
		}
	}
}

// scanString reads the rest of a JSON string whose opening quote was read,
// up to and with its closing quote, appending its bytes to dst when dst
// is not nil.
func scanString(r *bufio.Reader, dst []byte) ([]byte, error) {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return dst, err
		}
		if dst != nil {
			dst = append(dst, c)
		}
		switch c {
		case '"':
			return dst, nil
		case '\\':
			c, err := r.ReadByte()
			if err != nil {
				return dst, err
			}
			if dst != nil {
				dst = append(dst, c)
			}
		}
	}
}

// skipJSONValue reads the rest of the JSON value whose first byte c was
// read: a string, an object or array (to its matching bracket, skipping
// the brackets in strings), or a number or literal, which ends at the
// first byte that cannot be in one: that byte is returned (0 after a
// string or a bracketed value).
func skipJSONValue(r *bufio.Reader, c byte) (byte, error) {
	switch c {
	case '"':
		_, err := scanString(r, nil)
		return 0, err
	case '{', '[':
		depth := 1
		for depth > 0 {
			c, err := r.ReadByte()
			if err != nil {
				return 0, err
			}
			switch c {
			case '"':
				if _, err := scanString(r, nil); err != nil {
					return 0, err
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		return 0, nil
	case ',', ':', '}', ']':
		return 0, errNotObject
	}
	for { // a number, true, false or null
		c, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return c, nil
		}
	}
}

// AttachPolicyFile adds to m a policy that evaluates the network or
// ensemble in path (of kind, as PolicyFileKind tells it), and returns its
// name. The policy takes the inputs, outputs and arg-max reading of
// template, when that
// names a declared network or ensemble policy; else of the model's learned
// policies, when those that fit the file's dimensions all agree; else,
// when the model declares none, the model's variables and labels in order.
// When path is a declared policy's own file, that policy is the answer and
// m is unchanged.
func AttachPolicyFile(m *symbolic.Model, path string, kind symbolic.PolicyKind, template string) (string, error) {
	return attachPolicyFile(m, path, kind, template, false)
}

// attachPolicyFile is AttachPolicyFile; with anyReading (--argmax gives
// the reading) the model's learned policies need not agree on theirs.
func attachPolicyFile(m *symbolic.Model, path string, kind symbolic.PolicyKind, template string, anyReading bool) (string, error) {
	name := policyIdent(path)
	var learned []*symbolic.PolicyDecl
	var tmpl *symbolic.PolicyDecl
	taken := map[string]bool{}
	for _, d := range m.Policies {
		taken[d.Name] = true
		if d.Kind != symbolic.KindNN && d.Kind != symbolic.KindTrees {
			continue
		}
		learned = append(learned, d)
		if d.Name == template {
			tmpl = d
		}
	}
	if template != "" && tmpl == nil && template != name {
		for _, d := range m.Policies {
			if d.Name == template {
				return "", fmt.Errorf("--policy-file %s: --policy %s is a %s policy; the file takes the inputs and outputs of a declared network or tree-ensemble policy (name one with --policy) or, when the model declares none, the model's variables and labels in order", path, template, d.Kind)
			}
		}
	}
	if own := declaring(path, kind, learned); own != nil && (tmpl == nil || tmpl == own) {
		return own.Name, nil // the file is a declared policy's own
	}
	d := &symbolic.PolicyDecl{Kind: kind, File: path}
	switch {
	case tmpl != nil:
		d.Inputs, d.Outputs, d.Interface, d.Pos, d.ArgMaxAll, d.Output = tmpl.Inputs, tmpl.Outputs, tmpl.Interface, tmpl.Pos, tmpl.ArgMaxAll, tmpl.Output
	case len(learned) > 0:
		cands, err := bindingsFor(path, kind, learned)
		if err != nil {
			return "", err
		}
		first := cands[0]
		for _, o := range cands[1:] {
			if !sameBinding(first, o, anyReading) {
				return "", fmt.Errorf("--policy-file %s: the model's learned policies %s and %s bind different inputs or outputs or read the arg-max differently; name the one whose inputs, outputs and argmax line the file takes with --policy NAME", path, first.Name, o.Name)
			}
		}
		d.Inputs, d.Outputs, d.Interface, d.Pos, d.ArgMaxAll, d.Output = first.Inputs, first.Outputs, first.Interface, first.Pos, first.ArgMaxAll, first.Output
	default:
		ins, outs, err := fileDims(path, kind, "")
		if err != nil {
			return "", err
		}
		if ins > len(m.Vars) || (ins < len(m.Vars) && kind == symbolic.KindNN) || outs != len(m.Labels) {
			var vars, labels []string
			for _, v := range m.Vars {
				vars = append(vars, v.Name)
			}
			for _, l := range m.Labels {
				labels = append(labels, l.Name)
			}
			return "", fmt.Errorf("--policy-file %s: the file has %d inputs and %d outputs, but the model declares no learned policy to take inputs and outputs from, so they are its %d variables (%s) and %d labels (%s) in order; declare a policy %s NAME \"%s\" { inputs ... outputs ... } in the .spec and name it with --policy", path, ins, outs, len(vars), strings.Join(vars, ", "), len(labels), strings.Join(labels, ", "), kind, filepath.Base(path))
		}
		for i := range m.Vars {
			d.Inputs = append(d.Inputs, symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(i)}}})
		}
		for i := range m.Labels {
			d.Outputs = append(d.Outputs, symbolic.LabelID(i))
		}
	}
	for base, i := name, 2; taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	d.Name = name
	m.Policies = append(m.Policies, d)
	return name, nil
}

// declaring returns the declared learned policy of the given kind whose file
// is path, or nil.
func declaring(path string, kind symbolic.PolicyKind, learned []*symbolic.PolicyDecl) *symbolic.PolicyDecl {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	for _, d := range learned {
		if da, err := filepath.Abs(d.File); err == nil && da == abs && d.Kind == kind {
			return d
		}
	}
	return nil
}

// bindingsFor narrows the declared learned policies to those path can
// stand in for: those whose input and output counts are the file's.
func bindingsFor(path string, kind symbolic.PolicyKind, learned []*symbolic.PolicyDecl) ([]*symbolic.PolicyDecl, error) {
	// Read through each graph output a policy names (`output "NAME"`);
	// the file's counts are those of the first reading that loads.
	type dims struct {
		ins, outs int
		err       error
	}
	read := map[string]dims{}
	var fit []*symbolic.PolicyDecl
	var first *dims
	for _, d := range learned {
		r, ok := read[d.Output]
		if !ok {
			r.ins, r.outs, r.err = fileDims(path, kind, d.Output)
			read[d.Output] = r
		}
		if r.err != nil {
			continue
		}
		if first == nil {
			first = &r
		}
		// An ensemble may use fewer features than the policy feeds it.
		inOK := len(d.Inputs) == r.ins || (kind == symbolic.KindTrees && len(d.Inputs) >= r.ins)
		if inOK && len(d.Outputs) == r.outs {
			fit = append(fit, d)
		}
	}
	if first == nil {
		return nil, read[learned[0].Output].err
	}
	if len(fit) == 0 {
		return nil, fmt.Errorf("--policy-file %s: the file has %d inputs and %d outputs, and no learned policy of the model (%s, ...) has as many; name the declared policy whose inputs and outputs it takes with --policy NAME, or declare one", path, first.ins, first.outs, learned[0].Name)
	}
	return fit, nil
}

// fileDims loads the network or ensemble in path and returns its input and
// output counts. It loads through the caches of nn and trees
// (nn.LoadShared, trees.LoadShared), kept by the file's content (its
// SHA-256): the policy bound to the file afterwards (nn.NewPolicy,
// trees.NewPolicy, which load through them too), and a command that loads
// its model more than once (vigil faults reads the model for the run
// file's defaults first, then its own), parse a large policy file once,
// not at every load. Each load reads the file once and hashes the bytes it
// parses, so that its counts are those of the content it binds. They are
// not kept by the file's size and modification time: a file replaced by
// another of the same size and time (cp -p, an archive's fixed dates, a
// rewrite within the clock's resolution) then kept the counts of the
// first, and an ensemble's counts choose its binding: kept counts of three
// features bound a file whose splits read two to the one declared policy
// of three inputs, where its own counts fit two policies and are an error
// (the decider's check, features at most the inputs, passes).
func fileDims(path string, kind symbolic.PolicyKind, output string) (ins, outs int, err error) {
	if kind == symbolic.KindNN {
		n, err := nn.LoadShared(path, output)
		if err != nil {
			return 0, 0, fmt.Errorf("--policy-file: %v", err)
		}
		return n.Inputs(), n.Outputs(), nil
	}
	e, err := trees.LoadShared(path)
	if err != nil {
		return 0, 0, fmt.Errorf("--policy-file: %v", err)
	}
	return e.NumFeatures, e.NumClasses, nil
}

// sameBinding reports whether two learned policies read the same inputs,
// name the same outputs and, unless anyReading, read the arg-max alike.
func sameBinding(a, b *symbolic.PolicyDecl, anyReading bool) bool {
	if a.Interface != b.Interface || a.Output != b.Output || len(a.Inputs) != len(b.Inputs) || len(a.Outputs) != len(b.Outputs) || (a.ArgMaxAll != b.ArgMaxAll && !anyReading) {
		return false
	}
	for i := range a.Outputs {
		if a.Outputs[i] != b.Outputs[i] {
			return false
		}
	}
	for i := range a.Inputs {
		x, y := a.Inputs[i], b.Inputs[i]
		if x.Const != y.Const || len(x.Terms) != len(y.Terms) {
			return false
		}
		for j := range x.Terms {
			if x.Terms[j] != y.Terms[j] {
				return false
			}
		}
	}
	return true
}

// policyIdent is the policy name a file gets: its base name without the
// extension, with characters other than letters, digits and _ as _.
func policyIdent(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	for _, r := range base {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "p_" + s
	}
	return s
}
