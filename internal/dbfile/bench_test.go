package dbfile

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// benchFile is a ~50 MB snapshot shaped like a real one: a few large sections and several
// small ones, filled with seeded pseudo-random bytes. Built once per test binary.
var benchFile = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewChaCha8([32]byte{'i', 'p', 'a', 't', 'l', 'a', 's'}))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	w := NewWriter(testMeta())
	sizes := map[string]int{
		"ipgeo": 30 << 20, "netinfo": 15 << 20, "revgeo": 4 << 20, "phone": 1 << 20,
		"country": 200 << 10, "risk": 64 << 10, "locale": 16 << 10,
	}
	for _, name := range []string{"country", "ipgeo", "locale", "netinfo", "phone", "revgeo", "risk"} {
		if err := w.AddSection(name, random(sizes[name])); err != nil {
			panic(err)
		}
	}
	var buf writerBuffer
	if _, err := w.WriteTo(&buf); err != nil {
		panic(err)
	}
	return buf
})

// writerBuffer is a minimal io.Writer into a byte slice.
type writerBuffer []byte

func (b *writerBuffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

func BenchmarkOpenBytes(b *testing.B) {
	data := benchFile()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OpenBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}
