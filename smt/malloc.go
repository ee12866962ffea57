package smt

// Z3's fixed cost per context, and what the C allocator can do about it.
//
// Every Z3 context builds two tables of 8.5 MB each (measured with
// `perf record -e page-faults` on libz3 4.8.12: 80% of the page faults of
// `vigil verify --engine ic3` on a small model are in Z3_mk_context_rc).
// glibc gives a block that large its own mmap, so each context faults in
// about 4,200 fresh 4 KiB pages (some 12 ms of kernel time), and frees
// them again when it is deleted. A checked ic3 verdict needs two contexts
// one after the other (the engine's and the independent checker's), so
// on a model that IC3 decides in a few milliseconds the process spent
// most of its time in page faults: 37 ms against 20 ms for the z3 binary
// on the same question.
//
// At start-up (a constructor, before any thread exists) this file asks
// glibc to keep blocks below 64 MiB on its heap, in one arena, without
// trimming, so that a context freed leaves its pages for the next one;
// and it grows the heap once by 64 MiB of untouched address space marked
// MADV_HUGEPAGE, so that the tables fault in 2 MiB pages where the kernel
// allows transparent huge pages for advised regions (the default). It is
// the in-process form of GLIBC_TUNABLES=glibc.malloc.hugetlb=1:
// glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=... . Nothing here
// changes what Z3 computes, only where its memory comes from. Setting
// VIGIL_Z3_MALLOC=default in the environment leaves the allocator alone
// (to measure the difference).

/*
#include <stdlib.h> // defines __GLIBC__ (through features.h)
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int vg_malloc_tuned;

__attribute__((constructor)) static void vg_tune_malloc(void) {
	const char *v = getenv("VIGIL_Z3_MALLOC");
	if (v != NULL && strcmp(v, "default") == 0) return;
	if (!mallopt(M_ARENA_MAX, 1)) return;
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	vg_malloc_tuned = 1;
	// Grow the heap once (48 MiB asked, 16 MiB of padding) and give the
	// untouched space back to malloc's top chunk, advised for huge pages.
	char *lo = sbrk(0);
	void *p = malloc(48 << 20);
	if (p == NULL) return;
	free(p);
	char *hi = sbrk(0);
	if (lo == (char *)-1 || hi == (char *)-1 || hi <= lo) return;
	const uintptr_t huge = 2 << 20;
	uintptr_t a = ((uintptr_t)lo + huge - 1) & ~(huge - 1), b = (uintptr_t)hi & ~(huge - 1);
	if (b > a) madvise((void *)a, b - a, MADV_HUGEPAGE);
	vg_malloc_tuned = 2;
}

static int vg_malloc_state(void) { return vg_malloc_tuned; }
#else
static int vg_malloc_state(void) { return 0; }
#endif
*/
import "C"

// MallocTuning says what the start-up tuning of the C allocator did:
// "off" (not glibc on Linux, or VIGIL_Z3_MALLOC=default), "heap" (one
// arena, large blocks kept on the heap) or "heap+huge" (also the heap
// grown once and advised for transparent huge pages).
func MallocTuning() string {
	switch C.vg_malloc_state() {
	case 1:
		return "heap"
	case 2:
		return "heap+huge"
	}
	return "off"
}
