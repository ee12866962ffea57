package ic3

// SetRebuildForTest sets rebuildLearned and rebuildLarge (PolIC3 rebuilds
// its solver after learned retired literals once its frames hold large
// live clauses) and returns the function that restores them.
func SetRebuildForTest(learned, large int) (restore func()) {
	oldL, oldG := rebuildLearned, rebuildLarge
	rebuildLearned, rebuildLarge = learned, large
	return func() { rebuildLearned, rebuildLarge = oldL, oldG }
}
