package rlenv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/rlenv"
	"vigil/symbolic/explicit"
)

// s30rEnv serves a model of an integer x and a Boolean b.
func s30rEnv(t *testing.T) *rlenv.Env {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.spec")
	src := "model m\nvar x : 0 .. 3 = 0\nvar b : bool = false\naction a -> x' = x + 1\naction c -> b' = !b\nproperty p { unsafe x == 3 }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.LoadFile(path, lang.Options{})
	if m == nil {
		t.Fatalf("%v", diags)
	}
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	e, err := rlenv.New(g, rlenv.Options{StepReward: -1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestS30rRequestsSayWhatTheyIgnored: a request answered as if part of it
// were not there is an error naming that part. {"op": "step_many",
// "action": 0} (a typo of "actions") answered {"steps": []}; a step with
// a "seed" stepped without reseeding; "x": true set the integer x to 1; a
// key given twice kept its last value. A blank line (a CRLF client's
// "\r", spaces) is no request: it was answered "is not a request object:
// EOF".
func TestS30rRequestsSayWhatTheyIgnored(t *testing.T) {
	cases := []struct{ req, want string }{
		{`{"op":"step_many","action":0}`, `step_many takes "actions", not "action" ("action" belongs to step)`},
		{`{"op":"step","action":0,"seed":3}`, `step takes "action", not "seed" ("seed" belongs to reset)`},
		{`{"op":"reset","seed":1,"action":0,"actions":[0]}`, `reset takes "seed" and "state", not "action" and "actions"`},
		{`{"op":"close","seed":1}`, `close takes no other field, not "seed"`},
		{`{"op":"reset","state":{"x":true,"b":false}}`, `x = true: x is not a Boolean variable; give an integer in 0..3`},
		{`{"op":"reset","state":{"x":1,"b":2.5}}`, `b = 2.5 is not a Boolean: give true or false (or 1 or 0)`},
		{`{"op":"reset","state":{"x":1,"b":true,"x":2}}`, `the state gives "x" twice`},
		{`{"op":"step","action":0,"action":1}`, `gives "action" twice`},
	}
	for _, c := range cases {
		e := s30rEnv(t)
		in := `{"op":"reset"}` + "\n" + c.req + "\n"
		var out bytes.Buffer
		if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: want 2 answers, got %q", c.req, out.String())
		}
		var r struct {
			Error string
			Line  int
		}
		if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Error, c.want) || r.Line != 2 {
			t.Errorf("%s: got %s, want an error on line 2 saying %q", c.req, lines[1], c.want)
		}
	}
	// what is right still works: Booleans as true/false or 0/1, a blank
	// line between requests
	e := s30rEnv(t)
	in := "{\"op\":\"reset\",\"state\":{\"x\":2,\"b\":true}}\r\n\r\n   \n{\"op\":\"reset\",\"state\":{\"x\":1,\"b\":0}}\n{\"op\":\"step_many\",\"actions\":[1,0]}\n"
	var out bytes.Buffer
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || strings.Contains(out.String(), "error") {
		t.Fatalf("want 3 answers without an error, got:\n%s", out.String())
	}
	if !strings.HasPrefix(lines[0], `{"obs":[2,1],`) || !strings.HasPrefix(lines[1], `{"obs":[1,0],`) || !strings.Contains(lines[2], `{"obs":[2,1],`) {
		t.Errorf("wrong states:\n%s", out.String())
	}
}
