package safety

// NewTarjanNoLookahead returns TarjanSafe without the look-ahead that
// settles a state by a group whose successors are already decided (the
// search before session 16), as the figures' baseline.
func NewTarjanNoLookahead(sp *Space, r Radius) *Tarjan {
	d := NewTarjan(sp, r)
	d.noLook = true
	return d
}

// NewVIAllGroups returns VI building its region under every label, each
// state with the whole radius as budget (the region before session 16,
// which met range errors off the radius), as the figures' baseline.
func NewVIAllGroups(sp *Space, r Radius) *VI {
	d := NewVI(sp, r)
	d.allGroups = true
	return d
}

// SetMaxPairs lowers the pairs bound (MaxPairs) until the returned
// function restores it.
func SetMaxPairs(n int64) (restore func()) {
	old := maxPairs
	maxPairs = n
	return func() { maxPairs = old }
}

// ForceScopeSearch makes the deciders over sp search every question's
// scope, as for a model not proven free of range errors.
func ForceScopeSearch(sp *Space) { sp.errFree = -1 }
