package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS30rZeroAndEmptyAreErrors: keys whose value the batch read as if
// the key were not there are errors at the key. repetitions = 0 and
// seeds = [] ran each run once; time = "0s" and memory = "0GiB" set no
// limit; wall = "0s" set the default wall limit (time * 1.5 + 10s); a
// negative seed made every vigil run a usage error (vigil's --seed
// refuses it) in a directory seed--1. What is right still loads.
func TestS30rZeroAndEmptyAreErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.spec"), []byte("model m\nvar x : 0 .. 1 = 0\naction a -> x' = 1\nproperty p { unsafe x == 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const body = "[[algorithms]]\nname = \"bfs\"\nargs = [\"verify\", \"{model}\", \"--json\"]\n[[instances]]\ndomain = \"d\"\nmodels = [\"m.spec\"]\n"
	cases := []struct{ head, want string }{
		{"repetitions = 0\n", `exp.toml:2:1: error[B0003]: repetitions = 0: give 1 or more`},
		{"repetitions = -2\n", `exp.toml:2:1: error[B0003]: repetitions = -2: give 1 or more`},
		{"seeds = []\n", `exp.toml:2:1: error[B0003]: seeds is empty`},
		{"seeds = [3, -1]\n", `exp.toml:2:1: error[B0003]: seed -1 is negative`},
		{"repetitions = 0\nseeds = [1]\n", `give repetitions or seeds, not both`},
		{"[limits]\ntime = \"0s\"\n", `exp.toml:3:1: error[B0003]: a CPU time limit of 0 would stop every run at once`},
		{"[limits]\ntime = \"10s\"\nwall = \"0m\"\n", `exp.toml:4:1: error[B0003]: a wall limit of 0 would stop every run at once`},
		{"[limits]\nmemory = \"0GiB\"\n", `exp.toml:3:1: error[B0003]: a memory limit of 0 would stop every run at once`},
	}
	for _, c := range cases {
		path := filepath.Join(dir, "exp.toml")
		if err := os.WriteFile(path, []byte("name = \"e\"\n"+c.head+body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.head, err, c.want)
		}
	}
	for head, runs := range map[string]int{"": 1, "repetitions = 1\n": 1, "repetitions = 3\n": 3, "seeds = [0, 7]\n": 2, "[limits]\ntime = \"500ms\"\n": 1} {
		path := filepath.Join(dir, "exp.toml")
		if err := os.WriteFile(path, []byte("name = \"e\"\n"+head+body), 0o644); err != nil {
			t.Fatal(err)
		}
		x, err := Load(path)
		if err != nil {
			t.Fatalf("%q: %v", head, err)
		}
		if len(x.Runs) != runs {
			t.Errorf("%q: %d runs, want %d", head, len(x.Runs), runs)
		}
	}
}
