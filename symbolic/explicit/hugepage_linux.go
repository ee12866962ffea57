package explicit

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on linux/amd64 and
// arm64 (with 4 KiB base pages).
const hugePageBytes = 2 << 20

// adviseHuge asks the kernel to back the whole 2 MiB pages inside s with
// transparent huge pages. It is only a hint (the kernel may ignore it, and
// does when huge pages are off), and is given before s is first written:
// a large table filled with 4 KiB pages takes one page fault per 4 KiB,
// and in a virtual machine those faults cost as much as the table's
// probes. Small slices are left alone.
func adviseHuge(s []uint64) {
	if len(s)*8 < 2*hugePageBytes {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	beg := (p + hugePageBytes - 1) &^ (hugePageBytes - 1)
	end := (p + uintptr(len(s))*8) &^ (hugePageBytes - 1)
	if beg < end {
		_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&s[(beg-p)/8])), end-beg), unix.MADV_HUGEPAGE)
	}
}
