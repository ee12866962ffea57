package safety_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/safety"
)

// TestS28sLRTDPSeed: vigil safe --algo lrtdp --seed N was accepted (and
// documented) as seeding LRTDP's ties, but LRTDP never read the seed: a
// trial always followed the first outcome of largest value. The ties are
// now drawn from the seed: on flappy (two outcomes a step, equal values
// until the trials raise them) different seeds take different trials,
// the same seed the same ones, and every seed gives the same answers.
func TestS28sLRTDPSeed(t *testing.T) {
	in := load(t, "flappy.spec", "steer", "W=36", "S=6")
	run := func(seed uint64) (string, string) {
		sp := safety.NewSpace(in.g, in.dec)
		d, err := safety.New("lrtdp", sp, safety.Inf, safety.Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var ans []bool
		for _, s := range in.starts {
			id, err := sp.Intern(s)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := d.Decide(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			ans = append(ans, ok)
		}
		st := d.Stats()
		return fmt.Sprint(ans), fmt.Sprintf("%d expanded, %d backups, %d trials", st.Expanded, st.Backups, st.Iters)
	}
	ans1, work1 := run(1)
	if again, workAgain := run(1); again != ans1 || workAgain != work1 {
		t.Errorf("seed 1 twice: %s, %s and %s, %s", ans1, work1, again, workAgain)
	}
	differ := false
	for seed := uint64(2); seed <= 6; seed++ {
		ans, work := run(seed)
		if ans != ans1 {
			t.Errorf("seed %d: answers %s, seed 1: %s", seed, ans, ans1)
		}
		differ = differ || work != work1
	}
	if !differ {
		t.Errorf("seeds 1 to 6 all take the same trials (%s): the seed is not read", work1)
	}
}
