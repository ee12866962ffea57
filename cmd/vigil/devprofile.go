package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startDevProfile writes a CPU profile of the whole command to the file
// VIGIL_CPUPROFILE names, for developers (go tool pprof); without it, it does
// nothing. The returned function stops the profile.
func startDevProfile() func() {
	path := os.Getenv("VIGIL_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	fh, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "vigil: VIGIL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(fh); err != nil {
		fmt.Fprintf(os.Stderr, "vigil: VIGIL_CPUPROFILE: %v\n", err)
		fh.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); fh.Close() }
}
