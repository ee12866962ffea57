package ic3

// SetWalks sets walkAfter (units of work before PolIC3 walks) and
// walkSteps (walk steps per unit of work; walkDetSteps, that of
// deterministic models, to 8 times as many, as by default) for a test and
// returns the function that restores them.
func SetWalks(after, steps int) (restore func()) {
	oldAfter, oldSteps, oldDet := walkAfter, walkSteps, walkDetSteps
	walkAfter, walkSteps, walkDetSteps = after, steps, 8*steps
	return func() { walkAfter, walkSteps, walkDetSteps = oldAfter, oldSteps, oldDet }
}
