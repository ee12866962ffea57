package ic3

import (
	"context"
	"errors"
	"testing"

	"vigil/smt"
)

// TestS31yDifferStopIsNoPairs: differPairs gives up with no pairs and no
// error when its context is done (its doc comment), also while it encodes.
func TestS31yDifferStopIsNoPairs(t *testing.T) {
	m := s31dBig(t, 20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pairs, err := differPairs(ctx, m, m.Properties[0], nil)
	if err != nil || pairs != nil {
		t.Fatalf("differPairs under a cancelled context: %v, %v; want no pairs and no error", pairs, err)
	}
}

// TestS31yErrLabelsNotHalfSet: a search for the labels with range errors
// that the run's context stops half-way leaves errLabels unset, so that
// a later build asks again: it left the labels not yet asked at false
// ("no range error anywhere"), which a later build took as the answer.
func TestS31yErrLabelsNotHalfSet(t *testing.T) {
	m := s31dBig(t, 20)
	// every move may leave a range (a[j] + 1 where a[j] == 10 is
	// guarded, but canErr reads the bounds of the values only)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var st Stats
	sv := newSolver(ctx, m, smt.TransOptions{Property: m.Properties[0]}, &st, true, func() [][]box { return nil })
	for i := range sv.canErr {
		sv.canErr[i] = true
	}
	defer sv.close()
	if err := sv.findErrLabels(m.Properties[0]); !errors.Is(err, smt.ErrStopped) {
		t.Fatalf("findErrLabels under a cancelled context: %v, want smt.ErrStopped", err)
	}
	if sv.errLabels != nil {
		t.Fatalf("a stopped search set errLabels to %v", sv.errLabels)
	}
}

// TestS31yStoppedRebuildClosed: a rebuild that the run's context stops
// leaves no solver behind, as a first build stopped so does (ready): the
// half-built one stayed, and a later query's ready took it for built.
func TestS31yStoppedRebuildClosed(t *testing.T) {
	m := s31dBig(t, 20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var st Stats
	sv := newSolver(ctx, m, smt.TransOptions{Property: m.Properties[0]}, &st, false, func() [][]box { return nil })
	defer sv.close()
	if err := sv.ready(); err != nil {
		t.Fatal(err)
	}
	act := sv.st.Activation()
	sv.retired = rebuildAfter - 1
	cancel()
	rebuilt, err := sv.retire(act, func() [][]box { return nil })
	if !rebuilt || !errors.Is(err, smt.ErrStopped) {
		t.Fatalf("a rebuild under a cancelled context: %v, %v; want smt.ErrStopped", rebuilt, err)
	}
	if sv.x != nil {
		t.Fatal("the half-built solver stayed after a stopped rebuild")
	}
}
