package rlenv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// Request is one line of the protocol:
//
//	{"op": "reset", "seed": 7}                  a start state drawn uniformly (seed optional);
//	                                            its answer has labels, vars, and low and high (each variable's range)
//	{"op": "reset", "state": {"x": 1, "b": true}} a given state
//	{"op": "step", "action": 2}                 one step
//	{"op": "step_many", "actions": [2, 0, 1]}   steps in a row, until the episode ends
//	{"op": "close"}                             ends the session
//
// A field the op does not take, a key given twice, and a blank line's
// absence of a request are told apart: the first two are errors, a blank
// line is skipped.
type Request struct {
	Op      string                     `json:"op"`
	Seed    *uint64                    `json:"seed,omitempty"`
	State   map[string]json.RawMessage `json:"state,omitempty"`
	Action  *int                       `json:"action,omitempty"`
	Actions []int                      `json:"actions,omitempty"`
}

// resetReply is a reset's answer: the observation and the names of the
// actions and of the observation's entries.
type resetReply struct {
	Observation
	Labels []string `json:"labels"`
	Vars   []string `json:"vars"`
	// Low and High are the bounds of each observation entry, the
	// variables' ranges (an observation space declared without them, as
	// python/vigil_env.py declared -2^31 .. 2^31-1, did not hold the
	// values of a variable of a wider range).
	Low  []int `json:"low"`
	High []int `json:"high"`
}

// errorReply is the answer to a request that failed; the session goes on.
type errorReply struct {
	Error string `json:"error"`
	Line  int    `json:"line"`
}

// maxRequest is the longest request line Serve reads.
const maxRequest = 16 << 20

// Serve answers the requests read from r on w, one JSON line each, until
// a close request, the end of r, or ctx's end. It returns nil on close
// or end of input.
func (e *Env) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	e.ctx = ctx
	defer func() { e.ctx = context.Background() }()
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), maxRequest)
		read := 0
		for sc.Scan() {
			read++
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		err := sc.Err()
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("rlenv: request %d is longer than %d MiB; send one JSON object per line", read+1, maxRequest>>20)
		}
		readErr <- err
		close(lines)
	}()
	n := 0
	for {
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			out.Flush()
			return context.Cause(ctx)
		case line, ok = <-lines:
		}
		if !ok {
			out.Flush()
			return <-readErr
		}
		n++
		if strings.TrimSpace(line) == "" {
			// a blank line, "\r" of a CRLF client's included: no request
			continue
		}
		reply, closing := e.handle(line, n)
		if err := enc.Encode(reply); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
		if closing {
			return nil
		}
	}
}

// handle answers one request line.
func (e *Env) handle(line string, n int) (reply any, closing bool) {
	fail := func(err error) (any, bool) { return errorReply{Error: err.Error(), Line: n}, false }
	var req Request
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return fail(fmt.Errorf("rlenv: request %d is not a request object: %v", n, err))
	}
	if dec.More() {
		return fail(fmt.Errorf("rlenv: request %d has more than one JSON value; send one object per line", n))
	}
	if err := checkFields(line, req.Op, n); err != nil {
		return fail(err)
	}
	switch req.Op {
	case "reset":
		var s symbolic.State
		if req.State != nil {
			var err error
			if s, err = e.parseState(req.State); err != nil {
				return fail(err)
			}
		}
		var seed uint64
		if req.Seed != nil {
			seed = *req.Seed
		}
		o, err := e.Reset(seed, req.Seed != nil, s)
		if err != nil {
			return fail(err)
		}
		lo, hi := e.Bounds()
		return resetReply{Observation: o, Labels: e.Labels(), Vars: e.Vars(), Low: lo, High: hi}, false
	case "step":
		if req.Action == nil {
			return fail(fmt.Errorf("rlenv: a step needs \"action\": a label index"))
		}
		o, err := e.Step(*req.Action)
		if err != nil {
			return fail(err)
		}
		return o, false
	case "step_many":
		steps := []any{} // [] with no actions, not null: a client iterates over it
		for _, a := range req.Actions {
			o, err := e.Step(a)
			if err != nil {
				steps = append(steps, errorReply{Error: err.Error(), Line: n})
				break
			}
			steps = append(steps, o)
			if o.Terminated || o.Truncated {
				break
			}
		}
		return map[string]any{"steps": steps}, false
	case "close":
		return map[string]bool{"closed": true}, true
	case "":
		return fail(fmt.Errorf("rlenv: request %d has no \"op\"; use reset, step, step_many or close", n))
	}
	return fail(fmt.Errorf("rlenv: unknown op %q; use reset, step, step_many or close", req.Op))
}

// opFields are the fields each op takes besides "op".
var opFields = map[string][]string{
	"reset":     {"seed", "state"},
	"step":      {"action"},
	"step_many": {"actions"},
	"close":     nil,
}

// checkFields refuses a field that op does not take: {"op": "step_many",
// "action": 1} answered {"steps": []}, and {"op": "step", "action": 0,
// "seed": 3} stepped without reseeding, both as if the field were not
// there.
func checkFields(line, op string, n int) error {
	allowed, known := opFields[op]
	if !known {
		return nil // an unknown or missing op: its own error
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &fields) != nil {
		return nil
	}
	// A key given twice kept its last value: {"x": 1, "x": 2} was x = 2.
	if k := duplicateKey([]byte(line)); k != "" {
		return fmt.Errorf("rlenv: request %d gives %q twice", n, k)
	}
	if st, ok := fields["state"]; ok {
		if k := duplicateKey(st); k != "" {
			return fmt.Errorf("rlenv: request %d: the state gives %q twice", n, k)
		}
	}
	var extra []string
	for f := range fields {
		if f != "op" && !slices.Contains(allowed, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	takes := "takes no other field"
	if len(allowed) > 0 {
		takes = "takes " + quoteList(allowed)
	}
	var owners []string
	for _, f := range extra {
		for _, o := range []string{"reset", "step", "step_many"} {
			if slices.Contains(opFields[o], f) {
				owners = append(owners, fmt.Sprintf("%q belongs to %s", f, o))
			}
		}
	}
	hint := ""
	if len(owners) > 0 {
		hint = " (" + strings.Join(owners, "; ") + ")"
	}
	return fmt.Errorf("rlenv: request %d: %s %s, not %s%s", n, op, takes, quoteList(extra), hint)
}

// duplicateKey returns a key that the JSON object raw has twice, or ""
// (also when raw is not an object).
func duplicateKey(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// quoteList is "a", "b" and "c".
func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// parseState reads {"x": 1, "b": true, "c": "red"}: every variable once,
// Booleans as true/false or 0/1, enum values by name or number.
func (e *Env) parseState(vals map[string]json.RawMessage) (symbolic.State, error) {
	m := e.g.M
	s := make(symbolic.State, len(m.Vars))
	for name := range vals {
		if m.VarIndex(name) < 0 {
			return nil, fmt.Errorf("rlenv: the model has no variable %q", name)
		}
	}
	for i, v := range m.Vars {
		raw, ok := vals[v.Name]
		if !ok {
			return nil, fmt.Errorf("rlenv: the state gives no value for %s", v.Name)
		}
		switch string(raw) {
		case "true", "false":
			if !v.Bool {
				// x = true set an integer x to 1, silently
				return nil, fmt.Errorf("rlenv: %s = %s: %s is not a Boolean variable; give %s", v.Name, raw, v.Name, valueKind(v))
			}
			s[i] = 0
			if string(raw) == "true" {
				s[i] = 1
			}
			continue
		}
		var name string
		if v.Values != nil && json.Unmarshal(raw, &name) == nil {
			// an enum value by name, "red"
			k := slices.Index(v.Values, name)
			if k < 0 {
				return nil, fmt.Errorf("rlenv: %s = %q is not a value of its enum (%s)", v.Name, name, strings.Join(v.Values, ", "))
			}
			s[i] = v.Lo + k
			continue
		}
		k, err := strconv.Atoi(string(raw))
		if err != nil {
			if v.Bool {
				return nil, fmt.Errorf("rlenv: %s = %s is not a Boolean: give true or false (or 1 or 0)", v.Name, raw)
			}
			if v.Values != nil {
				return nil, fmt.Errorf("rlenv: %s = %s is neither a value of its enum (%s, as a string) nor an integer", v.Name, raw, strings.Join(v.Values, ", "))
			}
			return nil, fmt.Errorf("rlenv: %s = %s is not an integer", v.Name, raw)
		}
		s[i] = k
	}
	return s, nil
}

// valueKind says what a value of the non-Boolean variable v is written as.
func valueKind(v symbolic.Var) string {
	if v.Values != nil {
		return fmt.Sprintf("a value of its enum (%s) by name or number", strings.Join(v.Values, ", "))
	}
	return fmt.Sprintf("an integer in %d..%d", v.Lo, v.Hi)
}
