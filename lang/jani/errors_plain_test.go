package jani

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"vigil/symbolic"
)

// Errors without a JSON position are *PlainError: callers that give their
// own context take Message (no "jani: " in front) through errors.As, and
// a missing file is still fs.ErrNotExist.
func TestPlainError(t *testing.T) {
	m := &symbolic.Model{}
	_, err := LoadCondition("testdata/no_such_condition.json", m)
	var plain *PlainError
	if !errors.As(err, &plain) {
		t.Fatalf("LoadCondition of a missing file: %T %v, want a *PlainError", err, err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: not fs.ErrNotExist", err)
	}
	if !strings.HasPrefix(err.Error(), "jani: ") || strings.HasPrefix(Message(err), "jani: ") || !strings.Contains(Message(err), "no_such_condition.json") {
		t.Errorf("Error() = %q, Message = %q", err.Error(), Message(err))
	}
	_, _, err = Attach(m, "s.json", "", "", "")
	if !errors.As(err, &plain) || Message(err) != "--start s.json needs --unsafe FILE" {
		t.Errorf("Attach --start without --unsafe: %T %q", err, Message(err))
	}
	pos := &Error{File: "m.jani", Path: "automata[0]", Line: 3, Col: 4, Msg: "bad"}
	if got := Message(pos); got != "m.jani#automata[0]:3:4: bad" {
		t.Errorf("Message(*Error) = %q", got)
	}
	if got := Message(ErrorList{pos, pos}); got != "m.jani#automata[0]:3:4: bad\nm.jani#automata[0]:3:4: bad" {
		t.Errorf("Message(ErrorList) = %q", got)
	}
}
