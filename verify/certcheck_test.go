package verify_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"vigil/safety/cert"
	"vigil/verify"
)

// A Go program checks a reachable-set certificate and gets vigil cert
// check's JSON report and its "checked against" text.
func TestSafetyCheckReport(t *testing.T) {
	q, v := decide(t, counter, "slow", "bfs")
	ct, err := verify.ReachCertificate(q, v)
	if err != nil {
		t.Fatal(err)
	}
	res := verify.NewSafetyCheck(ct)
	res.Checked = &verify.Checked{ModelFile: "m.spec", DefinesFrom: "none"}
	if err := res.Checked.Describe(q.Model, q.Property, q.Policy, ""); err != nil {
		t.Fatal(err)
	}
	rep, err := cert.Check(q.Model, q.Property, q.Policy, ct)
	res.States, res.Starts = rep.States, rep.Starts
	res.Finish(err)
	b, _ := json.Marshal(res)
	want := `{"verdict":"valid","valid":true,"kind":"invariant","radius":"inf","entries":3,"states":3,"start_states":1,"checked":{"model_file":"m.spec","defines":null,"defines_from":"none","model":"m","property":"p","policy":"slow","policy_kind":"rules","policy_sha256":""}}`
	if string(b) != want {
		t.Errorf("report\n%s\nwant\n%s", b, want)
	}
	line := verify.ValidSafetyLine(q.Model, q.Property, q.Policy, ct, rep)
	if !strings.HasPrefix(line, "valid: invariant certificate (reachable states) for model m, property p, policy slow: 3 states, holding every start state (1)") {
		t.Errorf("valid line %q", line)
	}
	var text bytes.Buffer
	res.Checked.WriteText(&text)
	if s := text.String(); !strings.Contains(s, "  policy:      slow (rules, written in the model file: no policy file to hash)\n") {
		t.Errorf("checked against:\n%s", s)
	}
}

// -D values that differ from the recorded ones are refused, and names
// outside ASCII are refused with the name they imitate.
func TestCertNames(t *testing.T) {
	if err := verify.CompareDefines("c.json", map[string]string{"N": "3"}, map[string]string{"N": "3"}); err != nil {
		t.Error(err)
	}
	err := verify.CompareDefines("c.json", map[string]string{"N": "3"}, map[string]string{"N": "4"})
	if err == nil || !strings.Contains(err.Error(), "was made with -D N=3; it proves nothing about -D N=4") {
		t.Errorf("CompareDefines: %v", err)
	}
	err = verify.CompareDefines("c.json", nil, map[string]string{"N": "4"})
	if err == nil || !strings.Contains(err.Error(), "was made without -D N (it records no -D values)") {
		t.Errorf("CompareDefines: %v", err)
	}
	err = verify.PlainName("c.json", "policy", "c\u0430reful", []string{"careful"})
	if err == nil || !strings.Contains(err.Error(), "it only looks like policy careful") {
		t.Errorf("PlainName: %v", err)
	}
}
