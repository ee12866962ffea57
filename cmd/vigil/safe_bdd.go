package main

// vigil safe --algo propu-bdd: Prop-U with BDDs over every state at once
// (package bdd), then the answers for the states asked.

import (
	"fmt"
	"time"

	"vigil/bdd"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/verify"
)

// maxListedStarts bounds the start states propu-bdd lists one by one.
const maxListedStarts = 1000

// runSafeBDD is vigil safe --algo propu-bdd: the unsafe region of every
// state at once, then the answers for the states asked.
func runSafeBDD(e *env, sf *safetyFlags, bf *bddFlags, file, stateText string, all bool, cubes int, certFile string) int {
	if !bf.check(e, "safe", true) {
		return exitUsage
	}
	r := *sf.radius
	switch {
	case r != safety.Inf && r != 0:
		fmt.Fprintf(e.stderr, "vigil safe: --algo propu-bdd decides radius inf or 0; for radius %v use an explicit decider (--algo propu)\n", r)
		return exitUsage
	case certFile != "":
		fmt.Fprintln(e.stderr, "vigil safe: --algo propu-bdd writes no certificates; use an explicit decider (--algo propu) with --cert")
		return exitUsage
	case cubes < 0:
		fmt.Fprintf(e.stderr, "vigil safe: --cubes %d: give a number of cubes (0 lists none)\n", cubes)
		return exitUsage
	}
	lm, ok := loadSafety(e, "safe", sf, file, r >= 0)
	if !ok {
		return exitError
	}
	// The states to answer for: the one --state gives, the start states
	// when there are few and they are listed within a second (else they
	// are answered as a set), or none for --all.
	scope, states := "all", []symbolic.State(nil)
	switch {
	case stateText != "":
		scope = "state"
		s, ok := parseState(e, lm.m, stateText)
		if !ok {
			return exitError
		}
		states = append(states, s)
	case !all:
		scope = "start"
		var err error
		if states, err = lm.g.FewStarts(maxListedStarts, time.Second); err != nil {
			fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
			return exitFor(err)
		}
	}
	ctx, cancel := runContext(*sf.timeout)
	defer cancel()
	prog := newProgress(e, *sf.jsonOut)
	res, err := bdd.PropU(ctx, lm.m, lm.prop, lm.decl, r, states, bf.options(prog, "safe (propu-bdd)"))
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
		return exitFor(err)
	}
	rep, err := verify.NewSafeBDDReport(lm.m, lm.prop, policyName(lm.decl), r, scope, res, states, cubes, bf.order.val)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
		return exitFor(err)
	}
	return finishSafe(e, rep.Report, *sf.jsonOut, rep)
}
