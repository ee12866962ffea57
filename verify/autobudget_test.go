package verify

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAutoStatesFor(t *testing.T) {
	for _, c := range []struct {
		mem   int64
		words int
		want  int
	}{
		{0, 1, autoMinStates},                           // memory unknown
		{1 << 30, 1, (256 << 20) / autoBytesPerState},   // a quarter of 1 GiB
		{24 << 30, 1, (6 << 30) / autoBytesPerState},    // this project's machines
		{1 << 40, 1, autoMaxMemory / autoBytesPerState}, // capped at 8 GiB
		// Wider states take more bytes each: fewer of them fit.
		{24 << 30, 6, (6 << 30) / (autoBytesPerState + 5*autoBytesPerWord)},
		{24 << 30, 16, (6 << 30) / (autoBytesPerState + 15*autoBytesPerWord)},
		{1 << 30, 1000, autoMinStates},
	} {
		if got := autoStatesFor(c.mem, c.words); got != c.want {
			t.Errorf("autoStatesFor(%d, %d words) = %d, want %d", c.mem, c.words, got, c.want)
		}
	}
	if AutoStates() < autoMinStates {
		t.Errorf("AutoStates() = %d, below the floor", AutoStates())
	}
}

func TestMeminfoTotal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(p, []byte("MemFree:  100 kB\nMemTotal:       24576000 kB\n"), 0o644)
	if got := meminfoTotal(p); got != 24576000<<10 {
		t.Errorf("meminfoTotal = %d", got)
	}
	os.WriteFile(p, []byte("MemTotal: lots kB\n"), 0o644)
	if got := meminfoTotal(p); got != 0 {
		t.Errorf("meminfoTotal of a bad line = %d, want 0", got)
	}
	if got := meminfoTotal(filepath.Join(t.TempDir(), "none")); got != 0 {
		t.Errorf("meminfoTotal of a missing file = %d, want 0", got)
	}
}
