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
// trimming, so that a context freed leaves its pages for the next one.
// Before the first context is made (prepareHeap, from NewContext, so a
// process that makes none pays nothing) it grows the heap once by 48 MiB
// of untouched address space marked MADV_HUGEPAGE, so that the tables
// fault in 2 MiB pages where the kernel allows transparent huge pages for
// advised regions (the default): 1.6 ms instead of 6 ms of page faults.
// It is the in-process form of GLIBC_TUNABLES=glibc.malloc.hugetlb=1:
// glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=... .
//
// A huge page is not always cheap. On a virtual machine whose balloon
// reports free memory to the host (virtio-balloon free page reporting,
// which hands back free blocks of 2 MiB and more), a 2 MiB page can be
// memory the host has to back afresh on first touch: 4-5 ms of kernel
// time for one page, against 0.15 ms for a page the guest used recently
// and 0.7 ms for the same 2 MiB in 4 KiB pages (which come from the small
// free lists, rarely handed back). Measured on such a machine: PolIC3 on
// tr1's four policies (bench/polic3-proofs.toml) took a median of 20-24
// ms but a 90th percentile of 25-61 ms with huge pages everywhere, 26-30
// and 30-33 ms with 4 KiB pages (ic3/FIGURES.md, session 13).
// So prepareHeap touches the first 18 MiB (where Z3 puts its two tables) one
// 2 MiB page at a time and times each fault on the thread's CPU clock;
// after the first page that costs more than 1 ms it marks the rest of
// the region MADV_NOHUGEPAGE, bounding the loss to one slow page.
//
// Nothing here changes what Z3 computes, only where its memory comes
// from. Setting VIGIL_Z3_MALLOC=default in the environment leaves the
// allocator alone, VIGIL_Z3_MALLOC=heap keeps the heap settings without
// huge pages, and VIGIL_Z3_MALLOC=huge takes huge pages without timing
// them (to measure the difference).

/*
#include <stdlib.h> // defines __GLIBC__ (through features.h)
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

// vg_malloc_tuned: 0 off, 1 heap settings, 2 heap and huge pages,
// 3 huge pages up to a slow one and 4 KiB pages after it.
static int vg_malloc_tuned;
static int vg_malloc_mode; // 0 adaptive huge pages, 1 heap only, 2 huge pages untimed

__attribute__((constructor)) static void vg_tune_malloc(void) {
	const char *v = getenv("VIGIL_Z3_MALLOC");
	if (v != NULL && strcmp(v, "default") == 0) return;
	if (v != NULL && strcmp(v, "heap") == 0) vg_malloc_mode = 1;
	if (v != NULL && strcmp(v, "huge") == 0) vg_malloc_mode = 2;
	if (!mallopt(M_ARENA_MAX, 1)) return;
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	vg_malloc_tuned = 1;
}

static double vg_thread_ms(void) {
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// vg_filler keeps the heap's top 2 MiB-aligned after vg_prepare_heap: a
// block of less than 2 MiB of address space, never touched past its
// header, held for the life of the process.
static void *vg_filler;

static void vg_prepare_heap(void) {
	if (vg_malloc_tuned != 1 || vg_malloc_mode == 1) return;
	const uintptr_t huge = 2 << 20;
	const size_t span = 48 << 20, probe = 18 << 20; // the two tables: 17 MB
	char *p = malloc(span);
	if (p == NULL) return;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	if (a - (uintptr_t)p >= 64 << 10) {
		// Start the next blocks at a: the block before it stays allocated
		// (and untouched), so that the tables begin on a huge page.
		free(p);
		vg_filler = malloc(a - (uintptr_t)p - 16); // glibc: the next block then starts at a
		p = malloc(span);
		if (p == NULL) return;
		a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	}
	uintptr_t b = ((uintptr_t)p + span) & ~(huge - 1);
	if (b > a && madvise((void *)a, b - a, MADV_HUGEPAGE) == 0) {
		vg_malloc_tuned = 2;
		for (uintptr_t x = a; vg_malloc_mode == 0 && x < b && x < a + probe; x += huge) {
			double t0 = vg_thread_ms();
			*(volatile char *)x = 0;
			if (vg_thread_ms() - t0 > 1.0) {
				if (x + huge < b) madvise((void *)(x + huge), b - x - huge, MADV_NOHUGEPAGE);
				vg_malloc_tuned = 3;
				break;
			}
		}
	}
	free(p);
}

static int vg_malloc_state(void) { return vg_malloc_tuned; }
#else
static void vg_prepare_heap(void) {}
static int vg_malloc_state(void) { return 0; }
#endif
*/
import "C"

import "sync"

var prepareOnce sync.Once

// prepareHeap readies the heap for Z3's tables before the first context
// (see the comment at the top of this file); later calls do nothing.
func prepareHeap() { prepareOnce.Do(func() { C.vg_prepare_heap() }) }

// MallocTuning says what the tuning of the C allocator did: "off" (not
// glibc on Linux, or VIGIL_Z3_MALLOC=default), "heap" (one arena, large
// blocks kept on the heap; no context made yet, or VIGIL_Z3_MALLOC=heap),
// "heap+huge" (also the heap grown once and advised for transparent huge
// pages) or "heap+huge+4k" (huge pages up to one whose fault was slow,
// 4 KiB pages after it).
func MallocTuning() string {
	switch C.vg_malloc_state() {
	case 1:
		return "heap"
	case 2:
		return "heap+huge"
	case 3:
		return "heap+huge+4k"
	}
	return "off"
}
