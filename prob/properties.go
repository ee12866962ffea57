package prob

import (
	"strings"

	"vigil/symbolic"
)

// Properties returns the probability properties of m's own (a JANI
// model's P=?, Pmax=? and Pmin=? properties, in order), the ones vigil prob
// --property all computes, and why each other property with a query was
// skipped. The NAME_avoid properties that JANI import adds beside a P
// property of F φ (lang/jani) are no properties of the model's own and are
// neither returned nor skipped.
func Properties(m *symbolic.Model) (props []*symbolic.Property, skipped []error) {
	for i, p := range m.Properties {
		if p.Query == nil || i > 0 && addedAvoid(m.Properties[i-1], p) {
			continue
		}
		if _, err := PropertyQuery(p); err != nil {
			skipped = append(skipped, err)
			continue
		}
		props = append(props, p)
	}
	return props, skipped
}

// addedAvoid reports whether p is the NAME_avoid property that JANI import
// made from the same JANI property as prev, the one before it: the
// probability of reaching prev's goal, read as reaching unsafe states, at
// prev's position. Its name alone does not tell: a model may name its own
// property crash_avoid, and the import renames a generated one that would
// clash (reach_avoid_2).
func addedAvoid(prev, p *symbolic.Property) bool {
	return p.FromModel && prev.FromModel && p.Pos.IsValid() && p.Pos == prev.Pos &&
		prev.Goal != nil && p.Goal == nil && strings.Contains(p.Name, "_avoid")
}
