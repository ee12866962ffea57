package jani

import "testing"

// TestS28rMutateOperators replaces every field of the fixtures by an
// operator object with members missing or of the wrong kind ({"op": "/"},
// {"op": "-", "right": 1}, {"op": "ite", "if": true}, a call without
// arguments, ...), the way a half-written expression goes wrong: an
// arithmetic operand missing crashed probFrac (548e6c3), and the other
// operators and positions (guards, assignments, probabilities, initial
// values, property expressions) must say which member is missing, at a
// field path, not panic. VIGIL_JANI_MUTATE_DIR adds the .jani files of a
// directory.
func TestS28rMutateOperators(t *testing.T) {
	ops := []any{
		map[string]any{"op": "/"},
		map[string]any{"op": "/", "right": 2.0},
		map[string]any{"op": "*", "left": 0.5},
		map[string]any{"op": "-"},
		map[string]any{"op": "-", "right": 1.0},
		map[string]any{"op": "+", "left": nil, "right": 1.0},
		map[string]any{"op": "ite", "if": true},
		map[string]any{"op": "ite", "if": true, "then": 0.5, "else": nil},
		map[string]any{"op": "call"},
		map[string]any{"op": "call", "function": "zz", "args": []any{}},
		map[string]any{"op": "floor"},
		map[string]any{"op": "pow", "left": 2.0},
		map[string]any{"op": "min", "left": 1.0},
		map[string]any{"op": "%", "right": 2.0},
		map[string]any{"op": "∧", "left": true},
		map[string]any{"op": "¬"},
		map[string]any{"op": "≤", "left": 1.0},
		map[string]any{"op": "ac"},
		map[string]any{"op": "aa", "exp": nil},
		map[string]any{"op": "av"},
		map[string]any{"op": "Pmax"},
		map[string]any{"op": "U", "left": true},
		map[string]any{"op": "F"},
		map[string]any{"op": "filter", "fun": "max"},
		map[string]any{"op": "Emin", "exp": nil},
		map[string]any{"op": "der"},
		map[string]any{"op": 3.0},
		map[string]any{"exp": nil},
	}
	if testing.Short() {
		ops = ops[:8]
	}
	mutateFixtures(t, func([]any) []any { return ops })
}
