package main

// Counterexamples as a person reads them (explicit.WriteCex): the first
// state in full, then at each step the variables that changed, the label
// taken and why the policy took it.

import (
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// printCex prints a counterexample. Without full, each state after the
// first lists only the variables whose values changed.
func printCex(e *env, lm *loadedModel, trace []explicit.Step, full bool) {
	explicit.WriteCex(e.stdout, lm.g, lm.dec, policyName(lm.decl), trace, full)
}

// reasonLine says why the policy chose its label (explicit.Reason.Line).
func reasonLine(m *symbolic.Model, d *symbolic.PolicyDecl, r *explicit.Reason, app []bool) string {
	return r.Line(m, policyName(d), app)
}

// formatValue writes a variable's value as FormatState does.
func formatValue(v *symbolic.Var, x int) string { return explicit.FormatValue(v, x) }
