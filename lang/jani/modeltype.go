package jani

import "vigil/symbolic"

// exportType is the JANI model type Export writes: "dtmc" for a model
// read from a JANI dtmc (symbolic.Model.Type), whose enabled edges are
// taken with equal probability, not chosen (written as "mdp", Storm would
// answer another question); "mdp" otherwise.
func exportType(m *symbolic.Model) string {
	if m.Type == "dtmc" {
		return "dtmc"
	}
	return "mdp"
}
