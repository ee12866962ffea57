package symbolic

// Choosing the property and policy a command works on, from a name the
// user gave or by default, with messages that list what the model has.

import (
	"fmt"
	"strings"
)

// NameError is a property or policy that cannot be selected: none of that
// name, none at all, or several and no name given.
type NameError struct {
	What  string // "property" or "policy"
	Model string // the model's name
	Name  string // the name asked for, "" when none was
	Names []string
	// Several: no name was given and the model has several.
	Several bool
}

func (e *NameError) Error() string {
	all := strings.Join(e.Names, ", ")
	switch {
	case e.Name != "":
		return fmt.Sprintf("model %s has no %s %q%s; it has: %s", e.Model, e.What, e.Name, Suggest(e.Name, e.Names), orNone(all))
	case e.Several:
		plural := "properties"
		if e.What == "policy" {
			plural = "policies"
		}
		return fmt.Sprintf("model %s has several %s; choose one with --%s (%s)", e.Model, plural, e.What, all)
	}
	return fmt.Sprintf("model %s has no property; add a `property NAME { start ... unsafe ... }` block", e.Model)
}

// SelectProperty returns the property named name, or when name is "" the
// only one. A property read from a JANI model's properties section
// (FromModel) is chosen by default only where one is required: without
// one, a command sees the whole model (nothing terminal), as Storm builds
// it; so with required false, a model without properties of its own
// yields nil. A JANI property named by a .spec keyword (goal) got a
// trailing underscore at import, and its JANI name selects it too.
func (m *Model) SelectProperty(name string, required bool) (*Property, error) {
	names := m.PropertyNames()
	if name != "" {
		if p := m.Property(name); p != nil {
			return p, nil
		}
		if p := m.Property(name + "_"); p != nil && p.FromModel {
			return p, nil
		}
		if why, ok := m.Dropped[name]; ok {
			return nil, fmt.Errorf("model %s: property %q was not imported: %s; it has: %s", m.Name, name, why, orNone(strings.Join(names, ", ")))
		}
		return nil, &NameError{What: "property", Model: m.Name, Name: name, Names: names}
	}
	var own []*Property
	for _, p := range m.Properties {
		if !p.FromModel {
			own = append(own, p)
		}
	}
	if !required && len(own) == 0 {
		if !m.StartsRestricted {
			return nil, nil
		}
		// the whole model, from the start states JANI gives it: the
		// import's "initial" property of a model without properties
		// has exactly those (and nothing unsafe); with properties of
		// its own, each has them, but also its targets
		if len(m.Properties) == 1 && m.Properties[0].Name == "initial" && m.Properties[0].Goal == nil && m.Properties[0].Unsafe.Op == CFalse {
			return m.Properties[0], nil
		}
		return nil, fmt.Errorf("model %s restricts its start states (a JANI restrict-initial, or variables without initial values), which only its properties carry: choose one with --property (%s)", m.Name, strings.Join(names, ", "))
	}
	if len(own) == 0 {
		own = m.Properties
	}
	switch len(own) {
	case 0:
		return nil, &NameError{What: "property", Model: m.Name}
	case 1:
		return own[0], nil
	}
	return nil, &NameError{What: "property", Model: m.Name, Names: names, Several: true}
}

// SelectPolicy returns the policy named name; with name "" and byDefault,
// the only one (nil when the model has none), otherwise nil. The error is a
// *NameError.
func (m *Model) SelectPolicy(name string, byDefault bool) (*PolicyDecl, error) {
	var names []string
	for _, p := range m.Policies {
		names = append(names, p.Name)
	}
	if name != "" {
		if p := m.Policy(name); p != nil {
			return p, nil
		}
		return nil, &NameError{What: "policy", Model: m.Name, Name: name, Names: names}
	}
	if !byDefault || len(m.Policies) == 0 {
		return nil, nil
	}
	if len(m.Policies) == 1 {
		return m.Policies[0], nil
	}
	return nil, &NameError{What: "policy", Model: m.Name, Names: names, Several: true}
}

// PropertyNames lists the names of m's properties in order.
func (m *Model) PropertyNames() []string {
	var names []string
	for _, p := range m.Properties {
		names = append(names, p.Name)
	}
	return names
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
