package vigilerr

import (
	"errors"
	"fmt"
	"testing"
)

type pos struct{}

func (pos) String() string { return "m.spec:3:5" }

func TestInternal(t *testing.T) {
	base := errors.New("replacer failed")
	for _, c := range []struct {
		err  error
		want string
	}{
		{Internalf("explicit", "no predecessor of %s", "x=1"), "explicit: internal error: no predecessor of x=1"},
		{InternalAtf("smt", pos{}, "witness %s does not replay", "x=1"), "smt: m.spec:3:5: internal error: witness x=1 does not replay"},
		{Internalf("bdd", "replacer: %w", base), "bdd: internal error: replacer: replacer failed"},
	} {
		if c.err.Error() != c.want {
			t.Errorf("Error() = %q, want %q", c.err.Error(), c.want)
		}
		if !IsInternal(c.err) || !IsInternal(fmt.Errorf("step 2: %w", c.err)) {
			t.Errorf("%v: not internal, or not once wrapped", c.err)
		}
	}
	if !errors.Is(Internalf("bdd", "replacer: %w", base), base) {
		t.Error("Internalf with %w does not wrap its cause")
	}
	if IsInternal(errors.New("x: internal error: y")) || IsInternal(nil) {
		t.Error("an error that only reads like an internal error counts as one")
	}
}
