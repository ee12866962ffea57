package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS23tTestOtherModeFlags: vigil test accepted the flags of the mode it
// does not run and ignored them: --mode safety --outcomes fair (even
// --outcomes bogus) tested as if the flag were absent, as did goal mode
// with --radius 1 or --runs 0. Each is now a usage error naming the flag,
// whether the mode was given or defaulted from the property; each mode's
// own flags still work.
func TestS23tTestOtherModeFlags(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "g.spec")
	if err := os.WriteFile(spec, []byte(`model g
var x : 0 .. 9 = 0
action inc when x < 9 -> x' = x + 1
action dec when x > 0 -> x' = x - 1
policy rules p { when x == 5 -> dec  otherwise -> inc }
property goal_only { unsafe false  goal x == 9 }
property both { start x >= 1  unsafe x == 0  goal x == 9 }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		flag string // "" when the flags belong to the mode
	}{
		{[]string{"--property", "both", "--outcomes", "fair"}, "outcomes"},
		{[]string{"--property", "both", "--mode", "safety", "--outcomes", "bogus"}, "outcomes"},
		{[]string{"--property", "both", "--mode", "safety", "--pool", "0"}, "pool"},
		{[]string{"--property", "both", "--walk", "3"}, "walk"},
		{[]string{"--property", "both", "--steps", "10"}, "steps"},
		{[]string{"--property", "both", "--depth", "3"}, "depth"},
		{[]string{"--property", "both", "--bstate", "3"}, "bstate"},
		{[]string{"--property", "both", "--bexpansion", "3"}, "bexpansion"},
		{[]string{"--property", "goal_only", "--radius", "1"}, "radius"},
		{[]string{"--property", "goal_only", "--runs", "0"}, "runs"},
		{[]string{"--property", "both", "--mode", "goal", "--max-len", "-5"}, "max-len"},
		{[]string{"--property", "both", "--mode", "goal", "--expansions", "7"}, "expansions"},
		{[]string{"--property", "both", "--radius", "1", "--runs", "20"}, ""},
		{[]string{"--property", "goal_only", "--outcomes", "fair", "--pool", "20", "--depth", "3"}, ""},
		{[]string{"--property", "both", "--mode", "goal", "--walk", "3"}, ""},
	} {
		args := append([]string{"test", spec, "--seed", "1"}, c.args...)
		code, _, errs := vigilRun(args...)
		if c.flag == "" {
			if code != 0 && code != 3 {
				t.Errorf("%v: exit %d, stderr %q; want a test", c.args, code, errs)
			}
			continue
		}
		if code != 2 || !strings.Contains(errs, "--"+c.flag+" is a flag of ") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming --%s", c.args, code, errs, c.flag)
		}
	}
}
