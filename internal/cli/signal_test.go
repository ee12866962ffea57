package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestReview20yWriteFileReplaces: WriteFile replaces an existing file
// through a temporary file renamed over it (a process killed during the
// write, by SIGHUP or SIGKILL that no handler waits for, left the .spec
// cut), keeping its mode and a symbolic link to it; a new file, a file
// with other hard links and a FIFO are written in place; no temporary
// file is left.
func TestReview20yWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.spec")
	if err := os.WriteFile(p, []byte("old text, longer than the new"), 0o640); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "new" || after.Mode() != 0o640 || os.SameFile(before, after) {
		t.Errorf("replaced: %q, mode %v, same inode %v", b, after.Mode(), os.SameFile(before, after))
	}
	link := filepath.Join(dir, "link.spec")
	if err := os.Symlink("a.spec", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("through the link"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced by a file")
	}
	if b, _ := os.ReadFile(p); string(b) != "through the link" {
		t.Errorf("target: %q", b)
	}
	hard := filepath.Join(dir, "hard.spec")
	if err := os.Link(p, hard); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("both names"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(hard); string(b) != "both names" {
		t.Errorf("the hard link was split: %q", b)
	}
	fresh := filepath.Join(dir, "new.spec")
	if err := WriteFile(fresh, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode() != 0o600 {
		t.Errorf("new file mode %v", fi.Mode())
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("to the reader"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "to the reader" {
		t.Errorf("fifo reader got %q", s)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".vigil-") {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
}

// TestReview20yNoWriteStartsAfterSignal: once a signal waits to end the
// process, a WriteFile that comes after it does not start (vigil fmt -w
// of many files went on rewriting them during the wait, and the one in
// progress when the wait ran out was cut).
func TestReview20yNoWriteStartsAfterSignal(t *testing.T) {
	oldExit, oldErr := exitOnSignal, signalStderr
	defer func() { exitOnSignal, signalStderr = oldExit, oldErr }()
	signalStderr = &bytes.Buffer{}
	writing.RLock() // a write in progress
	exited := make(chan struct{})
	exitOnSignal = func(int) { close(exited) }
	go exitAfterWrites(130)
	time.Sleep(50 * time.Millisecond) // the signal waits for the write
	p := filepath.Join(t.TempDir(), "later")
	started := make(chan struct{})
	go func() {
		close(started)
		WriteFile(p, []byte("x"), 0o644)
	}()
	<-started
	time.Sleep(50 * time.Millisecond)
	if _, err := os.Stat(p); err == nil {
		t.Errorf("a write started while the signal waited to end the process")
	}
	writing.RUnlock()
	<-exited
}

// TestS27rWriteFileSetgidKeepsGroup: WriteFile's temporary file takes a
// setgid directory's group; the file it replaces keeps its own (the
// check compared the old group with the process's).
func TestS27rWriteFileSetgidKeepsGroup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sg")
	if err := os.Mkdir(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "m.spec")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	gid := func() int {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return int(fi.Sys().(*syscall.Stat_t).Gid)
	}
	want := gid()
	other := -1
	if os.Getuid() == 0 {
		other = 4242
	} else if gs, _ := os.Getgroups(); len(gs) > 0 {
		for _, g := range gs {
			if g != os.Getgid() {
				other = g
			}
		}
	}
	if other >= 0 {
		if err := os.Chown(dir, -1, other); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, os.ModeSetgid|0o775); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("%s = %q", p, b)
	}
	if got := gid(); got != want {
		t.Errorf("the file's group became %d (the setgid directory's), want %d", got, want)
	}
}
