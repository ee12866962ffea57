//go:build !linux

package explicit

// adviseHuge does nothing outside linux (see hugepage_linux.go).
func adviseHuge([]uint64) {}
