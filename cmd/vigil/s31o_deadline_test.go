package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"vigil/internal/cli"
	"vigil/verify"
)

// s31oFlags returns model flags under a flag set with --timeout, parsed
// from args.
func s31oFlags(t *testing.T, args ...string) (*modelFlags, *time.Duration) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mf := addModelFlags(fs, "p", "q")
	timeout := cli.TimeoutFlag(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return mf, timeout
}

// --timeout is one deadline for the whole command: every load's context
// and the engine's after them end by the same time, from the command's
// first load (session 31: each load got the whole --timeout anew, as did
// the engine after them, so vigil faults, with two loads, could run three
// times its --timeout). The loads get at least a second from the start.
func TestS31oOneDeadline(t *testing.T) {
	mf, _ := s31oFlags(t, "--timeout", "2s")
	ctx1, cancel1, limit := mf.loadContext()
	defer cancel1()
	if limit != 2*time.Second {
		t.Errorf("loadContext's timeout %v; want the flag's 2s", limit)
	}
	time.Sleep(20 * time.Millisecond)
	ctx2, cancel2, _ := mf.loadContext()
	defer cancel2()
	d1, ok1 := ctx1.Deadline()
	d2, ok2 := ctx2.Deadline()
	if !ok1 || !ok2 || !d1.Equal(d2) {
		t.Errorf("two loads of one command: deadlines %v (%v) and %v (%v); want one", d1, ok1, d2, ok2)
	}
	run, cancel := mf.runContext()
	defer cancel()
	if d, ok := run.Deadline(); !ok || !d.Equal(d1) {
		t.Errorf("the engine's deadline %v (%v); want the loads' %v", d, ok, d1)
	}

	// a tiny --timeout: the loads get a second, the engine nothing
	mf, _ = s31oFlags(t, "--timeout", "1ns")
	lctx, lcancel, _ := mf.loadContext()
	defer lcancel()
	run, cancel = mf.runContext()
	defer cancel()
	ld, _ := lctx.Deadline()
	if rd, ok := run.Deadline(); !ok || ld.Sub(rd) < 900*time.Millisecond {
		t.Errorf("--timeout 1ns: load deadline %v, engine deadline %v; want the load's a second after the engine's", ld, rd)
	}
	select {
	case <-run.Done():
	case <-time.After(10 * time.Second):
		t.Error("--timeout 1ns: the engine's context is not done")
	}

	// no --timeout: no deadline
	mf, _ = s31oFlags(t)
	lctx, lcancel, _ = mf.loadContext()
	defer lcancel()
	run, cancel = mf.runContext()
	defer cancel()
	if _, ok := lctx.Deadline(); ok {
		t.Error("no --timeout: the load has a deadline")
	}
	if _, ok := run.Deadline(); ok {
		t.Error("no --timeout: the engine has a deadline")
	}
}

// verify --policy all runs its policies within the one --timeout: a policy
// whose load (or engine) takes all that is left is unknown, the policies
// after it are not run (before session 31 each got the whole --timeout
// again, so that N policies with slow loads took N times it), and the
// answers before it are kept in the summary and in its exit code. The
// policies' own verification is a stand-in here: "fast" answers safe at
// once, "slow" is a load that ends only when the load's deadline passes.
func TestS31oVerifyEachOneDeadline(t *testing.T) {
	for _, jsonOut := range []bool{false, true} {
		mf, timeout := s31oFlags(t, "--timeout", "1s")
		mf.startClock()
		var left []time.Duration
		one := func(o verifyOut) int {
			left = append(left, *timeout)
			if *mf.pol == "fast" {
				o.report(&verify.Report{Verdict: "safe", Engine: "bfs"})
				return cli.ExitOK
			}
			ld, _ := mf.loadDeadline()
			time.Sleep(time.Until(ld)) // a load that runs until it is stopped
			mf.loadStopped = true
			return cli.ExitError
		}
		var out, errs strings.Builder
		e := &cli.Env{Stdout: &out, Stderr: &errs}
		start := time.Now()
		code := verifyEach(e, context.Background(), mf, []string{"fast", "slow", "fast2", "slow2"}, verifyOut{json: jsonOut}, one)
		took := time.Since(start)
		if code != cli.ExitUnknown {
			t.Errorf("json %v: exit %d; want 4", jsonOut, code)
		}
		if *timeout != time.Second {
			t.Errorf("json %v: --timeout is %v after the policies; want its 1s back", jsonOut, *timeout)
		}
		if len(left) != 2 || left[0] > time.Second || left[1] >= left[0] {
			t.Errorf("json %v: the policies run got --timeout %v; want two, each what is left of 1s", jsonOut, left)
		}
		if took > 20*time.Second {
			t.Errorf("json %v: took %v under --timeout 1s", jsonOut, took)
		}
		t.Logf("json %v: %v", jsonOut, took.Round(time.Millisecond))
		if !jsonOut {
			want := "summary of 4 policies: 1 safe, 0 unsafe, 1 unknown, 2 not run (--timeout 1s ran out)"
			if !strings.Contains(out.String(), want) {
				t.Errorf("stdout %q; want %q", out.String(), want)
			}
			continue
		}
		var rep struct {
			Verdict  string
			ExitCode int `json:"exit_code"`
			Policies []policyResult
		}
		if err := json.Unmarshal([]byte(out.String()), &rep); err != nil {
			t.Fatalf("json: %v in %q", err, out.String())
		}
		var verdicts []string
		for _, p := range rep.Policies {
			verdicts = append(verdicts, p.Verdict)
		}
		if got := strings.Join(verdicts, " "); rep.ExitCode != 4 || got != "safe unknown not run not run" || !strings.Contains(rep.Policies[3].Error, "--timeout 1s ran out") {
			t.Errorf("json: exit_code %d, verdicts %q, %+v; want 4, \"safe unknown not run not run\" and the timeout named", rep.ExitCode, got, rep.Policies)
		}
	}
}
