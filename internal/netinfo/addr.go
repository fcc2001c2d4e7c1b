package netinfo

import (
	"math/bits"
	"net/netip"
	"strconv"
)

// u128 is an address (or an address count) as a 128-bit unsigned number. IPv4 addresses sit
// in the low 32 bits; the family is carried separately.
type u128 struct{ hi, lo uint64 }

func u128Of(a netip.Addr) u128 {
	if a.Is4() {
		b := a.As4()
		return u128{0, uint64(b[0])<<24 | uint64(b[1])<<16 | uint64(b[2])<<8 | uint64(b[3])}
	}
	b := a.As16()
	var v u128
	for i := range 8 {
		v.hi = v.hi<<8 | uint64(b[i])
		v.lo = v.lo<<8 | uint64(b[8+i])
	}
	return v
}

// addr returns the address of family is4 whose value is v.
func (v u128) addr(is4 bool) netip.Addr {
	if is4 {
		x := uint32(v.lo)
		return netip.AddrFrom4([4]byte{byte(x >> 24), byte(x >> 16), byte(x >> 8), byte(x)})
	}
	var b [16]byte
	for i := range 8 {
		b[7-i] = byte(v.hi >> (8 * i))
		b[15-i] = byte(v.lo >> (8 * i))
	}
	return netip.AddrFrom16(b)
}

func (v u128) cmp(w u128) int {
	switch {
	case v.hi < w.hi:
		return -1
	case v.hi > w.hi:
		return 1
	case v.lo < w.lo:
		return -1
	case v.lo > w.lo:
		return 1
	}
	return 0
}

func (v u128) add(w u128) u128 {
	lo, c := bits.Add64(v.lo, w.lo, 0)
	hi, _ := bits.Add64(v.hi, w.hi, c)
	return u128{hi, lo}
}

func (v u128) sub(w u128) u128 {
	lo, b := bits.Sub64(v.lo, w.lo, 0)
	hi, _ := bits.Sub64(v.hi, w.hi, b)
	return u128{hi, lo}
}

// trailingZeros returns the number of trailing zero bits of v, 128 for zero.
func (v u128) trailingZeros() int {
	if v.lo != 0 {
		return bits.TrailingZeros64(v.lo)
	}
	if v.hi != 0 {
		return 64 + bits.TrailingZeros64(v.hi)
	}
	return 128
}

// pow2 returns 2**n for n < 128.
func pow2(n int) u128 {
	if n >= 64 {
		return u128{1 << (n - 64), 0}
	}
	return u128{0, 1 << n}
}

// hostMask returns 2**n - 1 for n <= 128.
func hostMask(n int) u128 {
	switch {
	case n >= 128:
		return u128{^uint64(0), ^uint64(0)}
	case n >= 64:
		return u128{1<<(n-64) - 1, ^uint64(0)}
	}
	return u128{0, 1<<n - 1}
}

func (v u128) or(w u128) u128 { return u128{v.hi | w.hi, v.lo | w.lo} }

// width returns the number of bits of the family.
func width(is4 bool) int {
	if is4 {
		return 32
	}
	return 128
}

// LastAddr returns the last address of p: its host bits all set (the zero Addr for an
// invalid p). It is what a network's
// bgpPrefixLastAddress says, written with every network answer, so it is two word-wide ORs
// rather than a loop over the host bits (a fiftieth of a geolocation render's instructions).
func LastAddr(p netip.Prefix) netip.Addr {
	if !p.IsValid() {
		return netip.Addr{}
	}
	p = p.Masked()
	return lastOf(p).addr(p.Addr().Is4())
}

// lastOf returns the last address of the (masked) prefix p, as a u128.
func lastOf(p netip.Prefix) u128 {
	return u128Of(p.Addr()).or(hostMask(width(p.Addr().Is4()) - p.Bits()))
}

// pieces appends to dst the canonical CIDR cover of the inclusive range first..last (the
// largest aligned blocks), in ascending order. first and last must be of one family and
// first <= last.
func pieces(dst []netip.Prefix, first, last netip.Addr) []netip.Prefix {
	is4 := first.Is4()
	w := width(is4)
	lo, hi := u128Of(first), u128Of(last)
	for {
		// The largest block starting at lo: aligned to lo's trailing zeros, and no larger
		// than what is left of the range.
		n := min(lo.trailingZeros(), w)
		for n > 0 && lo.or(hostMask(n)).cmp(hi) > 0 {
			n--
		}
		dst = append(dst, netip.PrefixFrom(lo.addr(is4), w-n))
		end := lo.or(hostMask(n))
		if end.cmp(hi) >= 0 {
			return dst
		}
		lo = end.add(u128{0, 1})
	}
}

// AddrCount is a number of addresses. It holds any count up to and including 2**128, the
// size of ::/0. The zero value is zero.
type AddrCount struct {
	top    bool // set only for exactly 2**128
	hi, lo uint64
}

// countOfBits returns 2**n for 0 <= n <= 128.
func countOfBits(n int) AddrCount {
	if n >= 128 {
		return AddrCount{top: true}
	}
	p := pow2(n)
	return AddrCount{hi: p.hi, lo: p.lo}
}

func countOf(v u128) AddrCount { return AddrCount{hi: v.hi, lo: v.lo} }

// Count returns n as an AddrCount.
func Count(n uint64) AddrCount { return AddrCount{lo: n} }

// PrefixSize returns the number of addresses in p.
func PrefixSize(p netip.Prefix) AddrCount {
	if !p.IsValid() {
		return AddrCount{}
	}
	return countOfBits(p.Addr().BitLen() - p.Bits())
}

// IsZero reports whether c is zero.
func (c AddrCount) IsZero() bool { return c == AddrCount{} }

// Uint64 returns c and whether it fits in a uint64.
func (c AddrCount) Uint64() (uint64, bool) {
	if c.top || c.hi != 0 {
		return 0, false
	}
	return c.lo, true
}

// Float64 returns c, rounded to the nearest float64.
func (c AddrCount) Float64() float64 {
	if c.top {
		return 0x1p128
	}
	return float64(c.hi)*0x1p64 + float64(c.lo)
}

// String returns c in decimal.
func (c AddrCount) String() string { return string(c.AppendTo(nil)) }

// AppendTo appends c in decimal to b. Answers write a network's totalAddresses with it,
// which for IPv6 networks does not fit in a uint64.
func (c AddrCount) AppendTo(b []byte) []byte {
	if c.top {
		return append(b, "340282366920938463463374607431768211456"...)
	}
	if c.hi == 0 {
		return strconv.AppendUint(b, c.lo, 10)
	}
	// Divide the 128-bit number by 10**19 repeatedly; at most three chunks.
	const chunk = 10_000_000_000_000_000_000
	var parts [3]uint64
	n := 0
	hi, lo := c.hi, c.lo
	for hi != 0 || lo != 0 {
		qhi := hi / chunk
		var r uint64
		var qlo uint64
		qlo, r = bits.Div64(hi%chunk, lo, chunk)
		parts[n] = r
		n++
		hi, lo = qhi, qlo
	}
	b = strconv.AppendUint(b, parts[n-1], 10)
	for i := n - 2; i >= 0; i-- {
		var d [19]byte
		for j := len(d) - 1; j >= 0; j-- {
			d[j] = byte('0' + parts[i]%10)
			parts[i] /= 10
		}
		b = append(b, d[:]...)
	}
	return b
}
