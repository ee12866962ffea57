//go:build unix

package prob_test

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS returns the peak resident set size of the finished process ps in
// bytes (getrusage's ru_maxrss: KiB on Linux, bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return -1
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return ru.Maxrss
	}
	return ru.Maxrss * 1024
}
