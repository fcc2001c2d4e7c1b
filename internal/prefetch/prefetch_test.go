package prefetch

import (
	"testing"
	"unsafe"
)

// A prefetch never faults: nil, empty spans and spans ending at an object's last byte are
// accepted, and nothing the program reads changes.
func TestPrefetchIsHarmless(t *testing.T) {
	Line(nil)
	b := make([]byte, 200)
	for i := range b {
		b[i] = byte(i)
	}
	for _, n := range []int{-1, 0, 1, 63, 64, 65, 200} {
		Bytes(unsafe.Pointer(&b[0]), n)
	}
	String("")
	String("x")
	Slice([]int32(nil))
	Slice([]int32{1, 2, 3})
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}

func BenchmarkLine(b *testing.B) {
	x := make([]byte, 64)
	for b.Loop() {
		Line(unsafe.Pointer(&x[0]))
	}
}
