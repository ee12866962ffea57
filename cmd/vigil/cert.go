package main

import (
	"fmt"
	"math"

	invcert "vigil/ic3/cert"
	"vigil/internal/cli"
	"vigil/safety/cert"
	"vigil/verify/certfile"
)

func init() {
	// vigil safe and verify --cert write to a temporary file renamed
	// over FILE at the end; a second Ctrl-C exits at once, without it
	cli.AtSignalExit(cert.RemoveTemps)
	cli.Register(&cli.Command{
		Name:    "cert",
		Summary: "check a safety certificate independently of the decider that wrote it",
		Usage:   "vigil cert check [flags] CERT",
		Examples: []string{
			"vigil cert check safe.cert.json",
			"vigil cert check inv.smt2",
		},
		Run: func(e *cli.Env, args []string) int { return e.RunSubcommands("cert", args) },
	})
	cli.Register(&cli.Command{
		Name:    "cert check",
		Summary: "check a certificate: exit 0 when it holds, 1 when it does not, 4 when stopped before a verdict or inconclusive",
		Usage:   "vigil cert check [flags] CERT",
		Help: `A safety certificate (CERT.json, written by vigil safe --cert) proves that
one state is safe or r-safe for a property and a tested policy, or that it
is not. An invariant certificate (SMT-LIB2, written by vigil verify --engine
ic3 --cert) proves that no run of the policy reaches an unsafe state; check
tests its conditions (init, consecution, safety, and a learned policy's
facts) with an encoding of its own: SMT-LIB2 text rebuilt from the model
and solved by Z3's text front end, not the encoder ic3 searches with.

A reachable-set certificate (JSON, kind "invariant", written by vigil
verify --engine bfs --cert, gzip-compressed when its name ends in .gz)
lists the states bfs reached; check enumerates the property's start
states itself and tests that each is listed, that every successor of a
listed state under the policy (every label without one) is listed and in
range, and that no listed state is unsafe. A certificate of kind "starts"
(vigil safe --starts --cert) proves the verdict of each start state it
lists, from one shared table.

check loads the model the certificate names (its "spec", defines and
PlaJA files). Certificates record these paths relative to themselves, and
the directory they were written in: a path is tried beside the
certificate, then where the certificate was written, so a certificate
checks from any directory, and after a move with its model or alone.
(Older certificates: from the current directory, then the certificate's.)
A file found in neither place is reported with each path looked for.
--spec and the PlaJA flags override what the certificate records. A certificate proves its claim for the -D
values it was made with only: -D values that differ from the recorded
ones are refused. So is an --argmax other than the one the certificate
was made with; the recorded one (the policy's arg-max reading, all or
applicable) is re-applied without the flag. check then prints what it
checked against: the model file and its -D values, the start, unsafe and
policy files, the model, property and policy with a network's or
ensemble's reading (argmax all or applicable), and the SHA-256 of the
policy's files with whether it matches the one the certificate records
(--json: all of it under "checked"). Every certificate records the model
hash (model-sha256 in an invariant certificate, model_sha256 in a JSON
one: the model as printed, with the policy's arg-max reading, the
property and the policy's files); check refuses one whose model changed,
naming both hashes (and the reading, when only that changed). A JSON
certificate written before vigil recorded the hash is checked in full
against the model as loaded, with a note that nothing binds it to the
model it was made for. Names and paths outside printable ASCII are printed escaped
(a Cyrillic a as \u0430), with a warning; a property or policy name
outside ASCII is refused.

Ctrl-C, SIGTERM or --timeout stops the check within a second and gives no
verdict: "unknown: interrupted before a verdict" (or "stopped by the
timeout"), exit 4; with --json, "verdict": "unknown" and "reason":
"interrupted" or "timeout". When Z3 answers unknown on one of an invariant
certificate's conditions (a resource limit, an incomplete theory), the
certificate could not be checked: "unknown: the certificate could not be
checked: Z3 answered unknown on the CONDITION condition: REASON", exit 4;
with --json, "verdict": "unknown", "reason": "inconclusive" and the
message as "error". So is a policy fact whose re-check passes one of the
checker's bounds (more states than it enumerates, more leaf regions or
weights than it handles): "unknown: the certificate could not be checked:
cannot re-check the policy fact on box N (label L) within the checker's
bounds: ...", exit 4; and a start condition that leaves more than 2^31
partial start states to enumerate (after the checker narrows the
variables' ranges by the bounds its conjuncts imply): "unknown: the
certificate could not be checked: the start condition of property P
leaves more than 2147483648 partial states to enumerate ...", exit 4;
exit 1 means that a condition or a fact was refuted,
or the file is not a certificate that fits the model.

A JSON certificate's entries are held in memory: one whose entries take
more than 2048 MiB by vigil's estimate (57 bytes an entry and 8 a
variable of its state; a bfs certificate of 16 million states of two
variables takes 1.2 GB by it) is not checked: "unknown: the certificate
could not be checked: ...: the entries and states read take more than
2048 MiB of memory", exit 4 (a limit, no verdict); --max-entry-memory MiB
raises the bound. Its header (the fields but entries, safe_states and
unsafe_states) may take 64 MiB.

--rlimit N bounds each of Z3's queries in the check of an invariant
certificate by Z3's deterministic resource limit (the same N does the same
work on every run, unlike --timeout): a query that reaches it leaves the
certificate unchecked, "...: the resource limit was reached (--rlimit N
per Z3 query; ...)", exit 4, never valid and never invalid; a Ctrl-C or
--timeout instead says "interrupted" or "stopped by the timeout". A small
model's conditions and a small box's policy facts are decided by exact
evaluation, without Z3, under any limit. 0 (the default) means no limit.

z3 CERT on an invariant certificate checks less: only the file's own
definitions (that the invariant written there is inductive for the
transition relation written there), never that they are the model's, nor
the policy facts.`,
		Examples: []string{
			"vigil cert check safe.cert.json",
			"vigil cert check safe.cert.json --spec model.spec -D L=20",
			"vigil cert check unsafe.cert.json --json",
			"vigil cert check inv.smt2 --timeout 1m",
			"vigil cert check inv.smt2 --rlimit 50000000",
			"vigil verify specs/flappy.spec --engine bfs --cert reach.json.gz; vigil cert check reach.json.gz",
		},
		Run: certCheck,
	})
}

func certCheck(e *cli.Env, args []string) int {
	fs, c := e.Flags("cert check")
	spec := fs.String("spec", "", "model file to check against (default: the certificate's spec)")
	plaja := addPlajaFlags(fs)
	defs := cli.Defines{}
	fs.Var(defs, "D", "a constant: -D `NAME=VALUE` (repeatable); refused unless the certificate was made with the same value")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeout := cli.TimeoutFlag(fs)
	rlimit := cli.AddCountFlag(fs, "rlimit", 0, "an invariant certificate: bound each Z3 query of the check by Z3's deterministic resource limit (rlimit, Z3's units of work); a query that reaches it leaves the certificate unchecked (unknown, exit 4), never valid; 0 means no limit")
	held := cli.AddCountFlag(fs, "max-entry-memory", int(cert.MaxHeld>>20), "a JSON certificate: refuse one whose entries and states take more than `MiB` of memory to hold (vigil's estimate; the check then needs about as much again)")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if *held < 1 || *held > math.MaxInt64>>20 {
		return e.Fail(cli.ExitUsage, "vigil cert check: --max-entry-memory %d: want a number of MiB from 1 on", *held)
	}
	cert.MaxHeld = int64(*held) << 20
	if len(rest) != 1 {
		return e.Fail(cli.ExitUsage, "vigil cert check: want one certificate file, got %d\nusage: %s", len(rest), c.Usage)
	}
	if *rlimit > math.MaxUint32 {
		return e.Fail(cli.ExitUsage, "vigil cert check: --rlimit %d is more than Z3 takes (at most %d; 0 means no limit)", *rlimit, uint32(math.MaxUint32))
	}
	ctx, cancel := cli.RunContext(*timeout)
	defer cancel()
	if *rlimit > 0 {
		ctx = invcert.WithRlimit(ctx, uint32(*rlimit))
	}
	r := certfile.Check(ctx, rest[0], certfile.Options{Spec: *spec, Files: plaja.files(), Defines: defs})
	e.PrintDiags(r.Diagnostics)
	printMessages(e, "cert check", r.Messages)
	if r.LoadErr != nil {
		printLoadError(e, "cert check", r.LoadErr)
	}
	code := cli.ExitOK
	switch {
	case r.Fault == certfile.Stopped, r.Fault == certfile.Inconclusive:
		code = cli.ExitUnknown
	case r.Err != nil:
		code = cli.ExitError
	}
	switch {
	case *asJSON:
		return e.WriteJSON("cert check", r.Report, code)
	case r.Err == nil:
		fmt.Fprintln(e.Stdout, r.Valid)
		r.Checked.WriteText(e.Stdout)
	case r.Fault == certfile.Stopped, r.Fault == certfile.Inconclusive: // no verdict
		fmt.Fprintf(e.Stdout, "unknown: %s\n", r.Msg)
		if r.Checked != nil {
			r.Checked.WriteText(e.Stdout)
		}
	case r.Fault == certfile.Loading: // the loader's error says it
	case r.Fault == certfile.Input:
		fmt.Fprintf(e.Stderr, "vigil cert check: %s\n", r.Msg)
	default:
		fmt.Fprintf(e.Stdout, "invalid: %s\n", r.Msg)
		if r.Checked != nil {
			r.Checked.WriteText(e.Stdout)
		}
	}
	return code
}
