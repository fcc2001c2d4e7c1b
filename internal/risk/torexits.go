package risk

import (
	"encoding/binary"
	"net/netip"
)

// MaxTorExits bounds TorExits. The Tor lists name single addresses, a few thousand in all;
// the bound only keeps a malformed list holding a large range from filling memory.
const MaxTorExits = 1 << 20

// TorExits returns every address on a Tor exit list, in address order (IPv4 before IPv6),
// at most MaxTorExits. The section keeps no list apart from the others, only the intervals
// of addresses that are on the same lists, and the builder merges neighbouring addresses
// into one range; but the Tor lists name single addresses, so every address of an interval
// on an exit list was listed itself, and expanding the intervals gives the listed addresses
// back. The slice is shared and read-only; a nil *DB has none.
func (db *DB) TorExits() []netip.Addr {
	if db == nil {
		return nil
	}
	return db.torExits
}

// exitAddrs expands the intervals on a Tor exit list into their addresses.
func (db *DB) exitAddrs() []netip.Addr {
	var out []netip.Addr
	exit := func(label uint32) bool { return int(label) < len(db.matches) && db.matches[label].h.IsKnownAsTorExit }
	for i, label := range db.v4Labels {
		if !exit(label) {
			continue
		}
		end := uint64(1) << 32
		if i+1 < len(db.v4Starts) {
			end = uint64(db.v4Starts[i+1])
		}
		for v := uint64(db.v4Starts[i]); v < end && len(out) < MaxTorExits; v++ {
			var b [4]byte
			binary.BigEndian.PutUint32(b[:], uint32(v))
			out = append(out, netip.AddrFrom4(b))
		}
	}
	for i, label := range db.v6Labels {
		if !exit(label) {
			continue
		}
		u := u128{db.v6Hi[i], db.v6Lo[i]}
		last := false // the interval runs to the end of the space
		var end u128
		if i+1 < len(db.v6Hi) {
			end = u128{db.v6Hi[i+1], db.v6Lo[i+1]}
		} else {
			last = true
		}
		for (last || u.cmp(end) < 0) && len(out) < MaxTorExits {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:8], u.hi)
			binary.BigEndian.PutUint64(b[8:], u.lo)
			out = append(out, netip.AddrFrom16(b))
			var over bool
			if u, over = u.add(u128{lo: 1}); over {
				break
			}
		}
	}
	return out
}
