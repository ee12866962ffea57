package ic3

// SetWalks sets walkAfter (units of work before PolIC3 walks) and
// walkSteps (walk steps per unit of work) for a test and returns the
// function that restores them.
func SetWalks(after, steps int) (restore func()) {
	oldAfter, oldSteps := walkAfter, walkSteps
	walkAfter, walkSteps = after, steps
	return func() { walkAfter, walkSteps = oldAfter, oldSteps }
}
