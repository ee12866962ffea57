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
	for _, p := range m.Properties {
		if p.Query == nil || strings.HasSuffix(p.Name, "_avoid") {
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
