package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// progress is a status line on stderr, rewritten in place with \r. It is
// active only when stderr is a terminal and the command is not printing
// JSON, so scripts and pipes never see it. Updates are throttled to ten a
// second.
type progress struct {
	w     io.Writer
	on    bool
	last  time.Time
	width int
}

// newProgress returns the progress line of a command; quiet (--json) turns
// it off.
func newProgress(e *env, quiet bool) *progress {
	return &progress{w: e.stderr, on: !quiet && isTerminal(e.stderr)}
}

func isTerminal(w io.Writer) bool {
	if b, ok := w.(*bugWatcher); ok {
		w = b.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// printf replaces the line (at most ten times a second).
func (p *progress) printf(format string, args ...any) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := fmt.Sprintf(format, args...)
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	p.width = len(line)
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
}

// clear erases the line; call it before printing results.
func (p *progress) clear() {
	if p.on && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// runContext returns a context that is canceled by Ctrl-C (or SIGTERM) and,
// when timeout > 0, after timeout. Long-running commands pass it to their
// engine and report "unknown" (exitUnknown) when it ends; stopReason says
// why.
func runContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if timeout <= 0 {
		return ctx, stop
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	return tctx, func() { cancel(); stop() }
}

// stopReason describes why ctx ended: "timeout" or "interrupted" ("" if it
// has not).
func stopReason(ctx context.Context) string {
	switch {
	case ctx.Err() == nil:
		return ""
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout"
	}
	return "interrupted"
}

// stopped turns a stop reason ("timeout", "interrupted", "state limit
// 10", "timeout while checking the invariant", "the solver answered
// unknown", ...) into a phrase that says what happened: "stopped by the
// timeout", "interrupted", "stopped by the state limit 10", "stopped (the
// solver answered unknown)".
func stopped(reason string) string {
	for _, p := range []struct{ word, say string }{
		{"interrupted", "interrupted"}, {"canceled", "interrupted"}, {"cancelled", "interrupted"},
		{"timeout", "stopped by the timeout"},
	} {
		if rest, ok := strings.CutPrefix(reason, p.word); ok {
			return p.say + rest
		}
	}
	switch {
	case reason == "":
		return "stopped by a limit"
	case strings.Contains(reason, "limit"):
		return "stopped by the " + strings.TrimPrefix(reason, "the ")
	}
	return "stopped (" + reason + ")"
}

// capitalize makes the first letter of s upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
