package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path"
	"strings"
	"text/tabwriter"
	"time"

	"vigil/internal/cli"
	"vigil/load"
	"vigil/symbolic"
	"vigil/verify"
)

// policyListError is a --policy list that names no policy of the model
// (exit 1, as a wrong single name) or cannot be combined with other flags
// (usage, exit 2).
type policyListError struct {
	err   error
	usage bool
}

func (e *policyListError) Error() string { return e.err.Error() }

// policyList expands --policy when it names several policies: "all" (every
// policy the model declares under its -D values, in declaration order), a
// comma-separated list of names, globs (np2x3_*) and "all", in the order
// given, each policy once. It returns nil when --policy names one policy
// or none (a policy called "all" is that one), so that the one-policy path
// loads it and reports a wrong name or a model that does not load. With
// --policy-file, which replaces one declared policy, a list is refused.
func policyList(mf *modelFlags, file string) ([]string, error) {
	pat := *mf.pol
	if pat == "" || (pat != "all" && !strings.ContainsAny(pat, ",*?[")) {
		return nil, nil
	}
	if *mf.plaja.policyFile != "" {
		return nil, &policyListError{err: fmt.Errorf("--policy-file takes one policy: name it with --policy NAME (here %q names several)", pat), usage: true}
	}
	// stopped by a signal or --timeout too: the one-policy path reports it
	// (mf.preStop), at once
	l := mf.preload(file, load.Options{Defines: mf.defs, Files: mf.plaja.files(), Property: *mf.prop, PolicyDefault: load.OnlyPolicy})
	if l == nil {
		return nil, nil
	}
	m := l.Model
	if m.Policy(pat) != nil {
		return nil, nil
	}
	var all []string
	for _, p := range m.Policies {
		all = append(all, p.Name)
	}
	if len(all) == 0 {
		return nil, &policyListError{err: fmt.Errorf("model %s declares no policy (under these -D values): drop --policy to verify it over all labels", m.Name)}
	}
	var names []string
	seen := map[string]bool{}
	for _, item := range strings.Split(pat, ",") {
		item = strings.TrimSpace(item)
		var matched []string
		switch {
		case item == "all":
			matched = all
		case item == "":
			return nil, &policyListError{err: fmt.Errorf("%q has an empty name: separate names by single commas", pat), usage: true}
		case strings.ContainsAny(item, "*?["):
			if _, err := path.Match(item, ""); err != nil {
				return nil, &policyListError{err: fmt.Errorf("%q is not a valid pattern (use * and ? as in file names)", item), usage: true}
			}
			for _, n := range all {
				if ok, _ := path.Match(item, n); ok {
					matched = append(matched, n)
				}
			}
			if len(matched) == 0 {
				return nil, &policyListError{err: fmt.Errorf("no policy of model %s matches %q; it has: %s", m.Name, item, strings.Join(all, ", "))}
			}
		default:
			if m.Policy(item) == nil {
				return nil, &policyListError{err: &symbolic.NameError{What: "policy", Model: m.Name, Name: item, Names: all}}
			}
			matched = []string{item}
		}
		for _, n := range matched {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names, nil
}

// policyResult is one policy's line of vigil verify's summary over
// several policies.
type policyResult struct {
	Policy   string          `json:"policy"`
	ExitCode int             `json:"exit_code"`
	Verdict  string          `json:"verdict"`
	Engine   string          `json:"engine,omitempty"`
	Seconds  float64         `json:"seconds"`
	Result   json.RawMessage `json:"result,omitempty"` // the policy's own --json answer
	Error    string          `json:"error,omitempty"`  // what it printed on stderr, when it failed
}

// verifyEach verifies each policy of names in turn (all within the one
// --timeout of the command, the load of the list included: a policy that
// the timeout did not leave time for is not run; Ctrl-C stops them all)
// and ends with a summary: in text, each
// policy's report under a header, then a table; with --json one object
// whose "policies" hold each policy's answer. The exit code is the worst:
// an internal error (70), an input error (1), unsafe (3), unknown (4),
// else 0.
func verifyEach(e *cli.Env, sig context.Context, mf *modelFlags, names []string, out verifyOut, one func(verifyOut) int) int {
	for _, f := range []struct{ flag, val string }{{"--record", out.record}, {"--cert", out.cert}, {"--html", out.html}} {
		if f.val != "" && !strings.Contains(f.val, "{policy}") {
			return e.Fail(cli.ExitUsage, "vigil verify: %s %s with several policies: put {policy} in the file name (e.g. %s '%s'), which each policy's name replaces",
				f.flag, f.val, f.flag, withPolicy(f.val))
		}
	}
	stdout, stderr := e.Stdout, e.Stderr
	// base is e before the policies: a policy whose load was stopped
	// (Env.LoadTimedOut) marks e so that the command's exit 1 becomes 4;
	// each policy's row takes that as its own (unknown) and e is reset
	// after it, so that another policy's input error still exits 1 (a
	// stopped load and an error, or an unsafe policy, exited 4) and
	// --json's exit_code is the process's
	base := *e
	defer func() { *e = base }()
	// one(o) bounds its engine by the --timeout flag's value, which from
	// one policy to the next is what is left of the command's --timeout
	// (modelFlags.deadline; each policy's load ends by loadDeadline, at
	// least a second after the command's start, as one policy's does); the
	// flag gets its value back afterwards. A policy whose load would start
	// after loadDeadline is not run.
	deadline, limited := mf.deadline()
	loadDeadline, _ := mf.loadDeadline()
	var timeoutFlag flag.Value
	if limited {
		timeoutFlag = mf.fs.Lookup("timeout").Value
		defer timeoutFlag.Set(mf.clock.limit.String())
	}
	var rows []policyResult
	timedOut := false
	for i, name := range names {
		row := policyResult{Policy: name}
		if sig.Err() != nil || (limited && !time.Now().Before(loadDeadline)) {
			row.ExitCode, row.Verdict = cli.ExitUnknown, "not run"
			if sig.Err() == nil {
				timedOut = true
				row.Error = fmt.Sprintf("--timeout %s ran out before this policy", mf.clock.limit)
			}
			rows = append(rows, row)
			continue
		}
		if !out.json {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "== policy %s (%d of %d) ==\n", name, i+1, len(names))
		}
		*mf.pol = name
		o := out
		o.record = strings.ReplaceAll(o.record, "{policy}", name)
		o.cert = strings.ReplaceAll(o.cert, "{policy}", name)
		o.html = strings.ReplaceAll(o.html, "{policy}", name)
		o.report = func(r *verify.Report) { row.Verdict, row.Engine, row.Seconds = r.Verdict, r.Engine, r.Seconds }
		var res, errs bytes.Buffer
		e.Stderr = io.MultiWriter(stderr, &errs)
		if out.json {
			e.Stdout = &res
		}
		mf.loadStopped = false
		if limited {
			if err := timeoutFlag.Set(max(time.Until(deadline), time.Nanosecond).String()); err != nil {
				return e.Fail(cli.ExitBug, "vigil verify: the time left of --timeout: %v", err)
			}
		}
		row.ExitCode = one(o)
		*e = base
		if mf.loadStopped && row.ExitCode == cli.ExitError {
			// the load ran out of --timeout or was interrupted: no answer
			// (exit 4 for this policy alone), with what it printed
			row.ExitCode, row.Verdict = cli.ExitUnknown, "unknown"
			row.Error = strings.TrimSpace(errs.String())
		}
		if row.Verdict == "" {
			row.Verdict = "error"
			row.Error = strings.TrimSpace(errs.String())
		}
		if out.json && json.Valid(res.Bytes()) {
			row.Result = json.RawMessage(bytes.TrimSpace(res.Bytes()))
		}
		rows = append(rows, row)
	}
	code := cli.ExitOK
	rank := map[int]int{cli.ExitBug: 5, cli.ExitError: 4, cli.ExitUsage: 3, cli.ExitUnsafe: 2, cli.ExitUnknown: 1}
	for _, r := range rows {
		if rank[r.ExitCode] > rank[code] || (rank[code] == 0 && r.ExitCode != cli.ExitOK) {
			code = r.ExitCode
		}
	}
	verdict := map[int]string{cli.ExitOK: "safe", cli.ExitUnsafe: "unsafe", cli.ExitUnknown: "unknown"}[code]
	if verdict == "" {
		verdict = "error"
	}
	if out.json {
		return e.WriteJSON("verify", struct {
			Verdict  string         `json:"verdict"`
			ExitCode int            `json:"exit_code"`
			Policies []policyResult `json:"policies"`
		}{verdict, code, rows}, code)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r.Verdict]++
	}
	fmt.Fprintf(stdout, "\nsummary of %d policies: %d safe, %d unsafe, %d unknown", len(rows), count["safe"], count["unsafe"], count["unknown"])
	if n := count["error"]; n > 0 {
		fmt.Fprintf(stdout, ", %d failed", n)
	}
	if n := count["not run"]; n > 0 {
		why := "interrupted"
		if timedOut {
			why = fmt.Sprintf("--timeout %s ran out", mf.clock.limit)
		}
		fmt.Fprintf(stdout, ", %d not run (%s)", n, why)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  policy\tverdict\tengine\ttime")
	for _, r := range rows {
		t := ""
		if r.Engine != "" {
			t = fmt.Sprintf("%.3fs", r.Seconds)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Policy, r.Verdict, r.Engine, t)
	}
	if err := tw.Flush(); err != nil {
		return e.Fail(cli.ExitError, "vigil verify: %v", err)
	}
	return code
}

// withPolicy puts {policy} before the extension of file name f, for the
// example of an error message.
func withPolicy(f string) string {
	ext := path.Ext(f)
	if strings.HasSuffix(f, ".gz") {
		ext = path.Ext(strings.TrimSuffix(f, ".gz")) + ".gz"
	}
	return strings.TrimSuffix(f, ext) + "-{policy}" + ext
}
