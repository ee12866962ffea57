package ic3

import "vigil/smt"

// S33yCheckHooks sets, for the external tests of s33y_lost_test.go, the
// hooks that run before each check of the transition solver (checkHook)
// and of the current-state solver (curHook); nil clears them. Only tests
// set them: they run before any Check, and are cleared after.
func S33yCheckHooks(trans, cur func(*smt.Solver)) {
	checkHook, curHook = trans, cur
}
