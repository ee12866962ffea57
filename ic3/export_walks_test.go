package ic3

import "time"

// SetWalkAfter sets walkAfter for a test and returns the function that
// restores it.
func SetWalkAfter(d time.Duration) (restore func()) {
	old := walkAfter
	walkAfter = d
	return func() { walkAfter = old }
}
