package main

import (
	"flag"
	"fmt"

	"vigil/internal/cli"
)

// maxWorkers bounds -j.
const maxWorkers = 256

// addWorkersFlag registers -j, the goroutines of the explicit search.
func addWorkersFlag(fs *flag.FlagSet) *int {
	return fs.Int("j", 1, "bfs: search on this many goroutines (level-synchronous parallel BFS: the same states, verdicts and counterexample lengths as -j 1)")
}

// checkWorkers reports a -j outside 1..maxWorkers, or -j N > 1 with an
// engine other than the explicit search (bfs says whether it is that one).
func checkWorkers(e *cli.Env, cmd string, j int, bfs bool) bool {
	if j < 1 || j > maxWorkers {
		fmt.Fprintf(e.Stderr, "vigil %s: -j %d: give a number of goroutines from 1 to %d\n", cmd, j, maxWorkers)
		return false
	}
	if j > 1 && !bfs {
		fmt.Fprintf(e.Stderr, "vigil %s: -j runs the explicit search on several goroutines; it applies to --engine bfs (and auto) only\n", cmd)
		return false
	}
	return true
}
