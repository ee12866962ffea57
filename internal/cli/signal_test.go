package cli

import (
	"bytes"
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestOnSignal: the handler's answers without a process to end. Before a
// command watches the process context, the first signal exits at once
// (128 + its number) with a message; once it watches, the first signal
// cancels the context and the second exits with "interrupted again".
func TestOnSignal(t *testing.T) {
	var exits []int
	var out bytes.Buffer
	oldExit, oldErr, oldNow := exitOnSignal, signalStderr, signalNow
	defer func() { exitOnSignal, signalStderr, signalNow = oldExit, oldErr, oldNow }()
	clock := time.Unix(1000, 0)
	signalNow = func() time.Time { return clock }
	exitOnSignal, signalStderr = func(code int) { exits = append(exits, code) }, &out
	reset := func(watched bool) {
		ctx, cancel := context.WithCancel(context.Background())
		sigs.ctx, sigs.cancel, sigs.got, sigs.watched = ctx, cancel, nil, watched
	}
	saved := sigs.ctx
	defer func() { sigs.ctx, sigs.cancel, sigs.got, sigs.watched = saved, nil, nil, false }()

	reset(false)
	onSignal(syscall.SIGTERM)
	if len(exits) != 1 || exits[0] != 143 || out.String() != "vigil: interrupted; exiting without results\n" {
		t.Errorf("unwatched SIGTERM: exits %v, stderr %q; want [143] and the message", exits, out.String())
	}

	exits, out = nil, bytes.Buffer{}
	reset(true)
	onSignal(os.Interrupt)
	if len(exits) != 0 || sigs.ctx.Err() == nil || out.Len() != 0 {
		t.Errorf("watched first SIGINT: exits %v, context err %v, stderr %q; want no exit and a canceled context", exits, sigs.ctx.Err(), out.String())
	}
	// its echo (GNU timeout passes Ctrl-C on to the child and to the
	// group): not a second signal
	clock = clock.Add(time.Millisecond)
	onSignal(os.Interrupt)
	if len(exits) != 0 || out.Len() != 0 {
		t.Errorf("echo of the first SIGINT 1 ms later: exits %v, stderr %q; want neither", exits, out.String())
	}
	clock = clock.Add(time.Second)
	onSignal(os.Interrupt)
	if len(exits) != 1 || exits[0] != 130 || out.String() != "vigil: interrupted again; exiting without results\n" {
		t.Errorf("second SIGINT: exits %v, stderr %q; want [130] and the message", exits, out.String())
	}
}

// TestSignalWaitsForWrite: a signal that ends the process while
// WriteFile rewrites a file waits for the write to finish (vigil fmt -w
// must not leave the user's .spec cut in half), and none starts after it.
func TestSignalWaitsForWrite(t *testing.T) {
	oldExit, oldErr := exitOnSignal, signalStderr
	defer func() { exitOnSignal, signalStderr = oldExit, oldErr }()
	var out bytes.Buffer
	signalStderr = &out
	writing.RLock() // a write in progress
	released := make(chan time.Time, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		released <- time.Now()
		writing.RUnlock()
	}()
	var exitedAt time.Time
	exitOnSignal = func(int) { exitedAt = time.Now() }
	exitAfterWrites(130)
	if end := <-released; exitedAt.Before(end) {
		t.Errorf("exited %v before the write ended", end.Sub(exitedAt))
	}
	// released after the (test's) exit returns: writes work again
	done := make(chan error, 1)
	go func() { done <- WriteFile(t.TempDir()+"/f", []byte("x"), 0o644) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WriteFile blocked after the signal's exit returned")
	}
}
