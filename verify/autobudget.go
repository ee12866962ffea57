package verify

import (
	"bufio"
	"os"

	"strconv"
	"strings"
	"vigil/ic3/walk"
)

// The auto portfolio lets bfs store as many states as fit in a share of
// the machine's memory, not a fixed count: a policy's reachable states are
// often few even in a huge space (bench/polic3's 3x4 puzzle: about 9·10^7
// under each policy, which bfs stores in 2.5-3.2 GB and decides in 3-15
// minutes, where IC3 does not get past frame 1), and where they are many,
// bfs gives way before the machine swaps.

const (
	// autoBytesPerState is what bfs needs per stored state of one word,
	// with room to spare: the packed store, its index and the parent links
	// measured 28-37 bytes on the 3x4 puzzle, and 49 bytes (peak resident
	// memory over stored states) on a one-word counter.
	autoBytesPerState = 48
	// autoBytesPerWord is what each further word of a packed state adds:
	// the store grows by doubling, so a word of 8 bytes costs up to 16. A
	// counter with eight 40-bit variables (9 words: a variable is never
	// split across words) measured 111 bytes a state at 3·10^6 states (bfs
	// alone) and 184 at 3.6·10^7 (the whole auto process, IC3 and the
	// hunter included); a budget of 48 bytes a state let bfs take several
	// times its share of the memory there.
	autoBytesPerWord = 16
	// autoMinStates and autoMaxMemory bound the budget where the memory
	// cannot be read, or is very large.
	autoMinStates = 1_000_000
	autoMaxMemory = 8 << 30
)

// AutoStates is bfs's state budget in the auto portfolio for states of
// one word: AutoStatesWords(1).
func AutoStates() int { return AutoStatesWords(1) }

// AutoStatesWords is bfs's state budget in the auto portfolio for states
// packed in words uint64 words: a quarter of the memory available to the
// process (the machine's, or its cgroup's limit when smaller), at most 8
// GiB, divided by the bytes such a state takes; at least a million
// states.
func AutoStatesWords(words int) int { return autoStatesFor(availableMemory(), words) }

func autoStatesFor(mem int64, words int) int {
	share := min(mem/4, autoMaxMemory)
	per := int64(autoBytesPerState + autoBytesPerWord*max(words-1, 0))
	return max(int(share/per), autoMinStates)
}

// availableMemory returns the physical memory (Linux /proc/meminfo), or
// the cgroup v2 limit when smaller; 0 when neither can be read.
func availableMemory() int64 {
	mem := meminfoTotal("/proc/meminfo")
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if lim, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && lim > 0 && (mem == 0 || lim < mem) {
			mem = lim
		}
	}
	return mem
}

// meminfoTotal reads MemTotal (in kB) from a /proc/meminfo file, in bytes;
// 0 when it cannot.
func meminfoTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// walkMemory is the memory the walks of a question (PolIC3's, auto's
// hunter's: package walk) may remember states in: WalkMemory().
func (q *Prepared) walkMemory() int64 { return WalkMemory() }

// WalkMemory is the memory deterministic walks (package walk) may
// remember states in: an eighth of the memory available to the process
// (half of bfs's share in the auto portfolio, where the hunter walks
// beside bfs), at most 2 GiB, at least walk.DefaultSeenBytes. The store
// grows as the walks go, so a hunt that passes few states takes little.
// Past the bound a walk ends where it closes a cycle of its own (package
// walk): at 24 MB (about 2^20 states) the hunter finds the deep run of
// bench/adversarial/auto_cycles_deep.txtar (60,000 start states, each on
// a cycle of its own) in 4.7 s, where walks in cycles that never ended
// crowded out the later starts' (ic3 answered, in 53 s).
func WalkMemory() int64 { return walkMemoryFor(availableMemory()) }

func walkMemoryFor(mem int64) int64 {
	return min(max(mem/8, walk.DefaultSeenBytes), walkMaxMemory)
}

// walkMaxMemory bounds WalkMemory.
const walkMaxMemory = 2 << 30
