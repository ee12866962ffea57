package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "bench",
		Summary: "measure BFS throughput and memory: packed engine versus a naive baseline",
		Usage:   "vigil bench [flags] FILE.spec | vigil bench ic3 [flags] FILE...",
		Examples: []string{
			"vigil bench -D L=120000 -D P=3 specs/twoway_line.spec",
			"vigil bench --naive=false specs/npuzzle.spec --json",
		},
		Run: runBench,
	})
	register(&command{
		Name:    "bench ic3",
		Summary: "ic3 against BFS and z3's Spacer on every model, property and symbolic policy of the files, one table",
		Usage:   "vigil bench ic3 [flags] FILE...",
		Examples: []string{
			"vigil bench ic3 --timeout 60s specs/*.spec    # ic3 vs bfs vs z3 Spacer on the CHC export, one table",
			"vigil bench ic3 --timeout 10s --nog --json specs/transport.spec",
		},
		Run: runBenchIC3,
	})
}

// benchFigures are one engine's measurements.
type benchFigures struct {
	Engine        string  `json:"engine"`
	States        int     `json:"states"`
	Transitions   int     `json:"transitions"`
	WallSeconds   float64 `json:"wall_seconds"`
	CPUSeconds    float64 `json:"cpu_seconds"`
	StatesPerSec  float64 `json:"states_per_cpu_second"`
	HeapBytes     int64   `json:"heap_bytes"`
	BytesPerState float64 `json:"bytes_per_state"`
	// Unmeasured: the run retained less heap than the measurement's noise
	// (tiny models); HeapBytes and BytesPerState are then 0, never negative.
	Unmeasured bool `json:"memory_unmeasured,omitempty"`
}

type benchReport struct {
	Model       string        `json:"model"`
	Policy      string        `json:"policy"`
	StateBytes  int           `json:"packed_state_bytes"`
	Packed      benchFigures  `json:"packed"`
	Naive       *benchFigures `json:"naive,omitempty"`
	SpeedRatio  float64       `json:"speed_ratio,omitempty"`
	MemoryRatio float64       `json:"memory_ratio,omitempty"`
}

func runBench(e *env, args []string) int {
	if len(args) > 0 && args[0] == "ic3" {
		return runBenchIC3(e, args[1:])
	}
	c := commands["bench"]
	fs := newFlags(e, c)
	mf := addModelFlags(fs, "property (default: the only one)", "rules or other policy restricting the labels (default: the only one)")
	naive := fs.Bool("naive", true, "also run the naive baseline (states formatted as strings in a Go map)")
	jsonOut := fs.Bool("json", false, "print the figures as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the packed engine's run to this file (go tool pprof)")
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	lm, ok := mf.load(e, "bench", file, false, thePolicy)
	if !ok {
		return exitError
	}
	m, decl, g := lm.m, lm.decl, lm.g
	newDecider := func() explicit.Decider { return nil }
	if decl != nil {
		newDecider = func() explicit.Decider { d, _ := explicit.NewDecider(m, decl); return d }
	}
	rep := &benchReport{Model: m.Name, Policy: policyName(decl), StateBytes: 8 * g.Words()}
	prog := newProgress(e, *jsonOut)
	defer prog.clear()

	var res *explicit.Result
	var err error
	rep.Packed, err = measure("packed", func() (int, int, error) {
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				return 0, 0, err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return 0, 0, err
			}
			defer pprof.StopCPUProfile()
		}
		var err error
		res, err = explicit.Search(context.Background(), g, explicit.Options{Policy: newDecider(), Progress: func(s explicit.Stats) {
			prog.printf("bench (packed): %d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
		}})
		if err != nil {
			return 0, 0, err
		}
		return res.Stats.States, res.Stats.Transitions, nil
	}, func() { runtime.KeepAlive(res) })
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil bench: %v\n", err)
		return exitError
	}
	res = nil
	if *naive {
		var keep any
		nf, err := measure("naive", func() (int, int, error) {
			n, t, k, err := naiveBFS(g, newDecider(), func(states, done int) {
				prog.printf("bench (naive): %d states, %d expanded", states, done)
			})
			keep = k
			return n, t, err
		}, func() { runtime.KeepAlive(keep) })
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil bench: %v\n", err)
			return exitError
		}
		if nf.States != rep.Packed.States || nf.Transitions != rep.Packed.Transitions {
			fmt.Fprintf(e.stderr, "vigil bench: internal error: the engines disagree (%d/%d states, %d/%d transitions)\n", rep.Packed.States, nf.States, rep.Packed.Transitions, nf.Transitions)
			return exitError
		}
		rep.Naive = &nf
		rep.SpeedRatio = rep.Packed.StatesPerSec / nf.StatesPerSec
		if !nf.Unmeasured && !rep.Packed.Unmeasured {
			rep.MemoryRatio = nf.BytesPerState / rep.Packed.BytesPerState
		}
	}
	prog.clear()
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
		return exitOK
	}
	w := e.stdout
	fmt.Fprintf(w, "model %s, policy %s: %d reachable states, %d transitions; packed state %d bytes\n", rep.Model, orNone(rep.Policy), rep.Packed.States, rep.Packed.Transitions, rep.StateBytes)
	fmt.Fprintf(w, "%-7s %12s %10s %10s %14s %12s\n", "engine", "states", "wall s", "cpu s", "states/cpu-s", "bytes/state")
	for _, f := range []*benchFigures{&rep.Packed, rep.Naive} {
		if f != nil {
			mem := fmt.Sprintf("%12.1f", f.BytesPerState)
			if f.Unmeasured {
				mem = fmt.Sprintf("%12s", "-")
			}
			fmt.Fprintf(w, "%-7s %12d %10.2f %10.2f %14.0f %s\n", f.Engine, f.States, f.WallSeconds, f.CPUSeconds, f.StatesPerSec, mem)
		}
	}
	switch {
	case rep.Naive != nil && rep.MemoryRatio > 0:
		fmt.Fprintf(w, "packed vs naive: %.1fx states/s, %.1fx less memory per state\n", rep.SpeedRatio, rep.MemoryRatio)
	case rep.Naive != nil:
		fmt.Fprintf(w, "packed vs naive: %.1fx states/s; memory too small to measure (-: the run kept less heap than the noise; use a larger model)\n", rep.SpeedRatio)
	}
	return exitOK
}

// measure runs f once, timing it by wall clock and by process CPU time, and
// takes the live heap it leaves behind (after a GC, while keep still holds
// the result).
func measure(name string, f func() (states, transitions int, err error), keep func()) (benchFigures, error) {
	// Two collections: objects with finalizers (open files of the loader)
	// are freed only by the second, and must not count as freed by f.
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	cpu0 := cpuTime()
	t0 := time.Now()
	n, t, err := f()
	wall := time.Since(t0)
	cpu := cpuTime() - cpu0
	if err != nil {
		return benchFigures{}, err
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	keep()
	heap := int64(ms.HeapAlloc) - int64(heap0)
	fig := benchFigures{Engine: name, States: n, Transitions: t, WallSeconds: wall.Seconds(), CPUSeconds: cpu.Seconds(), HeapBytes: max(heap, 0)}
	if heap <= 0 {
		fig.Unmeasured = true
	}
	if cpu > 0 {
		fig.StatesPerSec = float64(n) / cpu.Seconds()
	}
	if n > 0 && !fig.Unmeasured {
		fig.BytesPerState = float64(heap) / float64(n)
	}
	return fig, nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// naiveBFS is the baseline of the benchmark: the same successor generator
// and policy, but states kept as []int in a queue and as formatted strings
// in a map[string]int, the way a first implementation would store them.
func naiveBFS(g *explicit.Generator, dec explicit.Decider, progress func(states, expanded int)) (states, transitions int, keep any, err error) {
	m := g.M
	seen := map[string]int{}
	var queue []symbolic.State
	keyOf := func(s symbolic.State) string {
		b := make([]byte, 0, 4*len(s))
		for i, v := range s {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		return string(b)
	}
	add := func(s symbolic.State) {
		k := keyOf(s)
		if _, ok := seen[k]; !ok {
			seen[k] = len(seen)
			queue = append(queue, append(symbolic.State(nil), s...))
		}
	}
	if err := g.Starts(func(s symbolic.State) bool { add(s); return true }); err != nil {
		return 0, 0, nil, err
	}
	x := &explicit.Expansion{}
	src := make([]uint64, g.Words())
	t := make(symbolic.State, len(m.Vars))
	for i := 0; i < len(queue); i++ {
		if i&0xffff == 0 {
			progress(len(seen), i)
		}
		s := queue[i]
		if g.Status(s) != explicit.Open {
			continue
		}
		g.Applicable(s, x)
		if len(x.Labels) == 0 {
			continue
		}
		g.L.Pack(s, src)
		if dec != nil {
			l, err := dec.Decide(s, x.App)
			if err != nil {
				return 0, 0, nil, err
			}
			if l == symbolic.NoLabel {
				continue
			}
			err = g.Successors(src, s, l, x)
			if err != nil {
				return 0, 0, nil, err
			}
		} else {
			for _, l := range x.Labels {
				if err := g.Successors(src, s, l, x); err != nil {
					return 0, 0, nil, err
				}
			}
		}
		transitions += len(x.Succs)
		for j := range x.Succs {
			g.L.Unpack(x.Target(j), t)
			add(t)
		}
	}
	return len(seen), transitions, []any{seen, queue}, nil
}
