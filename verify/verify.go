// Package verify is vigil's one entry point for "decide this question":
// can a policy, from a start state of a property, reach an unsafe state of
// a model? A Question names the model, the property, the policy, the
// engine and the limits; Decide runs the engine and checks its answer
// before it returns it:
//
//   - an unsafe verdict carries a counterexample that replayed in the
//     explicit semantics (symbolic/explicit, the ground truth);
//   - a safe verdict of ic3, polic3 and ppa carries an inductive invariant
//     that the independent checker of ic3/cert accepted; bfs and bdd
//     decide by exhaustive reachability, and bfs keeps the reached states
//     for a certificate that vigil cert check re-enumerates;
//   - otherwise the verdict is unknown, with the reason and the figures
//     reached.
//
// Engines live in a registry (Register, Lookup, Names): bfs, ic3, ic3-nog,
// polic3, polic3-nog, bdd, ppa and auto, the portfolio that runs bfs, IC3
// and a counterexample hunter at once and returns the first checked
// verdict. A new engine implements Engine and registers itself in one
// place; Decide checks its answers like every other's.
//
// A check that fails is a bug in vigil, never an answer: Decide returns an
// *InternalError and no verdict.
package verify

import (
	"context"
	"errors"
	"fmt"
	"time"
	"vigil/internal/phrase"
	"vigil/internal/untildone"

	"vigil/bdd"
	invcert "vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Question is what Decide is asked.
type Question struct {
	Model    *symbolic.Model
	Property *symbolic.Property
	// Policy chooses the labels; nil: every applicable label (the claim
	// is then about every choice).
	Policy *symbolic.PolicyDecl
	// Executable, when set, is Policy's evaluation built in memory (a
	// generated network or ensemble without files); nil: engines
	// instantiate Policy from its files.
	Executable symbolic.Policy
	// Compiled, when set, is Model and Property compiled by
	// explicit.New(Context) (the caller already has it: vigil verify
	// compiles the model when it loads it); it is used when Start and
	// Unsafe are nil and it was compiled from this Model and Property,
	// and otherwise ignored. Compiling a model of millions of expression
	// nodes takes seconds.
	Compiled *explicit.Generator
	// Start and Unsafe, when set, replace the property's conditions (the
	// question is then about a copy of the model with the property so
	// changed; certificates record that copy's hash).
	Start, Unsafe *symbolic.Cond
	// Engine is the name of a registered engine; "" is "bfs".
	Engine string
	Limits Limits
	// Progress, when set, is called now and then with what the engine
	// has done so far.
	Progress func(Progress)
	// Options of single engines; each ignores the others'.
	BFS BFSOptions
	IC3 IC3Options
	PPA PPAOptions
	BDD BDDOptions
	// Header is what a certificate records about where the question came
	// from: the model file, -D values, PlaJA files and the certificate's
	// directory (paths as the certificate should record them). Decide
	// fills in the property, policy, hashes, boxes and policy facts.
	Header invcert.Header
	// Certificate says a certificate file is wanted: ppa then exports and
	// checks its invariant however large it is, and a safe answer that
	// cannot be exported is an error rather than a note.
	Certificate bool
	// Tamper, set only by tests of the checks, alters an engine's answer
	// before Decide checks it.
	Tamper *Tamper
}

// Limits bound a decision. Zero fields mean no bound (MaxNodes: the BDD
// engine's default).
type Limits struct {
	// Timeout bounds the whole decision, checks included.
	Timeout time.Duration
	// MaxStates bounds the states bfs stores (auto: AutoStates() when 0 or
	// larger).
	MaxStates int
	// MaxNodes is the BDD engine's node budget.
	MaxNodes int
}

// Progress is a report of an engine at work.
type Progress struct {
	Engine string // the engine's name, as in Verdict.Engine
	Text   string // what it has done so far, one line
}

// Tamper alters an engine's answer before it is checked, so that tests
// can drive the paths a correct engine never takes.
type Tamper struct {
	Trace     func([]explicit.Step) []explicit.Step // alters a counterexample
	Invariant func([][]smt.Lit) [][]smt.Lit         // alters an invariant
}

// Verdict is a checked answer.
type Verdict struct {
	// Answer is explicit.Safe, explicit.UnsafeVerdict or explicit.Unknown.
	Answer explicit.Verdict
	// Engine is the engine that answered: bfs, ic3, ic3-nog, polic3,
	// polic3-nog, bdd, ppa, or hunt (auto's counterexample hunter).
	Engine string
	// Reason says why the answer is Unknown.
	Reason string
	// Trace (Unsafe) is a counterexample that replayed in the explicit
	// semantics with the policy's decisions.
	Trace []explicit.Step
	// Invariant (Safe, ic3, polic3 and ppa) is the certificate that the
	// independent checker accepted; ppa leaves it nil when its invariant
	// could not be exported or was too large to check (CertNote says).
	Invariant *invcert.Cert
	// CertNote (ppa, Safe) says what became of the invariant.
	CertNote string
	// Elapsed is the engine's time (the winner's, for auto).
	Elapsed time.Duration
	// The engine's own result, with its statistics; one is set.
	BFS  *explicit.Result
	IC3  *IC3Result
	PPA  *PPAResult
	BDD  *bdd.Result
	Hunt *HuntStats
	// Auto (engine auto) says how each engine of the portfolio ended.
	Auto *AutoStats

	prep *Prepared // the question the verdict answers, for its reports
	// exhaustive is the question a safe answer of bfs or bdd (exhaustive
	// reachability) or ppa (which checked its own invariant) answered:
	// set by this package's engines only, so that an engine registered
	// from outside cannot claim safe by filling in Verdict.BFS, BDD or
	// PPA, nor pass off a safe verdict of another question as its own.
	exhaustive *Prepared
	// checked is the question whose checks the portfolio (auto) ran on
	// this verdict: set by decideAuto only, so that Verdict.Auto alone
	// does not skip the checks.
	checked *Prepared
}

// InternalError is a check of an engine's answer that failed: a
// counterexample that does not replay, an invariant the checker rejects.
// It is a bug in vigil.
type InternalError struct{ Msg string }

func (e *InternalError) Error() string { return "internal error: " + e.Msg }

func internal(format string, args ...any) error {
	return &InternalError{Msg: fmt.Sprintf(format, args...)}
}

// Decide answers q with its engine and checks the answer. An error is a
// question the engine cannot take (bad input, an unknown engine) or an
// *InternalError; a limit or the end of ctx gives Unknown.
func Decide(ctx context.Context, q *Question) (*Verdict, error) {
	name := q.Engine
	if name == "" {
		name = "bfs"
	}
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("verify: unknown engine %q; choose one of %v", name, Names())
	}
	if q.Limits.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, q.Limits.Timeout)
		defer cancel()
	}
	p, err := prepare(ctx, q)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			doing := "compiling the model"
			var le *loadStopped
			if errors.As(err, &le) {
				doing = "loading the policy"
			}
			return &Verdict{Answer: explicit.Unknown, Engine: name, Reason: stopReason(ctx) + " while " + doing}, nil
		}
		return nil, err
	}
	v, err := decide(ctx, p, e)
	if v != nil && v.prep == nil { // auto may give its winner its own (ownSemantics)
		v.prep = p
	}
	return v, err
}

// decide runs e on the prepared question and checks its answer.
func decide(ctx context.Context, p *Prepared, e Engine) (*Verdict, error) {
	v, err := e.Decide(ctx, p)
	if err != nil {
		return nil, err
	}
	if v != nil && v.Auto != nil && v.checked == p {
		return v, nil // the portfolio checked its winner
	}
	if err := p.check(ctx, v); err != nil {
		return nil, err
	}
	return v, nil
}

// Prepared is a question as an engine reads it: the question with its
// start/unsafe override applied (Model and Property) and its explicit
// semantics compiled, which every answer is checked in.
type Prepared struct {
	*Question
	Model    *symbolic.Model
	Property *symbolic.Property
	Gen      *explicit.Generator
	Dec      explicit.Decider // the policy's decisions; nil without a policy
}

// prepare applies the start/unsafe override and compiles the explicit
// semantics that every answer is checked in.
func prepare(ctx context.Context, q *Question) (*Prepared, error) {
	if q.Model == nil || q.Property == nil {
		return nil, errors.New("verify: a question needs a model and a property")
	}
	p := &Prepared{Question: q, Model: q.Model, Property: q.Property}
	if q.Start != nil || q.Unsafe != nil {
		prop := *q.Property
		if q.Start != nil {
			prop.Start = q.Start
		}
		if q.Unsafe != nil {
			prop.Unsafe = q.Unsafe
		}
		m := *q.Model
		m.Properties = append([]*symbolic.Property(nil), q.Model.Properties...)
		found := false
		for i, mp := range m.Properties {
			if mp == q.Property {
				m.Properties[i], found = &prop, true
			}
		}
		if !found {
			m.Properties = append(m.Properties, &prop)
		}
		p.Model, p.Property = &m, &prop
	}
	var err error
	if g := q.Compiled; g != nil && g.M == p.Model && g.Prop == p.Property {
		p.Gen = g
	} else if p.Gen, err = explicit.NewContext(ctx, p.Model, p.Property); err != nil {
		return nil, err
	}
	if q.Policy != nil {
		if q.Executable != nil {
			p.Dec, err = explicit.PolicyDecider(p.Model, q.Executable)
		} else {
			// Reading a network or an ensemble from its file does not
			// look at ctx: a large one takes seconds (a network of three
			// 500-wide layers 0.2 s, 2.6 s under the race detector, which
			// held bfs's --timeout of 1 s for 3 s in session 29). The
			// question stops waiting for it at the end of ctx; the
			// loading ends on its own.
			newDec := func() (explicit.Decider, error) { return explicit.NewDecider(p.Model, q.Policy) }
			if k := q.Policy.Kind; k == symbolic.KindRules || k == symbolic.KindTable || ctx.Err() != nil {
				// Rules and tables read no file; and a question whose ctx
				// ended before it began loads the policy (cached by the
				// caller's load, as vigil verify's) for the engine's own
				// report of the stop.
				p.Dec, err = newDec()
			} else {
				// untildone.Run stops waiting for the load as ctx ends
				// (f then runs on, its result dropped); a panic of the
				// loader is an internal error, not a crash of the
				// goroutine it runs on.
				p.Dec, err = untildone.Run(ctx, newDec)
				if st, ok := errors.AsType[*untildone.Stopped](err); ok {
					err = &loadStopped{st.Err}
				} else if pe, ok := errors.AsType[*untildone.Panic](err); ok {
					err = internal("loading the policy: %v", pe.Value)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// loadStopped is the end of ctx while the policy was loading.
type loadStopped struct{ err error }

func (e *loadStopped) Error() string { return "loading the policy: " + e.err.Error() }
func (e *loadStopped) Unwrap() error { return e.err }

// newDecider makes one more decider of the question's policy, for a
// goroutine of its own.
func (p *Prepared) newDecider() (explicit.Decider, error) {
	if p.Executable != nil {
		return explicit.PolicyDecider(p.Model, p.Executable)
	}
	return explicit.NewDecider(p.Model, p.Policy)
}

// progress reports text for engine, when the question asks for progress.
func (p *Prepared) progress(engine, format string, args ...any) {
	if p.Progress != nil {
		p.Progress(Progress{Engine: engine, Text: fmt.Sprintf(format, args...)})
	}
}

// policyName is the policy's name, "" for none.
func (p *Prepared) policyName() string {
	if p.Policy == nil {
		return ""
	}
	return p.Policy.Name
}

// check checks v: a counterexample replays; an invariant (Verdict.Invariant
// of ic3, PolIC3 or a registered engine) goes through ic3/cert. A safe
// answer with neither an invariant nor an exhaustive search behind it is
// refused.
// An invariant whose check the end of ctx cut short makes v Unknown.
func (p *Prepared) check(ctx context.Context, v *Verdict) error {
	if v == nil {
		return internal("an engine answered nothing (no verdict and no error)")
	}
	switch v.Answer {
	case explicit.Unknown:
	case explicit.UnsafeVerdict:
		if p.Tamper != nil && p.Tamper.Trace != nil {
			v.Trace = p.Tamper.Trace(v.Trace)
		}
		if err := p.Gen.CheckCounterexample(p.Dec, v.Trace); err != nil {
			what := "the counterexample does not replay"
			switch v.Engine {
			case "bfs":
			case "bdd":
				what = "the BDD counterexample does not replay"
			default:
				what = fmt.Sprintf("the %s counterexample does not replay in the explicit semantics", cexEngine(v.Engine))
			}
			return internal("%s: %v", what, err)
		}
	case explicit.Safe:
		switch {
		case v.exhaustive == p:
			// ppa checked its exported invariant itself (certifyPPA);
			// bfs and bdd decide by exhaustive reachability.
		case v.Invariant != nil:
			return p.checkInvariant(ctx, v)
		default:
			return internal("engine %s answered safe without an invariant to check", v.Engine)
		}
	default:
		return internal("engine %s answered %d, which is neither safe, unsafe nor unknown", v.Engine, v.Answer)
	}
	return nil
}

// cexEngine names an engine in the text of a failed replay: ic3 for
// every IC3 variant, as vigil has always said.
func cexEngine(e string) string {
	switch e {
	case "ic3", "ic3-nog", "polic3", "polic3-nog":
		return "ic3"
	}
	return e
}

// stopReason describes why ctx ended (phrase.StopReason).
func stopReason(ctx context.Context) string { return phrase.StopReason(ctx) }
