package phrase

import (
	"context"
	"testing"
	"time"
)

func TestStopReason(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	if r := StopReason(ctx); r != "" {
		t.Errorf("running: %q", r)
	}
	cancel()
	if r := StopReason(ctx); r != "interrupted" {
		t.Errorf("cancelled: %q", r)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer dcancel()
	<-dctx.Done()
	if r := StopReason(dctx); r != "timeout" {
		t.Errorf("deadline: %q", r)
	}
}
