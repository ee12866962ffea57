package verify

import (
	"vigil/batch"
	"vigil/ic3"
	"vigil/load"
	"vigil/symbolic"
)

// BenchFacts says what vigil bench ic3 (batch.IC3Bench) needs to know of
// a loaded model to list its instances: its constants, the properties
// ic3 decides (ic3.Validate with every label; not a bounded property or
// one filtered over states, which only vigil prob computes), its rules and table
// policies, whether it declares policies at all, and the size of its
// state space.
func BenchFacts(m *symbolic.Model) batch.ModelFacts {
	f := batch.ModelFacts{HasPolicies: len(m.Policies) > 0, Policies: m.SymbolicPolicies()}
	for _, c := range m.Consts {
		f.Consts = append(f.Consts, c.Name)
	}
	for _, p := range m.Properties {
		if load.FilterStatesError(p) == nil && ic3.Validate(m, p, nil) == nil {
			f.Properties = append(f.Properties, p.Name)
		}
	}
	_, f.Log2States = m.StateSpaceSize()
	return f
}
