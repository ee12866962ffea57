//go:build !unix

package prob_test

import "os"

// maxRSS is not reported on this platform.
func maxRSS(*os.ProcessState) int64 { return -1 }
