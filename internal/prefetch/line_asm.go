//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line asks the CPU to bring the cache line holding p into its caches, without waiting for
// it (PREFETCHT0 on x86-64, PRFM PLDL1KEEP on arm64).
//
//go:noescape
func Line(p unsafe.Pointer)
