package phrase

import (
	"context"
	"errors"
)

// StopReason says why ctx ended, as reports put it and Stopped phrases
// it: "timeout" for a deadline, "interrupted" otherwise, "" while it has
// not ended.
func StopReason(ctx context.Context) string {
	switch {
	case ctx.Err() == nil:
		return ""
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout"
	}
	return "interrupted"
}
