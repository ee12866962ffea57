package smt

import (
	"context"
	"errors"
	"testing"
)

// TestS31dStopWhen: once the context given to StopWhen is done, the term
// constructors fail within stopEvery constructions with an error that
// wraps ErrStopped and the context's error, and later ones return the
// zero Term; a live context, and none, change nothing. Z3's interrupt
// reaches checks only, so before StopWhen an encoding of a large model
// ran on for seconds after a timeout or a signal (ic3's TestS31dBuildStops).
func TestS31dStopWhen(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() context.Context
		stop bool
	}{
		{"cancelled", func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, true},
		{"live", func() context.Context { return context.Background() }, false},
		{"nil", func() context.Context { return nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newCtx(t)
			defer x.Close()
			x.StopWhen(tc.ctx())
			v := x.IntConst("v")
			var sum Term = v
			made := 0
			for i := 0; i < 10*stopEvery && !sum.IsZero(); i++ {
				sum = x.Add(sum, x.Int(int64(i)))
				made++
			}
			if !tc.stop {
				if err := x.Err(); err != nil || sum.IsZero() {
					t.Fatalf("a context that is not done stopped the encoding: %v", err)
				}
				return
			}
			err := x.Err()
			if !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
				t.Fatalf("the error of a stopped encoding is %v, want ErrStopped and context.Canceled", err)
			}
			if made > stopEvery {
				t.Errorf("%d constructions after the context was done, want at most %d", made, stopEvery)
			}
			if !x.Not(x.Gt(v, x.Int(0))).IsZero() {
				t.Error("a constructor after the stop returned a term")
			}
		})
	}
}
