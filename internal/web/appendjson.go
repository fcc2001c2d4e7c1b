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
	start := 0
	for i := 0; i < len(s); {
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
