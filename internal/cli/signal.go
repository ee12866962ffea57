package cli

// Ctrl-C and SIGTERM, for the whole process. HandleSignals, called first
// thing by main, catches them from the start, so that no signal finds the
// process with Go's default action (death with no output, exit 130 or
// 143) while a model loads:
//
//   - The first signal cancels the process context (Context) when the
//     command watches it: it is loading a model (LoadContext) or has
//     called RunContext. Loading stops within a second (package lang
//     polls the context), the engines stop, and the command prints its
//     partial results and exits as interrupted (exit 4 for the commands
//     with an unknown outcome). A command that watches nothing (fmt,
//     help, lsp, or any command before it starts loading) exits at once
//     with "vigil: interrupted; exiting without results" and 128 plus the
//     signal's number (130 for SIGINT, 143 for SIGTERM), as the default
//     action would, but not silently.
//   - A second signal exits at once, whatever the command is doing, with
//     "vigil: interrupted again; exiting without results" on stderr and
//     the same 130 or 143: the way out of a phase that does not poll the
//     context. A signal within echoWindow of the first is not a second
//     one: Ctrl-C under GNU timeout (or another wrapper that passes the
//     signal on to its child and then to its process group) reaches vigil
//     twice within microseconds, and counting the echo as a second
//     signal ended the command without its partial results (exit 130
//     instead of its interrupted report).

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// echoWindow: a signal this soon after the first is its echo (see the
// file comment), not a person's second Ctrl-C. An echo comes within a
// millisecond (GNU timeout's, to a Go process receiving SIGINT: at most
// 0.8 ms, median 0.02 ms, in 200 tries on a loaded two-core machine); a
// brisk double tap of Ctrl-C is 100 to 200 ms, and at 250 ms the window
// took such a second Ctrl-C for an echo, leaving a command stuck where it
// does not poll running when told twice (review20y).
const echoWindow = 50 * time.Millisecond

var sigs struct {
	mu        sync.Mutex
	installed bool
	ctx       context.Context
	cancel    context.CancelFunc
	got       os.Signal // the first signal, nil before it
	gotAt     time.Time // when it came
	watched   bool      // a command polls ctx
}

// writing is held (read-locked) while a command rewrites a file the user
// keeps (vigil fmt -w, export -o): a signal that ends the process waits for
// the write to finish (up to writeGrace), so that Ctrl-C does not leave the
// user's .spec cut in half.
var writing sync.RWMutex

// writeGrace bounds the wait for a write in progress (a write blocked on a
// full disk or a dead network share must not hold the process).
const writeGrace = 2 * time.Second

// temps are the temporary files of the writes in progress, removed when
// the process ends before they are renamed.
var temps struct {
	sync.Mutex
	m map[string]bool
}

// WriteFile is os.WriteFile, finished before a signal ends the process;
// and a file that exists is replaced whole, never cut: the data goes to a
// temporary file beside it, given the file's mode (and owner), which is
// renamed over it. Waiting for the write is not enough: after writeGrace
// the process ends anyway, and a signal that is not caught (SIGHUP when
// the terminal closes, SIGKILL) ended `vigil fmt -w` between the
// truncation and the write, leaving the .spec empty or cut (three times
// in five with SIGHUP sent the moment the file was truncated). A file
// that does not exist yet, is not a regular file (a FIFO, /dev/stdout),
// has other hard links, or whose directory or owner does not allow the
// temporary file, is written in place as before.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	writing.RLock()
	defer writing.RUnlock()
	if done, err := replaceFile(path, data); done {
		return err
	}
	return os.WriteFile(path, data, perm)
}

// replaceFile writes data to the existing regular file at path (through
// symbolic links) by renaming a temporary file over it; done is false when
// it cannot (see WriteFile) and did nothing.
func replaceFile(path string, data []byte) (done bool, err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false, nil
	}
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink > 1 {
		return false, nil
	}
	dir, base := filepath.Split(target)
	f, err := os.CreateTemp(dir, "."+base+".vigil-*")
	if err != nil {
		return false, nil
	}
	tmp := f.Name()
	temps.Lock()
	if temps.m == nil {
		temps.m = map[string]bool{}
	}
	temps.m[tmp] = true
	temps.Unlock()
	defer func() {
		temps.Lock()
		delete(temps.m, tmp)
		temps.Unlock()
	}()
	fail := func() { f.Close(); os.Remove(tmp) }
	// the temporary file's own owner, not the process's: in a setgid
	// directory it has the directory's group, which the file must not
	// take
	uid, gid := os.Getuid(), os.Getgid()
	if tfi, err := f.Stat(); err == nil {
		if ts, ok := tfi.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(ts.Uid), int(ts.Gid)
		}
	}
	if int(st.Uid) != uid || int(st.Gid) != gid {
		if f.Chown(int(st.Uid), int(st.Gid)) != nil {
			fail() // the file would change owner: write it in place
			return false, nil
		}
	}
	if f.Chmod(fi.Mode()&(os.ModePerm|os.ModeSetuid|os.ModeSetgid|os.ModeSticky)) != nil {
		fail()
		return false, nil
	}
	if _, err := f.Write(data); err != nil {
		fail()
		return true, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return true, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return true, fmt.Errorf("writing %s: %w", path, err)
	}
	return true, nil
}

// atSignalExit are the functions a signal's exit runs first
// (AtSignalExit).
var atSignalExit struct {
	sync.Mutex
	fs []func()
}

// AtSignalExit registers f to run when a signal ends the process (a
// second Ctrl-C, or one a command that watches nothing gets), before it
// exits: the removal of temporary files that a write in progress would
// otherwise leave behind (safety/cert.RemoveTemps).
func AtSignalExit(f func()) {
	atSignalExit.Lock()
	defer atSignalExit.Unlock()
	atSignalExit.fs = append(atSignalExit.fs, f)
}

// exitAfterWrites ends the process with code once no WriteFile is in
// progress (waiting at most writeGrace, then removing the temporary file
// of the write that did not finish); none starts meanwhile (a Lock that
// waits keeps new RLocks out: vigil fmt -w on many files went on writing
// them while the signal waited).
func exitAfterWrites(code int) {
	locked := make(chan struct{})
	go func() {
		writing.Lock()
		close(locked)
	}()
	select {
	case <-locked:
	case <-time.After(writeGrace):
		temps.Lock()
		for tmp := range temps.m {
			os.Remove(tmp)
		}
		temps.Unlock()
	}
	atSignalExit.Lock()
	for _, f := range atSignalExit.fs {
		f()
	}
	atSignalExit.Unlock()
	exitOnSignal(code)
	go func() { // only when a test's exitOnSignal returns
		<-locked
		writing.Unlock()
	}()
}

// exitOnSignal ends the process and signalStderr is where the handler
// writes; tests replace them.
var (
	exitOnSignal           = os.Exit
	signalStderr io.Writer = os.Stderr
	signalNow              = time.Now
)

// HandleSignals installs the process's handler of SIGINT and SIGTERM (see
// the file comment). Call it once, first thing in main; without it (tests
// that call Main in process), RunContext catches the signals itself.
func HandleSignals() {
	sigs.mu.Lock()
	defer sigs.mu.Unlock()
	if sigs.installed {
		return
	}
	sigs.installed = true
	sigs.ctx, sigs.cancel = context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range ch {
			onSignal(s)
		}
	}()
}

// onSignal is the handler's answer to the signal s.
func onSignal(s os.Signal) {
	now := signalNow()
	sigs.mu.Lock()
	first, watched := sigs.got == nil, sigs.watched
	if first {
		sigs.got, sigs.gotAt = s, now
	}
	echo := !first && now.Sub(sigs.gotAt) < echoWindow
	sigs.mu.Unlock()
	switch {
	case echo:
		// the first signal's echo: the first one's answer stands
	case first && watched:
		sigs.cancel()
	case first:
		fmt.Fprintln(signalStderr, "vigil: interrupted; exiting without results")
		exitAfterWrites(SignalExitCode(s))
	default:
		fmt.Fprintln(signalStderr, "vigil: interrupted again; exiting without results")
		exitAfterWrites(SignalExitCode(s))
	}
}

// SignalExitCode is the exit code of a process that a signal ends without
// results: 128 plus the signal's number, as a shell reports a process the
// signal killed (130 for SIGINT, 143 for SIGTERM).
func SignalExitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// watch returns the process context and marks it watched, or nil when
// HandleSignals was not called.
func watch() context.Context {
	sigs.mu.Lock()
	defer sigs.mu.Unlock()
	if !sigs.installed {
		return nil
	}
	sigs.watched = true
	return sigs.ctx
}

// Watching reports whether HandleSignals installed the process's handler
// (a signal then gets the handler's answer, never the default action) and
// whether a command watches the signals (it called LoadContext or
// RunContext: the first signal then stops the command, which reports
// it). Tests that signal a vigil subprocess wait for these rather than
// for a fixed time, which a loaded machine's slow start can outrun.
func Watching() (installed, watched bool) {
	sigs.mu.Lock()
	defer sigs.mu.Unlock()
	return sigs.installed, sigs.watched
}

// LoadContext is the context a command loads its model under: the process
// context, done on the first Ctrl-C or SIGTERM (which then no longer ends
// the process at once: the load stops and the command reports it, with
// Env.LoadInterrupted). Without HandleSignals it is never done.
func LoadContext() context.Context {
	if ctx := watch(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// Interrupted reports whether the process got Ctrl-C or SIGTERM (under
// HandleSignals).
func Interrupted() bool {
	sigs.mu.Lock()
	defer sigs.mu.Unlock()
	return sigs.got != nil
}

// LoadTimedOut reports that the command's --timeout d ran out while it
// loaded file, on stderr, and makes the command exit 4 (unknown) when it
// returns ExitError, as LoadInterrupted does.
func (e *Env) LoadTimedOut(cmd, file string, d time.Duration) {
	prefix := "vigil"
	if cmd != "" {
		prefix += " " + cmd
	}
	fmt.Fprintf(e.Stderr, "%s: --timeout %s ran out while loading %s; no results (the model's loading counts against it)\n", prefix, d, file)
	e.stopped = true
}

// LoadInterrupted reports that a Ctrl-C or SIGTERM stopped the loading of
// file, on stderr ("vigil CMD: interrupted while loading FILE; no
// results"), and makes the command exit 4 (unknown, as when its engine is
// interrupted) when it returns ExitError, as a command does when its
// model does not load.
func (e *Env) LoadInterrupted(cmd, file string) {
	prefix := "vigil"
	if cmd != "" {
		prefix += " " + cmd
	}
	fmt.Fprintf(e.Stderr, "%s: interrupted while loading %s; no results\n", prefix, file)
	e.stopped = true
}
