package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/verify"
)

// decide loads src and decides its only property with engine and the
// named policy ("" for none).
func decide(t *testing.T, src, policy, engine string) (*verify.Question, *verify.Verdict) {
	t.Helper()
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q := &verify.Question{Model: m, Property: m.Properties[0], Engine: engine}
	for _, p := range m.Policies {
		if p.Name == policy {
			q.Policy = p
		}
	}
	v, err := verify.Decide(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return q, v
}

const counter = "model m\nvar x : 0 .. 5 = 0\naction up when x < 5 -> x' = x + 1\naction down when x > 0 -> x' = x - 1\n" +
	"policy rules slow {\n    when x < 2 -> up\n    otherwise -> down\n}\npolicy rules fast {\n    otherwise -> up\n}\nproperty p { unsafe x == 4 }\n"

// A Go program gets vigil verify's JSON report without the command line:
// an unsafe verdict with its counterexample, and its text with the
// policy's reasons.
func TestReportUnsafe(t *testing.T) {
	q, v := decide(t, counter, "", "bfs")
	rep := verify.NewReport(q, v)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["verdict"] != "unsafe" || got["engine"] != "bfs" || got["model"] != "m" || got["property"] != "p" || got["counterexample"] == nil {
		t.Errorf("report %s", b)
	}
	if _, ok := got["bdd"]; ok {
		t.Errorf("a bfs report has BDD figures: %s", b)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text, verify.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "unsafe: some choice of labels reaches an unsafe state of property p in 4 steps (a shortest counterexample)\n" +
		"counterexample (each state after the first lists the variables that changed; --full lists all):\n" +
		"   0  x=0\n"
	if s := text.String(); !strings.HasPrefix(s, want) || !strings.Contains(s, "end: unsafe after 4 steps\nengine bfs: ") || strings.Contains(s, "replay:") {
		t.Errorf("text:\n%s\nwant it to start with\n%s", s, want)
	}
	text.Reset()
	rep.WriteText(&text, verify.TextOptions{Rerun: "vigil run m.spec", Full: true})
	if s := text.String(); !strings.Contains(s, "replay: vigil run m.spec --property p --from x=0\n") || !strings.Contains(s, "counterexample:\n") {
		t.Errorf("text with a rerun command:\n%s", s)
	}
	q, v = decide(t, counter, "fast", "ic3")
	text.Reset()
	verify.NewReport(q, v).WriteText(&text, verify.TextOptions{})
	if s := text.String(); !strings.Contains(s, "unsafe: policy fast reaches") || !strings.Contains(s, "         policy fast: rule 1 fired (m.spec:10:5)\n") || !strings.Contains(s, "\nengine ic3: ") {
		t.Errorf("ic3 text:\n%s", s)
	}
}

// A safe verdict of the rules policy: the text says so, the BDD report
// has its exact counts after the common fields, and bfs's reached states
// make a certificate that safety/cert's checker accepts.
func TestReportSafe(t *testing.T) {
	q, v := decide(t, counter, "slow", "bfs")
	var text bytes.Buffer
	verify.NewReport(q, v).WriteText(&text, verify.TextOptions{})
	if s := text.String(); !strings.HasPrefix(s, "safe: policy slow never reaches an unsafe state of property p from its 1 start state\nengine bfs: 3 states, ") {
		t.Errorf("text:\n%s", s)
	}
	c, err := verify.ReachCertificate(q, v)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cert.Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	back, err := cert.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	r, err := cert.Check(q.Model, q.Property, q.Policy, back)
	if err != nil || r.States != 3 || r.Starts != 1 {
		t.Errorf("the reachable-set certificate checks as %+v, %v; want 3 states, 1 start", r, err)
	}

	q, v = decide(t, counter, "slow", "bdd")
	b, err := json.MarshalIndent(verify.NewReport(q, v), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, `"seconds"`), strings.Index(s, `"reached_states": 3`)
	if i < 0 || j < i || !strings.Contains(s, `"start_states_exact": 1`) || !strings.Contains(s, `"order": "interleaved"`) {
		t.Errorf("bdd report:\n%s", s)
	}
}

// The HTML page of an unsafe verdict is one document with a row per state.
func TestReportHTML(t *testing.T) {
	q, v := decide(t, counter, "", "bfs")
	var page bytes.Buffer
	if err := verify.NewReport(q, v).WriteHTML(&page, []symbolic.VarID{0}); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	if n := strings.Count(s, `<tr class="step`); n != 5 || !strings.Contains(s, `id="plot-x"`) || !strings.HasSuffix(s, "</html>\n") {
		t.Errorf("page has %d rows:\n%s", n, s)
	}
}

// WriteCertificate writes what a safe verdict can be checked with, records
// it in the report, and writes nothing for an unsafe verdict or for bdd.
func TestWriteCertificate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		policy, engine string
		want           bool
	}{{"slow", "bfs", true}, {"slow", "ic3", true}, {"slow", "bdd", false}, {"fast", "bfs", false}} {
		q, v := decide(t, counter, tc.policy, tc.engine)
		path := filepath.Join(dir, tc.policy+"-"+tc.engine)
		rep := verify.NewReport(q, v)
		wrote, err := verify.WriteCertificate(context.Background(), path, q, v, rep)
		_, statErr := os.Stat(path)
		if err != nil || wrote != tc.want || (statErr == nil) != tc.want || (rep.Certificate == path) != tc.want {
			t.Errorf("%s %s: wrote %v (file: %v, report: %q), %v; want %v", tc.policy, tc.engine, wrote, statErr == nil, rep.Certificate, err, tc.want)
		}
	}
	q, v := decide(t, counter, "slow", "bfs")
	if _, err := verify.WriteCertificate(context.Background(), filepath.Join(dir, "none", "c.json"), q, v, nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestPlotVars(t *testing.T) {
	q, _ := decide(t, counter, "slow", "bfs")
	if vs, err := verify.PlotVars(q.Model, []string{"x"}); err != nil || len(vs) != 1 || vs[0] != 0 {
		t.Errorf("PlotVars(x) = %v, %v", vs, err)
	}
	if vs, err := verify.PlotVars(q.Model, nil); err != nil || vs != nil {
		t.Errorf("PlotVars() = %v, %v", vs, err)
	}
	if _, err := verify.PlotVars(q.Model, []string{"y"}); err == nil || !strings.Contains(err.Error(), `model m has no variable "y"`) {
		t.Errorf("PlotVars(y): %v", err)
	}
}

// NewHeader records the defines sorted and, with a certificate file, the
// paths relative to the certificate's directory.
func TestNewHeader(t *testing.T) {
	h, err := verify.NewHeader("", "specs/m.spec", map[string]string{"N": "4", "A": "1"}, "", "", "")
	if err != nil || h.Model != "specs/m.spec" || h.Dir != "" || strings.Join(h.Defines, " ") != "A=1 N=4" {
		t.Errorf("without a certificate: %+v, %v", h, err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "specs", "m.spec")
	h, err = verify.NewHeader(filepath.Join(dir, "out", "c.smt2"), model, nil, "", "", "")
	if err != nil || h.Model != filepath.Join("..", "specs", "m.spec") || h.Dir != filepath.Join(dir, "out") {
		t.Errorf("with a certificate: %+v, %v", h, err)
	}
}
