package prefetch

import "unsafe"

// lineSize is the cache line size of the CPUs this runs on (x86-64 and most arm64 cores).
const lineSize = 64

// Bytes asks for every cache line of the n bytes at p. Every pointer it passes on lies
// inside them, so p may be the start of any Go object of at least n bytes.
func Bytes(p unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	for off := 0; off < n; off += lineSize {
		Line(unsafe.Add(p, off))
	}
	// The steps above start mid-line, so they can stop one line short of the last byte.
	Line(unsafe.Add(p, n-1))
}

// String asks for the first cache line of s's bytes.
func String(s string) {
	if len(s) > 0 {
		Line(unsafe.Pointer(unsafe.StringData(s)))
	}
}

// Slice asks for every cache line of s's elements.
func Slice[E any](s []E) {
	if len(s) > 0 {
		var e E
		Bytes(unsafe.Pointer(&s[0]), len(s)*int(unsafe.Sizeof(e)))
	}
}
