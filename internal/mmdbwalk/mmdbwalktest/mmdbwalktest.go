// Package mmdbwalktest writes the crafted MaxMind DB files that the readers of GeoLite2
// databases are tested against.
package mmdbwalktest

import "encoding/binary"

// Chain returns an IPv6 MaxMind DB of the given database type whose search tree is a chain
// of n nodes (record size 24): node i points left and right at node i+1, and the last
// node at two different data records, {autonomous_system_number: 1} and {…: 2}. Walking
// it yields 2^(n-1) networks (the reader takes the paths to the first record for aliases
// of the IPv4 subtree and skips them), though a valid tree of n nodes has at most n+1.
// Lookups still end after at most n nodes.
func Chain(n int, dbType string) []byte {
	var b []byte
	put24 := func(v int) { b = append(b, byte(v>>16), byte(v>>8), byte(v)) }
	str := func(s string) { b = append(append(b, 0x40|byte(len(s))), s...) } // len < 29
	record := func(asn byte) {
		b = append(b, 0xE1) // map of 1
		str("autonomous_system_number")
		b = append(b, 0xC1, asn) // uint32 of 1 byte
	}
	const recordLen = 1 + 1 + len("autonomous_system_number") + 2
	for i := range n - 1 {
		put24(i + 1)
		put24(i + 1)
	}
	// A record value above n points into the data section at value - n - 16.
	put24(n + 16)
	put24(n + 16 + recordLen)
	b = append(b, make([]byte, 16)...) // the data section separator
	record(1)
	record(2)

	b = append(b, "\xAB\xCD\xEFMaxMind.com"...)
	b = append(b, 0xE9) // map of 9
	str("binary_format_major_version")
	b = append(b, 0xA1, 2) // uint16
	str("binary_format_minor_version")
	b = append(b, 0xA0)
	str("build_epoch")
	b = append(b, 0x01, 0x02, 1) // uint64 (extended type 9)
	str("database_type")
	str(dbType)
	str("description")
	b = append(b, 0xE0)
	str("ip_version")
	b = append(b, 0xA1, 6)
	str("languages")
	b = append(b, 0x00, 0x04) // empty array (extended type 11)
	str("node_count")
	b = append(b, 0xC4)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	str("record_size")
	b = append(b, 0xA1, 24)
	return b
}
