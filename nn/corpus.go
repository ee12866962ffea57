package nn

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CorpusInstance is one instance of a corpus in VNN-COMP's layout: a row
// of DIR/expected.csv naming a network in DIR/onnx, a property in
// DIR/vnnlib and the expected answer (sat or unsat).
type CorpusInstance struct {
	Network, Property, Expected string
	Line                        int // of expected.csv, for messages
}

// ReadCorpus reads the instances DIR/expected.csv lists: rows of at
// least three fields, network, property and expected answer (sat or
// unsat, in any case; further fields, such as a competition's time, are
// not read), after an optional header row (a first row whose third field
// is not an answer, as onnx,vnnlib,expected). Before session 33 the
// first row was always skipped as a header, so that a file without one
// lost its first instance, and a wrong answer there went unreported
// (exit 0, "0 instances" for a one-line file); an expected answer other
// than sat or unsat (" unsat", VNN-COMP 2021's "violated") judged every
// answer WRONG, rows of fewer fields were skipped, and a file of no
// instance passed. Each of those is now an error that names its line.
func ReadCorpus(dir string) ([]CorpusInstance, error) {
	f, err := os.Open(filepath.Join(dir, "expected.csv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1 // checked below, with the line named
	var out []CorpusInstance
	for i := 0; ; i++ {
		r, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("expected.csv: %w", err)
		}
		line, _ := rd.FieldPos(0)
		if len(r) < 3 {
			return nil, fmt.Errorf("expected.csv line %d: %d fields; want three: network, property, expected answer (sat or unsat), then any others", line, len(r))
		}
		answer := strings.ToLower(strings.TrimSpace(r[2]))
		if answer != string(Sat) && answer != string(Unsat) {
			if i == 0 {
				continue // a header
			}
			hint := ""
			switch answer {
			case "violated":
				hint = " (VNN-COMP's violated is sat)"
			case "holds":
				hint = " (VNN-COMP's holds is unsat)"
			}
			return nil, fmt.Errorf("expected.csv line %d: expected answer %q; want sat or unsat%s", line, r[2], hint)
		}
		for k, name := range r[:2] {
			if strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("expected.csv line %d: no %s file named", line, [...]string{"network", "property"}[k])
			}
		}
		out = append(out, CorpusInstance{Network: r[0], Property: r[1], Expected: answer, Line: line})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("expected.csv lists no instance (want rows network,property,sat|unsat, after an optional header)")
	}
	return out, nil
}

// CorpusOutcome judges an answer against the expected one.
type CorpusOutcome string

const (
	CorpusCorrect CorpusOutcome = "correct"
	CorpusWrong   CorpusOutcome = "WRONG" // contradicts the expected answer, or a counterexample that does not check
	CorpusUnknown CorpusOutcome = "unknown"
)

// Run verifies the instance of the corpus in dir within timeout and
// judges the answer: wrong when it contradicts the expected one, or when
// its counterexample does not violate the property.
func (ci CorpusInstance) Run(dir string, timeout time.Duration, opt Options) (VerifyResult, CorpusOutcome, error) {
	net, err := Load(filepath.Join(dir, "onnx", ci.Network))
	if err != nil {
		return VerifyResult{}, "", ci.at(err)
	}
	prop, err := LoadVNNLIB(filepath.Join(dir, "vnnlib", ci.Property))
	if err != nil {
		return VerifyResult{}, "", ci.at(err)
	}
	res, err := net.Verify(prop, timeout, opt)
	if err != nil {
		return VerifyResult{}, "", ci.at(err)
	}
	switch {
	case res.Answer == AnswerUnkn:
		return res, CorpusUnknown, nil
	case string(res.Answer) != ci.Expected || (res.Answer == Sat && !prop.Check(net, res.Case, res.Input)):
		return res, CorpusWrong, nil
	}
	return res, CorpusCorrect, nil
}

// at names the instance's line of expected.csv in err (when it has one).
func (ci CorpusInstance) at(err error) error {
	if ci.Line == 0 {
		return err
	}
	return fmt.Errorf("expected.csv line %d: %w", ci.Line, err)
}
