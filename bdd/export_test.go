package bdd

// ExplicitRegionStates lets tests bound (0: turn off) the explicit pass of
// the range-error search, to compare it with the symbolic one.
var ExplicitRegionStates = &explicitRegionStates

// ProgressEvery lets the figures sample progress every iteration (0), the
// baseline of the throttled sampling.
var ProgressEvery = &progressEvery

// SquareAfter lets tests try iterative squaring after any number of
// layered rounds (0: at once; negative: never).
var SquareAfter = &squareAfter

// ClosureNodes lets tests shrink the closure's node allowance, so that it
// is abandoned.
var ClosureNodes = &closureNodes

// ClosureShare lets tests lift squaring's work allowance (0).
var ClosureShare = &closureShare

// ClosureMaxNodes lets tests make every relation too wide to square.
var ClosureMaxNodes = &closureMaxNodes

// SlicedTraces counts the counterexamples Verify built from squaring's
// slices rather than from layered rounds.
var SlicedTraces = &slicedTraces

// TraceStates lets tests bound (0: turn off) the explicit trace steps and
// windows, to compare them with the BDD operations.
var TraceStates = &traceStates

// ExplicitSteps counts the trace steps taken explicitly.
var ExplicitSteps = &explicitSteps

// ExplicitWindows counts the windows of slices built explicitly.
var ExplicitWindows = &explicitWindows

// AsyncTable lets tests count the figures after every layer and run
// OpHook before every operation (0).
var AsyncTable = &asyncTable

// OpHook lets tests run code on the computation's goroutine before an
// operation, outside the manager's lock (to end the context while it
// runs).
var OpHook = &opHook

// AutoTrialNodes lets tests shrink OrderAuto's node allowance, so that
// its trials do not fit.
var AutoTrialNodes = &autoTrialNodes

// AnswerHook lets tests end the context once Verify's or PropU's answer
// is established, before its counts.
var AnswerHook = &answerHook

// Abandon marks the manager of s abandoned for reason, as a stop during an
// operation longer than the grace does: later operations stop at once.
func Abandon(s *Safety, reason string) {
	s.sp.m.abandonReason = reason
	s.sp.m.abandoned.Store(true)
}
