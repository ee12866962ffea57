package safety

import (
	"context"
	"time"

	"vigil/symbolic"
)

// Verdict is the answer for one state: (r-)safe, not, or unknown (a stop
// came first).
type Verdict int

const (
	Unknown Verdict = iota
	Safe
	Unsafe
)

func (v Verdict) String() string {
	switch v {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "unknown"
}

// StateDecision is the decision on one state.
type StateDecision struct {
	ID       uint32
	Verdict  Verdict
	Expanded int           // states the decider expanded while deciding it
	Time     time.Duration // time spent deciding it
}

// DecideStates decides the states out[i].ID with d, which shares its
// tables (the space, and the facts proven) across them, filling in their
// verdicts, expansions and times. Under a deadline no state may spend it
// all: the undecided states are taken in turns, each pass giving each a
// time slice twice as long as the last (from 1/64 of the time left shared
// among them, at least 20ms), so a hard first state leaves time for the
// others, and what one search expanded or proved serves the next. Without
// a deadline each state is decided in one go. A stop leaves the states
// not decided Unknown; any other error is returned.
func DecideStates(ctx context.Context, d Decider, out []StateDecision) error {
	pending := make([]int, len(out))
	for i := range pending {
		pending[i] = i
	}
	deadline, timed := ctx.Deadline()
	var slice time.Duration
	if timed && len(out) > 1 {
		slice = max(time.Until(deadline)/time.Duration(64*len(out)), 20*time.Millisecond)
	}
	for len(pending) > 0 && ctx.Err() == nil {
		var next []int
		for _, i := range pending {
			if ctx.Err() != nil {
				break
			}
			sctx, cancel := ctx, context.CancelFunc(func() {})
			if slice > 0 {
				sctx, cancel = context.WithTimeout(ctx, slice)
			}
			before, t1 := d.Stats().Expanded, time.Now()
			ans, err := d.Decide(sctx, out[i].ID)
			// Read before cancel, which sets it: a range error returned
			// within the slice was taken for the slice's end, and the
			// state asked again in every pass until the deadline.
			sliceOver := sctx.Err() != nil
			cancel()
			out[i].Time += time.Since(t1)
			out[i].Expanded += d.Stats().Expanded - before
			switch {
			case err == nil && ans:
				out[i].Verdict = Safe
			case err == nil:
				out[i].Verdict = Unsafe
			case !sliceOver:
				return earlierError(ctx, d, out, next, err)
			default:
				next = append(next, i)
			}
		}
		if slice == 0 {
			break
		}
		pending = next
		slice *= 2
	}
	return nil
}

// earlierError is DecideStates's answer when deciding a state failed
// with err (a range or policy error of its scope, lang/spec.md "Range
// errors") while the states of earlier (ascending indices into out) were
// interrupted by their time slices: they are decided in order, without
// slices, and the first one's error is the answer, as without a deadline
// (where the states are asked in order and the first erring one ends the
// run). Before, which error --starts --timeout reported depended on how
// far a slice got. A stop before they are decided leaves err.
func earlierError(ctx context.Context, d Decider, out []StateDecision, earlier []int, err error) error {
	for _, i := range earlier {
		before, t1 := d.Stats().Expanded, time.Now()
		ans, e := d.Decide(ctx, out[i].ID)
		out[i].Time += time.Since(t1)
		out[i].Expanded += d.Stats().Expanded - before
		switch {
		case e == nil && ans:
			out[i].Verdict = Safe
		case e == nil:
			out[i].Verdict = Unsafe
		case ctx.Err() == nil:
			return e
		default:
			return err
		}
	}
	return err
}

// StartChunk is how many start states DecideStarts enumerates before
// deciding them together under a deadline.
const StartChunk = 4096

// Starts is DecideStarts's result.
type Starts struct {
	States []StateDecision // in enumeration order
	// More: a stop ended the enumeration; the start states not reached
	// are not in States.
	More bool
}

// DecideStarts decides the start states of the property of d's space as
// they are enumerated, in chunks (one state at a time without a deadline;
// under one, StartChunk states shared fairly by DecideStates), so that a
// stop (a deadline, an interrupt) ends the enumeration too. queued, if
// not nil, is called with the number of states taken so far before each
// chunk is decided (for a progress line). An error other than the stop
// is returned.
func DecideStarts(ctx context.Context, d Decider, queued func(n int)) (*Starts, error) {
	sp := d.Space()
	res := &Starts{}
	decide := func(chunk []uint32) error {
		first := len(res.States)
		for _, id := range chunk {
			res.States = append(res.States, StateDecision{ID: id})
		}
		if queued != nil {
			queued(len(res.States))
		}
		return DecideStates(ctx, d, res.States[first:])
	}
	chunkLen := 1
	if _, timed := ctx.Deadline(); timed {
		chunkLen = StartChunk
	}
	var chunk []uint32
	var failed error
	err := sp.G.StartsContext(ctx, func(s symbolic.State) bool {
		if ctx.Err() != nil {
			res.More = true
			return false
		}
		id, err := sp.Intern(s)
		if err != nil {
			failed = err
			return false
		}
		if chunk = append(chunk, id); len(chunk) == chunkLen {
			failed = decide(chunk)
			chunk = nil
			return failed == nil
		}
		return true
	})
	switch {
	case failed != nil:
		return nil, failed
	case err != nil && ctx.Err() == nil:
		return nil, err
	case err != nil:
		res.More = true
	}
	if len(chunk) > 0 {
		if err := decide(chunk); err != nil {
			return nil, err
		}
	}
	return res, nil
}
