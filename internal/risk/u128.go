package risk

import (
	"encoding/binary"
	"net/netip"
)

// u128 is an address as a number: IPv4 addresses in the low 32 bits, IPv6 addresses in all 128.
type u128 struct{ hi, lo uint64 }

func addrU128(a netip.Addr) u128 {
	if a.Is4() {
		b := a.As4()
		return u128{lo: uint64(binary.BigEndian.Uint32(b[:]))}
	}
	b := a.As16()
	return u128{hi: binary.BigEndian.Uint64(b[:8]), lo: binary.BigEndian.Uint64(b[8:])}
}

func (u u128) cmp(v u128) int {
	switch {
	case u.hi < v.hi:
		return -1
	case u.hi > v.hi:
		return 1
	case u.lo < v.lo:
		return -1
	case u.lo > v.lo:
		return 1
	}
	return 0
}

// add returns u+v and whether the sum overflowed 128 bits.
func (u u128) add(v u128) (u128, bool) {
	lo := u.lo + v.lo
	var carry uint64
	if lo < u.lo {
		carry = 1
	}
	hi := u.hi + v.hi + carry
	over := hi < u.hi || (hi == u.hi && (v.hi != 0 || carry != 0))
	return u128{hi, lo}, over
}

// sub returns u-v for u >= v.
func (u u128) sub(v u128) u128 {
	lo := u.lo - v.lo
	var borrow uint64
	if u.lo < v.lo {
		borrow = 1
	}
	return u128{u.hi - v.hi - borrow, lo}
}

func (u u128) isZero() bool { return u.hi == 0 && u.lo == 0 }
