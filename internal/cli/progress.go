package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Progress reports how a long command is getting on, on stderr. On a
// terminal it is a status line rewritten in place with \r, at most ten
// times a second, unless the command prints JSON. Where stderr is not a
// terminal (a pipe, a file, a batch run's stderr) it is a line every
// progressInterval, "[10s] verify (bfs): ...", so that a long run in a
// log is not silent. --progress forces it: the status line even with
// --json on a terminal, a line every second elsewhere; --quiet turns it
// off.
type Progress struct {
	w     io.Writer
	on    bool
	lines bool          // whole lines, not a line rewritten in place
	every time.Duration // the least time between two updates
	start time.Time
	last  time.Time
	width int
	now   func() time.Time // time.Now; tests set it
}

// progressInterval is the time between two progress lines where stderr is
// not a terminal.
const progressInterval = 10 * time.Second

// progressFlags are --progress and --quiet, which every long-running
// command takes (Env.AddProgressFlags); Env.NewProgress reads them.
type progressFlags struct{ force, quiet *bool }

// AddProgressFlags registers --progress and --quiet on fs, for e's
// newProgress.
func (e *Env) AddProgressFlags(fs *flag.FlagSet) {
	e.prog.force = fs.Bool("progress", false, "always report progress on stderr: the status line on a terminal (even with --json), a line a second elsewhere (by default: a status line on a terminal unless --json, a line every 10 s elsewhere)")
	e.prog.quiet = fs.Bool("quiet", false, "no progress on stderr")
}

// NewProgress returns the progress of a command; json says the command
// prints JSON (no status line on a terminal unless --progress).
func (e *Env) NewProgress(json bool) *Progress {
	force := e.prog.force != nil && *e.prog.force
	quiet := e.prog.quiet != nil && *e.prog.quiet
	p := &Progress{w: e.Stderr, now: time.Now}
	p.start = p.now()
	switch {
	case quiet:
	case isTerminal(e.Stderr):
		p.on, p.every = force || !json, 100*time.Millisecond
	default:
		p.on, p.lines, p.every = true, true, progressInterval
		if force {
			p.every = time.Second
		}
		p.last = p.start // the first line after one interval
	}
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Printf replaces the line, or writes a line (at most once per interval).
func (p *Progress) Printf(format string, args ...any) {
	if !p.on {
		return
	}
	now := p.now()
	if now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	line := fmt.Sprintf(format, args...)
	if p.lines {
		fmt.Fprintf(p.w, "[%s] %s\n", now.Sub(p.start).Round(time.Second), line)
		return
	}
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	p.width = len(line)
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
}

// Clear erases the status line; call it before printing results.
func (p *Progress) Clear() {
	if p.on && !p.lines && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// RunContext returns a context that is canceled by Ctrl-C (or SIGTERM) and,
// when timeout > 0, after timeout. Long-running commands pass it to their
// engine and report "unknown" (exitUnknown) when it ends; stopReason says
// why. Under HandleSignals it derives from the process context (already
// done when a signal came while the model loaded); without it, it catches
// the signals itself.
func RunContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	var ctx context.Context
	var stop context.CancelFunc
	if base := watch(); base != nil {
		ctx, stop = context.WithCancel(base)
	} else {
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	}
	if timeout <= 0 {
		return ctx, stop
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	return tctx, func() { cancel(); stop() }
}
