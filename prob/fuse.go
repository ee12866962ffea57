package prob

import (
	"fmt"

	"vigil/symbolic"
)

// A JANI model of type "dtmc" (symbolic.Model.Type) has no choices: in a
// state where several edges are enabled, Storm fuses them into one
// distribution, each edge taken with equal probability
// (JaniNextStateGenerator: "If the model is a deterministic model, we need
// to fuse the choices into one"), where an mdp leaves the choice to the
// scheduler. Build does the same; the states reached, and so every safety
// verdict, are those of the MDP.

// IsDTMC reports whether m is a JANI dtmc, whose enabled commands Build
// fuses into one choice.
func IsDTMC(m *symbolic.Model) bool { return m.Type == "dtmc" }

// fuseChoices says whether Build fuses the n commands enabled in a state:
// in a dtmc without a policy (SolveProperty refuses one), when there are
// several.
func fuseChoices(m *symbolic.Model, opt Options, n int) bool {
	return IsDTMC(m) && opt.Policy == nil && n > 1
}

// dtmcPolicyError is SolveProperty's refusal of a policy on a dtmc.
func dtmcPolicyError(m *symbolic.Model, policy string) error {
	return fmt.Errorf("prob: model %s is a JANI dtmc: it has no choices for policy %s to make (the edges enabled in a state are taken with equal probability, as Storm reads it); drop the policy, or make the model an \"mdp\" to let a policy choose", m.Name, policy)
}
