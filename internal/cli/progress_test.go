package cli

import (
	"flag"
	"strings"
	"testing"
	"time"
)

// Progress where stderr is not a terminal: a line every 10 s, a line a
// second with --progress, nothing with --quiet.
func TestProgressLines(t *testing.T) {
	for _, tc := range []struct {
		name         string
		force, quiet bool
		json         bool
		want         string
	}{
		{"default", false, false, false, "[10s] n=10\n[20s] n=20\n"},
		{"json", false, false, true, "[10s] n=10\n[20s] n=20\n"},
		{"forced", true, false, true, "[1s] n=1\n[2s] n=2\n[3s] n=3\n[4s] n=4\n[5s] n=5\n[6s] n=6\n[7s] n=7\n[8s] n=8\n[9s] n=9\n[10s] n=10\n[11s] n=11\n[12s] n=12\n[13s] n=13\n[14s] n=14\n[15s] n=15\n[16s] n=16\n[17s] n=17\n[18s] n=18\n[19s] n=19\n[20s] n=20\n"},
		{"quiet", false, true, false, ""},
	} {
		var b strings.Builder
		e := &Env{Stderr: &b}
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		e.AddProgressFlags(fs)
		var args []string
		if tc.force {
			args = append(args, "--progress")
		}
		if tc.quiet {
			args = append(args, "--quiet")
		}
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		clock := time.Unix(1000, 0)
		p := e.NewProgress(tc.json)
		p.now = func() time.Time { return clock }
		p.start, p.last = clock, clock
		for i := 1; i <= 20*4; i++ { // four updates a second for 20 s
			clock = clock.Add(250 * time.Millisecond)
			if i%4 == 0 {
				p.Printf("n=%d", i/4)
			} else {
				p.Printf("between")
			}
		}
		p.Clear()
		if got := b.String(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
