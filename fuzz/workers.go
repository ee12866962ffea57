package fuzz

import (
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// NewSafetyTasks makes one task per worker of SafetyTest (at least one),
// each testing policy decl with a decider of its own (deciders keep state
// between calls); the first task uses dec when it is not nil.
func NewSafetyTasks(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, dec explicit.Decider, workers int) ([]*SafetyTask, error) {
	return tasks(m, decl, dec, workers, func(d explicit.Decider) (*SafetyTask, error) { return NewSafetyTask(m, prop, d, decl.Name) })
}

// NewGoalTasks makes one task per worker of GoalTest (at least one), as
// NewSafetyTasks does.
func NewGoalTasks(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, dec explicit.Decider, workers int) ([]*GoalTask, error) {
	return tasks(m, decl, dec, workers, func(d explicit.Decider) (*GoalTask, error) { return NewGoalTask(m, prop, d, decl.Name) })
}

func tasks[T any](m *symbolic.Model, decl *symbolic.PolicyDecl, dec explicit.Decider, workers int, mk func(explicit.Decider) (T, error)) ([]T, error) {
	out := make([]T, max(1, workers))
	for i := range out {
		d := dec
		if i > 0 || d == nil {
			var err error
			if d, err = explicit.NewDecider(m, decl); err != nil {
				return nil, err
			}
		}
		t, err := mk(d)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// share is worker w's share of n among k workers: n/k, and one more for
// each of the first n mod k workers, so that the shares sum to n.
// (Written (n+k-1-w)/k, it overflowed for n near 2^63: --pool 2^63-1
// with two workers was "pool size -4611686018427387904: must be
// positive".) share(n, k, 0) is n/k rounded up.
func share(n, k, w int) int {
	s := n / k
	if w < n%k {
		s++
	}
	return s
}
