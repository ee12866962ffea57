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
