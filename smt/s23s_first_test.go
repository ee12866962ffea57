package smt

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vigil/symbolic/gen"
)

// TestS23sCheckBoundsFirst: CheckBounds with First stops at the first
// violation or undecided query, the same query the full check lists
// first, so "free of range errors" (both lists empty) is the full check's
// answer on every model; and with a context stopped before it starts it
// asks one query, answered Unknown, and stops (before, it went through
// every query of the model, each answering Unknown).
func TestS23sCheckBoundsFirst(t *testing.T) {
	free, erring := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 6, RangeErrors: seed%3 != 0})
		full, err := CheckBounds(m, CheckOptions{})
		must(t, err)
		first, err := CheckBounds(m, CheckOptions{First: true})
		must(t, err)
		if full.Stopped {
			t.Fatalf("seed %d: the full check stopped", seed)
		}
		fullFree := len(full.Violations) == 0 && len(full.Undecided) == 0
		firstFree := len(first.Violations) == 0 && len(first.Undecided) == 0
		if fullFree != firstFree || first.Stopped == firstFree {
			t.Fatalf("seed %d: free %v (stopped %v) with First, %v without", seed, firstFree, first.Stopped, fullFree)
		}
		if fullFree {
			free++
			continue
		}
		erring++
		if len(full.Undecided) > 0 {
			continue // which comes first is not recorded across the lists
		}
		if len(first.Violations) != 1 || len(first.Undecided) != 0 {
			t.Fatalf("seed %d: First found %d violations, %d undecided", seed, len(first.Violations), len(first.Undecided))
		}
		if first.Violations[0].Query != full.Violations[0].Query {
			t.Fatalf("seed %d: First stopped at %+v, the full check lists %+v first", seed, first.Violations[0].Query, full.Violations[0].Query)
		}
		if len(full.Violations) > 1 && full.Violations[1].Query == first.Violations[0].Query {
			t.Fatalf("seed %d: duplicated query", seed)
		}
	}
	if free == 0 || erring == 0 {
		t.Fatalf("%d free models, %d with range errors", free, erring)
	}

	// A stopped context: one query, Unknown, with the cause.
	cause := errors.New("test stop")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	tried := 0
	for seed := uint64(1); seed <= 60; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 6, RangeErrors: true})
		all, err := CheckBounds(m, CheckOptions{})
		must(t, err)
		if len(all.Violations) < 2 {
			continue
		}
		tried++
		res, err := CheckBounds(m, CheckOptions{Context: ctx})
		must(t, err)
		if !res.Stopped || len(res.Undecided) != 1 || len(res.Violations) != 0 || !strings.Contains(res.Undecided[0].Reason, "test stop") {
			t.Fatalf("seed %d, stopped context: stopped %v, undecided %v, %d violations", seed, res.Stopped, res.Undecided, len(res.Violations))
		}
	}
	if tried == 0 {
		t.Fatal("no model with two violations")
	}
}
