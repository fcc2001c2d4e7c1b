// Package risk owns the user-risk rating and the hazard flags behind it: whether an address is
// a Tor relay or exit, a known VPN, iCloud Private Relay egress, in a cloud or datacenter range,
// on the Spamhaus DROP list or on public blocklists, how likely it is to be a hosting address,
// and the Low, Moderate or High rating of the /data/user-risk endpoint that sums them up.
//
// The build side (package riskbuild) parses the public lists into Data and hands it to Encode,
// which produces the deterministic payload of the snapshot's risk section. The serving side
// calls Decode once per snapshot and then answers DB.Hazards from the immutable DB; Rate turns
// the hazards into the rating and its description. Neither side reads the network engine's
// data: facts about routing (bogon, globally reachable, origin AS) come from the caller as
// Facts.
//
// # Evidence and what it cannot know
//
// Every flag is list membership, nothing is guessed. A list only knows the addresses it was
// told about on its data date: a Tor relay that started yesterday, a VPN with unpublished
// exits or a freshly rented cloud server are Low until the lists catch up, and an address
// that left a list's network since its date may still be flagged (DB.Lists gives each list's
// date). None of the sources lists open or anonymising proxies, so IsKnownAsProxy is always
// false; iCloud Private Relay egress, which is a proxy, has its own flag.
//
// With no lists at all (an empty section, the zero DB or a nil *DB) every address rates on Facts alone:
// bogons and unreachable addresses are High, everything else Low.
//
// # Rating (service spec, rule 2)
//
// High ("high risk - drop"): a bogon, not reachable globally, a Tor relay or exit, on the
// Spamhaus DROP list, or on at least BlocklistThreshold blocklists. Moderate ("moderate risk -
// challenge"): a VPN, a proxy (iCloud Private Relay included), a cloud, datacenter or hosting
// provider range, a hosting ASN, or a HostingLikelihood of at least HostingLikelihoodModerate.
// Low ("low risk") otherwise. The first level whose rule fires wins, and the description names
// every piece of evidence of that level.
//
// # Hosting likelihood
//
// HostingLikelihood adds up points for independent evidence and caps the sum at 10:
//
//	cloud or service provider range (provider-published lists)   PointsCloudRange      5
//	datacenter range (X4BNet datacenter list, ipcat)              PointsDatacenterRange 3
//	origin AS on the hosting ASN list                             PointsHostingASN      3
//	AS organisation name says hosting ("hosting", "cloud", ...)   PointsHostingName     2
//	VPN range or VPN ASN (VPN servers are hosted)                 PointsVPN             1
//
// An AWS address in X4BNet's datacenter list and announced by a hosting ASN scores 5+3+3,
// capped at 10; an address whose only evidence is an AS name with "Hosting" in it scores 2,
// which on its own does not make it Moderate.
//
// # Values and sharing
//
// Hazards is a plain value; its Lists slice is shared by every result with the same evidence
// and must be treated as read-only. A DB is immutable and safe for concurrent use; Hazards does
// not allocate.
package risk

import "strconv"

// Facts are what the network engine knows about an address, passed in by the caller. The zero
// value describes an address that is not reachable globally, which rates High: callers must
// fill in IsReachable.
type Facts struct {
	IsBogon        bool   // excluded from public use (special-purpose or unallocated space)
	IsReachable    bool   // announced on BGP and reachable globally
	ASN            uint32 // origin AS, 0 if unknown
	ASOrganisation string // the origin AS's organisation name, "" if unknown
}

// Hazards is the hazard report of one address: which lists it is on and what they mean. The
// field names follow the commercial service's hazardReport where it has the same field.
type Hazards struct {
	IsKnownAsTorServer bool // on a Tor relay or exit list
	IsKnownAsTorExit   bool // on a Tor exit list (implies IsKnownAsTorServer)
	IsKnownAsVpn       bool // in a VPN provider's range, or announced by a VPN provider's ASN
	// IsKnownAsProxy is always false from the lists: none of the sources lists open or
	// anonymising proxies. It exists so that Rate has the rule and the API the field.
	IsKnownAsProxy       bool
	IsICloudPrivateRelay bool // in Apple's published iCloud Private Relay egress ranges
	IsKnownAsDatacenter  bool // in a datacenter range (X4BNet datacenter list, ipcat)
	IsHostingAsn         bool // Facts.ASN is on the hosting ASN list
	HostingLikelihood    int  // 0 to 10, see the package documentation
	IsSpamhausDrop       bool // in a Spamhaus DROP or DROPv6 network
	IsBlocklisted        bool // BlocklistCount >= BlocklistThreshold
	BlocklistCount       int  // number of public blocklists the address is on (ipsum), 0 if none
	IsBogon              bool // from Facts.IsBogon
	IsUnreachable        bool // from !Facts.IsReachable

	// CloudProvider names the cloud or service provider whose published ranges hold the
	// address, e.g. "Amazon"; the alphabetically first if several do. Empty if none.
	CloudProvider string
	// HostingProvider names the hosting provider of a datacenter range, e.g. "Amazon AWS",
	// where the list names one (ipcat); the alphabetically first if several do.
	HostingProvider string

	// Lists names every list that matched, address and ASN lists alike, sorted, e.g.
	// ["cloud-ipranges/amazon", "x4bnet-lists-vpn/datacenter"]. Shared and read-only.
	Lists []string
}

// Thresholds and points; see the package documentation.
const (
	// BlocklistThreshold is how many blocklists an address must be on to count as
	// blocklisted. Three is what the ipsum feed itself recommends for an auto-ban list; one
	// or two lists catch too many shared and dynamic addresses.
	BlocklistThreshold = 3

	PointsCloudRange      = 5
	PointsDatacenterRange = 3
	PointsHostingASN      = 3
	PointsHostingName     = 2
	PointsVPN             = 1
	MaxHostingLikelihood  = 10

	// HostingLikelihoodModerate is the HostingLikelihood at which Rate says Moderate even
	// without a hosting flag (only reachable with hand-made Hazards today: every way to score
	// 5 or more also sets a flag).
	HostingLikelihoodModerate = 5
)

// hostingWords are the words in an AS organisation name that earn PointsHostingName, matched
// case-insensitively anywhere in the name. hostingName spells them out in a switch for speed;
// a test keeps the two in step.
const hostingWords = "hosting|datacenter|data center|data centre|cloud|server|vps|colocation|dedicated"

// hostingName reports whether an AS organisation name contains one of hostingWords. It makes
// one pass over the name and does not allocate.
func hostingName(org string) bool {
	for i := range len(org) {
		rest := org[i:]
		switch lowerASCII(org[i]) {
		case 'h':
			if hasPrefixFold(rest, "hosting") {
				return true
			}
		case 'd':
			if hasPrefixFold(rest, "datacenter") || hasPrefixFold(rest, "data center") ||
				hasPrefixFold(rest, "data centre") || hasPrefixFold(rest, "dedicated") {
				return true
			}
		case 'c':
			if hasPrefixFold(rest, "cloud") || hasPrefixFold(rest, "colocation") {
				return true
			}
		case 's':
			if hasPrefixFold(rest, "server") {
				return true
			}
		case 'v':
			if hasPrefixFold(rest, "vps") {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with w, which must be lower-case ASCII, ignoring the
// case of ASCII letters in s.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := range len(w) {
		if lowerASCII(s[j]) != w[j] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Risk is the rating of the /data/user-risk endpoint. Its zero value is Low.
type Risk uint8

// The three ratings, in increasing order, so that ratings compare with < and >.
const (
	Low Risk = iota
	Moderate
	High
)

// String returns "Low", "Moderate" or "High", the spellings of the API's risk field.
func (r Risk) String() string {
	switch r {
	case Low:
		return "Low"
	case Moderate:
		return "Moderate"
	case High:
		return "High"
	}
	return "Risk(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText encodes r as its String, so that it appears in JSON as the API spells it.
func (r Risk) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Description prefixes, as the commercial service writes them.
const (
	lowText      = "low risk"
	moderateText = "moderate risk - challenge"
	highText     = "high risk - drop"
)

// Rate returns the rating of h and a description of the evidence, e.g. "high risk - drop: the
// address is a Tor exit node", "moderate risk - challenge: hosting provider range (Amazon
// AWS)" or "low risk". The rules and their precedence are in the package documentation. Rate
// allocates only for Moderate and High, once.
func Rate(h Hazards) (r Risk, description string) {
	if !h.IsBogon && !h.IsUnreachable && !h.IsKnownAsTorExit && !h.IsKnownAsTorServer && !h.IsSpamhausDrop &&
		!h.IsBlocklisted && h.BlocklistCount < BlocklistThreshold && !h.IsKnownAsVpn && !h.IsKnownAsProxy &&
		!h.IsICloudPrivateRelay && h.CloudProvider == "" && h.HostingProvider == "" && !h.IsKnownAsDatacenter &&
		!h.IsHostingAsn && h.HostingLikelihood < HostingLikelihoodModerate {
		return Low, lowText // the common case, without building anything
	}
	var buf [256]byte
	// High: verb phrases after "the address", joined as "a, b and c".
	var high [5]string
	n := 0
	if h.IsBogon {
		high[n], n = "is a bogon", n+1
	}
	if h.IsUnreachable {
		high[n], n = "is not reachable globally", n+1
	}
	switch {
	case h.IsKnownAsTorExit:
		high[n], n = "is a Tor exit node", n+1
	case h.IsKnownAsTorServer:
		high[n], n = "is a Tor relay", n+1
	}
	if h.IsSpamhausDrop {
		high[n], n = "is on the Spamhaus DROP list", n+1
	}
	if h.IsBlocklisted || h.BlocklistCount >= BlocklistThreshold {
		high[n], n = "", n+1 // the count needs formatting; written below
	}
	if n > 0 {
		b := append(buf[:0], highText+": the address "...)
		for i, p := range high[:n] {
			switch {
			case i == 0:
			case i == n-1:
				b = append(b, " and "...)
			default:
				b = append(b, ", "...)
			}
			switch {
			case p != "":
				b = append(b, p...)
			case h.BlocklistCount > 0:
				b = append(b, "is on "...)
				b = strconv.AppendInt(b, int64(h.BlocklistCount), 10)
				b = append(b, " blocklists"...)
			default:
				b = append(b, "is on public blocklists"...)
			}
		}
		return High, string(b)
	}

	// Moderate: noun phrases joined with commas.
	b := append(buf[:0], moderateText+": "...)
	start := len(b)
	add := func(b []byte, parts ...string) []byte {
		if len(b) > start {
			b = append(b, ", "...)
		}
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	if h.IsKnownAsVpn {
		b = add(b, "known VPN network")
	}
	if h.IsKnownAsProxy {
		b = add(b, "known proxy")
	}
	if h.IsICloudPrivateRelay {
		b = add(b, "iCloud Private Relay egress (a proxy)")
	}
	if h.CloudProvider != "" {
		b = add(b, "cloud provider range (", h.CloudProvider, ")")
	}
	switch {
	case h.HostingProvider != "":
		b = add(b, "hosting provider range (", h.HostingProvider, ")")
	case h.IsKnownAsDatacenter:
		b = add(b, "datacenter range")
	}
	if h.IsHostingAsn {
		b = add(b, "hosting provider ASN")
	}
	if h.HostingLikelihood >= HostingLikelihoodModerate && h.CloudProvider == "" &&
		h.HostingProvider == "" && !h.IsKnownAsDatacenter && !h.IsHostingAsn {
		b = add(b, "hosting likelihood ")
		b = strconv.AppendInt(b, int64(min(h.HostingLikelihood, MaxHostingLikelihood)), 10)
		b = append(b, " of 10"...)
	}
	if len(b) > start {
		return Moderate, string(b)
	}
	return Low, lowText
}

// Threat names the strongest evidence against an address in a few words, as the commercial
// service's securityThreat does ("known as a TOR server", "blacklisted at BLOCKLIST.de"),
// and "unknown" when there is none, as it does. The order is Rate's: Tor, Spamhaus DROP,
// public blocklists, then VPN and proxy; a bogon or an unreachable address is no threat of
// its own (user risk rates those High for another reason).
func Threat(h Hazards) string {
	switch {
	case h.IsKnownAsTorExit:
		return "known as a Tor exit node"
	case h.IsKnownAsTorServer:
		return "known as a Tor server"
	case h.IsSpamhausDrop:
		return "listed on Spamhaus DROP"
	case h.IsBlocklisted || h.BlocklistCount >= BlocklistThreshold:
		return "on public blocklists"
	case h.IsKnownAsVpn:
		return "known as a VPN server"
	case h.IsKnownAsProxy || h.IsICloudPrivateRelay:
		return "known as a proxy"
	}
	return "unknown"
}
