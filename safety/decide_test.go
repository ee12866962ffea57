package safety_test

import (
	"context"
	"testing"
	"time"

	"vigil/safety"
)

// DecideStarts gives every start state, in enumeration order, the answer
// Decide gives it alone, with and without a deadline (under which the
// states are decided in chunks and turns).
func TestDecideStarts(t *testing.T) {
	in := load(t, "flappy.spec", "steer", "W=40", "S=4")
	for _, algo := range []string{"tarjan", "ipi"} {
		sp := safety.NewSpace(in.g, in.dec)
		d, err := safety.New(algo, sp, 1, safety.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want []safety.Verdict
		for _, s := range in.starts {
			id, _ := sp.Intern(s)
			ok, err := d.Decide(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, map[bool]safety.Verdict{true: safety.Safe, false: safety.Unsafe}[ok])
		}
		for _, timed := range []bool{false, true} {
			ctx := context.Background()
			if timed {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Minute)
				defer cancel()
			}
			sp := safety.NewSpace(in.g, in.dec)
			d, _ := safety.New(algo, sp, 1, safety.Options{})
			queued := 0
			res, err := safety.DecideStarts(ctx, d, func(n int) { queued = n })
			if err != nil {
				t.Fatal(err)
			}
			if res.More || len(res.States) != len(want) || queued != len(want) {
				t.Fatalf("%s (deadline %v): %d states, %d queued, more %v; want %d", algo, timed, len(res.States), queued, res.More, len(want))
			}
			for i, s := range res.States {
				if s.Verdict != want[i] || sp.Format(s.ID) != in.m.FormatState(in.starts[i]) {
					t.Errorf("%s (deadline %v): state %d %s: %v, want %s: %v", algo, timed, i, sp.Format(s.ID), s.Verdict, in.m.FormatState(in.starts[i]), want[i])
				}
			}
		}
	}
	// A stop before the first state leaves the enumeration unfinished.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, _ := safety.New("tarjan", safety.NewSpace(in.g, in.dec), 1, safety.Options{})
	res, err := safety.DecideStarts(ctx, d, nil)
	if err != nil || !res.More {
		t.Errorf("cancelled: %+v, %v; want more start states and no error", res, err)
	}
}
