package bdd

// ExplicitRegionStates lets tests bound (0: turn off) the explicit pass of
// the range-error search, to compare it with the symbolic one.
var ExplicitRegionStates = &explicitRegionStates
