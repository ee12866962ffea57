package explicit

// The measurement harness of vigil bench: one run of a search timed by
// wall clock and by process CPU time, with the live heap it leaves behind,
// and the medians of several runs. A Go program comparing Search with
// NaiveSearch (or with another engine) measures both the same way.

import (
	"runtime"
	"syscall"
	"time"

	"vigil/internal/stats"
)

// Figures are one engine's measurements on one model.
type Figures struct {
	Engine           string  `json:"engine"`
	Workers          int     `json:"workers,omitempty"`
	States           int     `json:"states"`
	Transitions      int     `json:"transitions"`
	WallSeconds      float64 `json:"wall_seconds"`
	CPUSeconds       float64 `json:"cpu_seconds"`
	StatesPerWallSec float64 `json:"states_per_second"`
	StatesPerSec     float64 `json:"states_per_cpu_second"`
	HeapBytes        int64   `json:"heap_bytes"`
	BytesPerState    float64 `json:"bytes_per_state"`
	// Unmeasured: the run retained less heap than the measurement's noise
	// (tiny models); HeapBytes and BytesPerState are then 0, never negative.
	Unmeasured bool `json:"memory_unmeasured,omitempty"`
}

// Measure runs f once, timing it by wall clock and by process CPU time, and
// takes the live heap it leaves behind (after a GC, while the value keep
// that f returns is still held). On an error the figures hold the engine's
// name and the states f reached.
func Measure(engine string, f func() (states, transitions int, keep any, err error)) (Figures, error) {
	// Two collections: objects with finalizers (open files of the loader)
	// are freed only by the second, and must not count as freed by f.
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	cpu0 := cpuTime()
	t0 := time.Now()
	n, t, keep, err := f()
	wall := time.Since(t0)
	cpu := cpuTime() - cpu0
	if err != nil {
		return Figures{Engine: engine, States: n}, err
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(keep)
	heap := int64(ms.HeapAlloc) - int64(heap0)
	fig := Figures{Engine: engine, States: n, Transitions: t, WallSeconds: wall.Seconds(), CPUSeconds: cpu.Seconds(), HeapBytes: max(heap, 0)}
	fig.Unmeasured = heap <= 0
	fig.rates()
	return fig, nil
}

// rates fills the per-second and per-state figures.
func (f *Figures) rates() {
	f.StatesPerSec, f.StatesPerWallSec, f.BytesPerState = 0, 0, 0
	if f.CPUSeconds > 0 {
		f.StatesPerSec = float64(f.States) / f.CPUSeconds
	}
	if f.WallSeconds > 0 {
		f.StatesPerWallSec = float64(f.States) / f.WallSeconds
	}
	if f.States > 0 && !f.Unmeasured {
		f.BytesPerState = float64(f.HeapBytes) / float64(f.States)
	}
}

// MedianFigures returns the runs' median wall time, CPU time and heap, with
// the rates recomputed from them; the other figures are the first run's.
// The memory is unmeasured when it was in any run. runs must not be empty.
func MedianFigures(runs []Figures) Figures {
	med := func(get func(*Figures) float64) float64 {
		xs := make([]float64, len(runs))
		for i := range runs {
			xs[i] = get(&runs[i])
		}
		return stats.Median(xs)
	}
	f := runs[0]
	f.WallSeconds = med(func(f *Figures) float64 { return f.WallSeconds })
	f.CPUSeconds = med(func(f *Figures) float64 { return f.CPUSeconds })
	f.HeapBytes = int64(med(func(f *Figures) float64 { return float64(f.HeapBytes) }))
	for _, r := range runs {
		f.Unmeasured = f.Unmeasured || r.Unmeasured
	}
	f.rates()
	return f
}

// cpuTime is the process's user and system CPU time so far (0 when the
// system does not say).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
