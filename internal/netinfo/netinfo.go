// Package netinfo owns the network facts of the service: IP address → registry, registration
// status, registered country, organisation, bogon and reachability flags, the announcing BGP
// prefix with its origin ASes (carriers) and last-hop upstreams (via carriers); CIDR range →
// the networks announced within it, with paged subnetworks (network-by-cidr); AS number →
// AS information with its global rank, the ASes it gives transit to and receives it from,
// and its announced prefixes (ASPrefixes); and the ranked ASes in several orders
// (RankList).
//
// The build side (package netinfobuild) gathers source rows and hands them to Encode as an
// Input, which produces the deterministic payload of the snapshot's netinfo section. The
// serving side calls Decode once per snapshot and then answers from the immutable DB.
//
// # Rules
//
// Registry blocks and bogon blocks are inclusive address ranges. Encode cuts each range into
// its canonical CIDR pieces (the largest aligned blocks, as netipx.IPRange.Prefixes does). For
// an address, the block that answers is the one whose piece containing the address is the
// most specific; among pieces with the same prefix, the higher Priority wins, and at equal
// priority a bogon block wins over a non-bogon one and a registry block with the smaller
// (Registry, Status, Country) triple wins. A prefix, not an address, is matched the same way
// by the pieces that contain the whole prefix.
//
// Announced networks never overlap (Encode rejects overlaps); an address is announced when it
// lies in one. It is reachable globally when it is announced and not a bogon.
//
// RegisteredCountry is the country of the answering registry block, or, where that block has
// none but is someone's (InUse) and the address is no bogon, the country recorded with the
// announcing network.
//
// # Values and sharing
//
// Network, ASInfo and the Within result types are plain values. Their slices (Carriers,
// ViaCarriers, TransitTo, ReceivingFrom) are shared with the DB and with every other caller: treat them as
// read-only. A DB is immutable and safe for concurrent use. Lookup and AS do not allocate.
package netinfo

import (
	"errors"
	"net/netip"
)

// ErrFormat reports a netinfo section that Decode cannot accept: truncated, inconsistent or
// holding values outside their domain. Errors from Decode wrap it; compare with errors.Is.
var ErrFormat = errors.New("netinfo: malformed section")

// ErrInput reports Input that Encode cannot represent: overlapping announced networks,
// mixed address families, invalid prefixes and the like. Errors from Encode wrap it.
var ErrInput = errors.New("netinfo: invalid input")

// Limits of the data model, checked by Encode and Decode.
const (
	// MaxViaCarriers is the most via carriers kept per network: the spec caps viaCarriers
	// at the five most significant.
	MaxViaCarriers = 5
	// MaxCarriers is the most origin ASes kept per announced network.
	MaxCarriers = 16
)

// Network is what the DB knows about one IP address (or, in Within results, one prefix).
// Absent facts are zero values.
type Network struct {
	// Registry is the Regional Internet Registry the block is registered with, spelt as
	// IANA does: "AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE NCC"; "IANA" for IANA-held and
	// special-purpose space and "IETF" for space the IETF reserves.
	Registry string
	// RegistryStatus is the block's status in lower case: "allocated", "assigned",
	// "available", "reserved" (RIR statistics), or "legacy" (IANA's IPv4 table) where only
	// IANA's table covers the block.
	RegistryStatus string
	// RegisteredCountry is an ISO 3166-1 alpha-2 code, or "" if unknown.
	RegisteredCountry string
	// Organisation is the organisation of the announcing network's origin AS.
	Organisation string
	// IsReachableGlobally reports whether the address is announced and not a bogon.
	IsReachableGlobally bool
	// IsBogon reports whether the address is in special-purpose or unallocated space.
	IsBogon bool
	// BGPPrefix is the announced prefix containing the address; the zero Prefix if none.
	BGPPrefix netip.Prefix
	// Carriers are the origin ASes of BGPPrefix, the principal one first. Read-only.
	Carriers []uint32
	// ViaCarriers are the ASes seen just before an origin on AS paths to BGPPrefix, most
	// significant (seen by the most peers) first, at most MaxViaCarriers. Empty when the
	// snapshot has no AS paths (see Info.HasASPaths). Read-only.
	ViaCarriers []uint32
}

// IsAnnounced reports whether n has an announcing BGP prefix.
func (n Network) IsAnnounced() bool { return n.BGPPrefix.IsValid() }

// InUse reports whether a registry status says the space is someone's: allocated, assigned
// or legacy, as against available or reserved.
func InUse(status string) bool {
	switch status {
	case "allocated", "assigned", "legacy":
		return true
	}
	return false
}

// Registered reports whether a block's registry and status say its space is some holder's
// registration: in use (InUse) and not held by IANA or the IETF themselves. IANA lists
// 2002::/16 as allocated, to the 6to4 mechanism, not to a holder with a country.
func Registered(registry, status string) bool {
	return InUse(status) && registry != "IANA" && registry != "IETF"
}

// ASInfo is what the DB knows about one autonomous system. Counts are computed from the
// announced networks in which the AS is a carrier.
type ASInfo struct {
	ASN          uint32
	Organisation string // long organisation name, e.g. "Cloudflare, Inc."
	Name         string // AS handle, e.g. "CLOUDFLARENET"
	Registry     string // as in Network.Registry
	// RegisteredCountry is an ISO 3166-1 alpha-2 code, or "".
	RegisteredCountry string
	// RegistrationDate and RegistrationLastChange are "yyyy-mm-dd", or "" if unknown.
	RegistrationDate       string
	RegistrationLastChange string

	TotalIPv4Addresses     uint64
	TotalIPv4Prefixes      int
	TotalIPv4BogonPrefixes int
	TotalIPv6Prefixes      int
	TotalIPv6BogonPrefixes int

	// Rank is the global rank by TotalIPv4Addresses, 1 for the most, ties broken by the
	// lower ASN; 0 for an AS that announces no IPv4 address. See DB.RankedASes.
	Rank int
	// TransitTo are the ASes this AS gives transit to (its customers on observed AS paths),
	// ordered by rank, unranked ASes last by ASN. Empty when the snapshot has no AS paths.
	// Read-only.
	TransitTo []uint32
	// ReceivingFrom are the ASes that give this AS transit: those whose TransitTo holds it,
	// ordered as TransitTo is. Derived at Decode, not stored. Read-only.
	ReceivingFrom []uint32
}

// Info describes what a DB holds and which sources fed it, so that callers (data info, the
// API's documentation of empty fields) can say why a field is empty.
type Info struct {
	Networks4, Networks6 int // announced networks per family
	RegistryPieces       int // registry CIDR pieces after cutting blocks
	BogonPieces          int // bogon CIDR pieces after cutting blocks
	ASes                 int // ASes with a record
	RankedASes           int // ASes announcing IPv4 space
	Sources              Sources
}

// Sources records which kinds of source fed a section.
type Sources struct {
	// RIRStats is set when per-block RIR statistics (delegated files) were read; without
	// them registry, status and country come from IANA's tables alone.
	RIRStats bool
	// IANAXML is set when IANA's XML registries were read rather than the built-in table.
	IANAXML bool
	// FullBogons is set when a full bogon list (unallocated space) was read.
	FullBogons bool
	// ASPaths is set when BGP AS paths were read; without them ViaCarriers and TransitTo
	// are empty.
	ASPaths bool
	// ASNames is set when an AS names list (handles) was read; without it ASInfo.Name is
	// empty.
	ASNames bool
}
