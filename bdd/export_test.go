package bdd

// ExplicitRegionStates lets tests bound (0: turn off) the explicit pass of
// the range-error search, to compare it with the symbolic one.
var ExplicitRegionStates = &explicitRegionStates

// ProgressEvery lets the figures sample progress every iteration (0), the
// baseline of the throttled sampling.
var ProgressEvery = &progressEvery
