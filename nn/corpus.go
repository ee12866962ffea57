package nn

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// CorpusInstance is one instance of a corpus in VNN-COMP's layout: a row
// of DIR/expected.csv naming a network in DIR/onnx, a property in
// DIR/vnnlib and the expected answer (sat or unsat).
type CorpusInstance struct {
	Network, Property, Expected string
}

// ReadCorpus reads the instances DIR/expected.csv lists (after its header
// row; rows of fewer than three fields are skipped).
func ReadCorpus(dir string) ([]CorpusInstance, error) {
	f, err := os.Open(filepath.Join(dir, "expected.csv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("expected.csv: %w", err)
	}
	var out []CorpusInstance
	for i, r := range recs {
		if i == 0 || len(r) < 3 {
			continue
		}
		out = append(out, CorpusInstance{Network: r[0], Property: r[1], Expected: r[2]})
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
		return VerifyResult{}, "", err
	}
	prop, err := LoadVNNLIB(filepath.Join(dir, "vnnlib", ci.Property))
	if err != nil {
		return VerifyResult{}, "", err
	}
	res, err := net.Verify(prop, timeout, opt)
	if err != nil {
		return VerifyResult{}, "", err
	}
	switch {
	case res.Answer == AnswerUnkn:
		return res, CorpusUnknown, nil
	case string(res.Answer) != ci.Expected || (res.Answer == Sat && !prop.Check(net, res.Case, res.Input)):
		return res, CorpusWrong, nil
	}
	return res, CorpusCorrect, nil
}
