package safety

// Check is vigil safe with an explicit decider as a library call: decide
// one state or every start state, write the certificate of the decided
// ones, and return the report with the decider's figures.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vigil/internal/phrase"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// CheckOptions configure Check.
type CheckOptions struct {
	// State is the state to decide; nil decides every start state of the
	// property, as they are enumerated (DecideStarts).
	State symbolic.State
	// Cert, when set, is the file the certificate of the decided states
	// is written to (WriteCertificate, one table for all of them), with
	// Source saying how to load the model again.
	Cert   string
	Source Source
	// Policy names the tested policy in the report ("" for none).
	Policy string
	// Progress, when set, is shown a status line now and then.
	Progress func(line string)
}

// Check decides the states of o with d and returns the report, its
// verdict set (Report.Finish): unknown when ctx stopped it before every
// state was decided (Reason says why), else unsafe when some state is
// not (r-)safe, else safe. r is the radius d decides. A certificate that
// could not be written returns the report and a *CertError.
func Check(ctx context.Context, d Decider, r Radius, o CheckOptions) (*Report, error) {
	sp := d.Space()
	rep := &Report{Model: sp.G.M.Name, Property: sp.G.Prop.Name, Policy: o.Policy, Radius: r.String(), Algo: d.Name()}
	t0 := time.Now()
	queued := 0
	if o.Progress != nil {
		d.SetProgress(func(st Stats) {
			o.Progress(fmt.Sprintf("safe (%s): %d states decided, %d expanded, %d stored", d.Name(), queued, st.Expanded+st.Scope, sp.Len()))
		})
	}
	var res *Starts
	var err error
	if o.State != nil {
		queued = 1
		res, err = DecideState(ctx, d, o.State)
	} else {
		res, err = DecideStarts(ctx, d, func(n int) { queued = n })
	}
	if err != nil {
		return nil, err
	}
	decided := rep.Add(sp, res)
	var certErr error
	if o.Cert != "" && len(decided) > 0 {
		switch err := WriteCertificate(ctx, o.Cert, d, decided, o.Source); {
		case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
			// the verdicts stand; FILE was not written (an older one is kept)
			rep.CertNotWritten = o.Cert
		case err != nil:
			certErr = &CertError{Path: o.Cert, Err: err}
		default:
			for i := range rep.States {
				if rep.States[i].Verdict != "unknown" {
					rep.States[i].Cert = o.Cert
				}
			}
		}
	}
	st := d.Stats()
	rep.Seconds, rep.Expanded, rep.ScopeExpanded, rep.Backups, rep.Stored = time.Since(t0).Seconds(), st.Expanded, st.Scope, st.Backups, sp.Len()
	rep.Reason = phrase.StopReason(ctx)
	rep.Finish()
	return rep, certErr
}

// CertError is Check's error when the states were decided and their
// certificate could not be written (not by a stop: that is
// Report.CertNotWritten): Check returns the report with it, whose verdicts
// stand.
type CertError struct {
	Path string
	Err  error
}

func (e *CertError) Error() string { return e.Err.Error() }
func (e *CertError) Unwrap() error { return e.Err }

// CheckRun is vigil faults as a library call: the fault analysis of run
// (state ids from RunStates) with d (Faults), reported with the names of
// the model, property and policy. When ctx stops it, the report holds what
// was analysed and Reason says why.
func CheckRun(ctx context.Context, d Decider, run []uint32, policy string, progress func(line string)) (*FaultsReport, error) {
	sp := d.Space()
	if progress != nil {
		d.SetProgress(func(st Stats) {
			progress(fmt.Sprintf("faults (%s): %d expanded, %d stored", d.Name(), st.Expanded+st.Scope, sp.Len()))
		})
	}
	t0 := time.Now()
	fr, err := Faults(ctx, d, run)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	rep := NewFaultsReport(sp.G.M, d, sp, fr, len(run), time.Since(t0), phrase.StopReason(ctx))
	rep.Property, rep.Policy = sp.G.Prop.Name, policy
	return rep, nil
}

// ReadRun reads the run file at path (explicit.ReadRunFile) and returns
// its states in sp (RunStates), for CheckRun. Its errors name the file.
func ReadRun(sp *Space, path string) ([]uint32, error) {
	_, steps, err := explicit.ReadRunFile(path, sp.G.M)
	if err != nil {
		return nil, err
	}
	run, err := RunStates(sp, steps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return run, nil
}
