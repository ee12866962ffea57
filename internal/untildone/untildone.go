// Package untildone runs work that does not poll a context (the readers of
// network and ensemble files, whose parse of a large file takes seconds,
// or a read from a FIFO that never ends) so that its caller can stop
// waiting for it as soon as the context is done: the first Ctrl-C, a
// SIGTERM or a --timeout then stops a command within a second of it, not
// when the read ends.
//
// The work goes on alone in its goroutine after Run returned; its result
// is dropped. Commands exit soon after, which ends it with the process;
// a library caller must only give Run work that ends on its own (it holds
// memory until then) and that does not write what the caller reads.
//
// A process that goes on after a stop (vigil verify --policy all, each
// policy with its --timeout; a batch of jobs) would start the next load
// while the abandoned ones still run: 24 policies of one 48 MB ensemble
// under --timeout 1s held 1.4 GB at once, the abandoned parses sharing the
// cores and each new load abandoned in its turn. While MaxAbandoned works
// run on abandoned, Run waits (until its ctx is done) for one of them to
// end before it starts its own.
package untildone

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// MaxAbandoned is how many abandoned works may run on at once before Run
// waits for one of them to end.
var MaxAbandoned = 2

// abandoned counts the works that run on after their Run returned.
var abandoned struct {
	sync.Mutex
	n int
	// ended is closed (and replaced) when n drops
	ended chan struct{}
}

// room returns nil once fewer than MaxAbandoned works run abandoned, or
// ctx's error when ctx is done first.
func room(ctx context.Context) error {
	for {
		abandoned.Lock()
		if abandoned.n < MaxAbandoned {
			abandoned.Unlock()
			return nil
		}
		if abandoned.ended == nil {
			abandoned.ended = make(chan struct{})
		}
		ended := abandoned.ended
		abandoned.Unlock()
		select {
		case <-ended:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Abandoned reports how many works run on abandoned (for the tests).
func Abandoned() int {
	abandoned.Lock()
	defer abandoned.Unlock()
	return abandoned.n
}

// Stopped is the end of ctx before the work returned.
type Stopped struct {
	Err error // ctx.Err(): context.Canceled or context.DeadlineExceeded
}

func (e *Stopped) Error() string { return "stopped before the work ended: " + e.Err.Error() }

// Unwrap gives ctx's error: errors.Is(err, context.Canceled) holds.
func (e *Stopped) Unwrap() error { return e.Err }

// Panic is a panic of the work, recovered on the goroutine Run started it
// on (where no recover of the caller's could catch it, and it would end
// the process without the command's report of an internal error).
type Panic struct {
	Value any
	Stack []byte // the goroutine's stack at the panic
}

func (e *Panic) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Run runs f and returns what it returns, or, as soon as ctx is done
// before f returns, the zero T and a *Stopped (f runs on alone and its
// result is dropped). A panic of f comes back as a *Panic error. A ctx
// done before Run is called runs no f at all, nor does a ctx done while
// Run waits for MaxAbandoned abandoned works to end. When ctx is nil or
// can never be done (context.Background), Run calls f on the caller's
// goroutine, with no recovery: a panic goes to the caller as if it had
// called f.
func Run[T any](ctx context.Context, f func() (T, error)) (T, error) {
	var zero T
	if ctx == nil || ctx.Done() == nil {
		return f()
	}
	if err := ctx.Err(); err != nil {
		return zero, &Stopped{err}
	}
	if err := room(ctx); err != nil {
		return zero, &Stopped{err}
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1) // buffered: an abandoned f does not block on it
	// ended and left say, under mu, that f returned and that Run left
	// without its result: the one that comes second counts the abandoned
	// work out
	var (
		mu          sync.Mutex
		ended, left bool
	)
	go func() {
		done := false
		defer func() {
			if !done {
				ch <- result{zero, &Panic{Value: recover(), Stack: debug.Stack()}}
			}
			mu.Lock()
			ended = true
			wasLeft := left
			mu.Unlock()
			if wasLeft {
				abandoned.Lock()
				abandoned.n--
				if abandoned.ended != nil {
					close(abandoned.ended)
					abandoned.ended = nil
				}
				abandoned.Unlock()
			}
		}()
		v, err := f()
		done = true
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		select {
		case r := <-ch: // f ended as ctx did: keep its result
			return r.v, r.err
		default:
		}
		mu.Lock()
		defer mu.Unlock()
		if ended { // f ended just now
			r := <-ch
			return r.v, r.err
		}
		left = true
		abandoned.Lock()
		abandoned.n++
		abandoned.Unlock()
		return zero, &Stopped{ctx.Err()}
	}
}
