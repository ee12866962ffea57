package testutil

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ArraySpec is a model whose write a[i]' = a[j] over n elements lowers to
// about n^2 expression nodes: at n = 300 compiling it (and encoding it,
// into BDDs or Z3) takes a good fraction of a second, at 1,500 seconds
// (bench/adversarial/s24l_load_timeout.txtar, s25m_engine_timeout.txtar).
func ArraySpec(n int) string {
	return fmt.Sprintf(`model w
const N = %d
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. N - 1 = 0
var j : 0 .. N - 1 = 0
action w -> a[i]' = a[j]
action mi when i < N - 1 -> i' = i + 1
property p { start i == 0 && a[0] == 0 unsafe a[0] == 3 }
`, n)
}

// EndedContext returns a context that has already ended: past its
// deadline when cause is "timeout", else cancelled (a --timeout that ran
// out, or a Ctrl-C, before the work began).
func EndedContext(cause string) (context.Context, context.CancelFunc) {
	if cause == "timeout" {
		return context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx, cancel
}

// writingCtx is a context that ends once the file path holds bytes.
type writingCtx struct {
	context.Context
	path string
	once sync.Once
	done chan struct{}
}

// WritingContext returns a context that ends once the file path holds
// bytes: a stop that comes while a certificate is written, at a point no
// timer could pick reliably. It checks the file whenever Err is asked,
// and the temporary files of path (".NAME.vigil-*.tmp" beside it, which
// safety/cert.File writes and renames over path at the end).
func WritingContext(path string) context.Context {
	return &writingCtx{Context: context.Background(), path: path, done: make(chan struct{})}
}

func (c *writingCtx) Done() <-chan struct{} { return c.done }

func (c *writingCtx) Err() error {
	paths := []string{c.path}
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(c.path), "."+filepath.Base(c.path)+".vigil-*.tmp"))
	for _, p := range append(paths, tmps...) {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			c.once.Do(func() { close(c.done) })
		}
	}
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}
