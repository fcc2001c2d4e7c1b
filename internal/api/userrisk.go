package api

import (
	"github.com/ipatlas/ipatlas/internal/web"
	"net/http"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// riskHazards looks up the address's network facts and its hazard report. Facts come from
// the network engine: bogon, reachable globally (announced and not a bogon) and the
// principal origin AS with its organisation. An address the network data knows nothing of
// is not announced, so it is unreachable (High), as the spec's rule 2 says.
func riskHazards(snap *dataset.Snapshot, a netip.Addr) (risk.Hazards, error) {
	if err := needData(snap, engineNet|engineRisk); err != nil {
		return risk.Hazards{}, err
	}
	n, _ := snap.Net.Lookup(a)
	f := risk.Facts{IsBogon: n.IsBogon, IsReachable: n.IsReachableGlobally, ASOrganisation: n.Organisation}
	if len(n.Carriers) > 0 {
		f.ASN = n.Carriers[0]
	}
	return snap.Risk.Hazards(a, f), nil
}

// userRisk answers /data/user-risk: {"risk":"Low|Moderate|High","description":"..."}. The
// description starts with the commercial service's wording ("low risk", "moderate risk -
// challenge", "high risk - drop") and, for Moderate and High, names every piece of evidence
// of that level (risk.Rate).
func (s *Server) userRisk(w http.ResponseWriter, r *http.Request) error {
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	h, err := riskHazards(s.opt.Data.Current(), a)
	if err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	writeJSONPooled(w, bp, appendUserRisk((*bp)[:0], h))
	return nil
}

// appendUserRisk appends the user-risk answer of h.
func appendUserRisk(b []byte, h risk.Hazards) []byte {
	level, desc := risk.Rate(h)
	b = placesAppendField(append(b, '{'), true, "risk", level.String())
	b = placesAppendField(b, false, "description", desc)
	return append(b, '}')
}

// hazardReport answers /data/hazard-report: the evidence behind user-risk, flag by flag.
//
// Fields, in the commercial service's names where it has the field:
//
//	isKnownAsTorServer  on a Tor relay or exit list (Onionoo, doodad, check.torproject.org)
//	isKnownAsTorExit    on a Tor exit list (ipatlas addition)
//	isKnownAsVpn        in a VPN provider's range (X4BNet, ProtonVPN) or announced by a VPN ASN
//	isKnownAsProxy      an anonymising proxy; today only iCloud Private Relay egress, which
//	                    is a proxy (no open-proxy list is among the sources)
//	iCloudPrivateRelay  in Apple's published iCloud Private Relay egress ranges
//	isSpamhausDrop      in a Spamhaus DROP or DROPv6 network (EDROP was merged into DROP)
//	isBogon             special-purpose or unallocated space
//	isUnreachable       not announced on BGP, or a bogon
//	isHostingAsn        the origin AS is on the hosting ASN list (X4BNet)
//	hostingLikelihood   0 to 10, points for independent hosting evidence (package risk)
//	isKnownAsDatacenter in a datacenter range (X4BNet, ipcat) (ipatlas addition)
//	isBlocklisted       on at least 3 public blocklists (IPsum) (ipatlas addition)
//	blocklistCount      how many public blocklists the address is on (IPsum) (ipatlas addition)
//	cloudProvider       whose published cloud ranges hold the address, "" if none (ipatlas addition)
//	hostingProvider     the datacenter list's provider name, "" if none (ipatlas addition)
//	lists               the names of every list that matched (ipatlas addition)
//
// Left out because no source backs them (a false would claim a check that never ran):
// isSpamhausEdrop (EDROP no longer exists apart from DROP), isSpamhausAsnDrop (ASN-DROP is
// not among the sources), isBlacklistedUceprotect and isBlacklistedBlocklistDe (IPsum
// aggregates blocklists without saying which), isKnownAsMailServer, isKnownAsPublicRouter
// and isCellular (no source).
func (s *Server) hazardReport(w http.ResponseWriter, r *http.Request) error {
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	h, err := riskHazards(s.opt.Data.Current(), a)
	if err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	b := append(appendHazards(append((*bp)[:0], '{'), h), '}')
	writeJSONPooled(w, bp, b)
	return nil
}

// appendHazards appends the members of the hazard-report answer of h, without the braces.
func appendHazards(b []byte, h risk.Hazards) []byte {
	b = placesAppendBool(b, true, "isKnownAsTorServer", h.IsKnownAsTorServer)
	b = placesAppendBool(b, false, "isKnownAsTorExit", h.IsKnownAsTorExit)
	b = placesAppendBool(b, false, "isKnownAsVpn", h.IsKnownAsVpn)
	b = placesAppendBool(b, false, "isKnownAsProxy", h.IsKnownAsProxy || h.IsICloudPrivateRelay)
	b = placesAppendBool(b, false, "iCloudPrivateRelay", h.IsICloudPrivateRelay)
	b = placesAppendBool(b, false, "isSpamhausDrop", h.IsSpamhausDrop)
	b = placesAppendBool(b, false, "isBogon", h.IsBogon)
	b = placesAppendBool(b, false, "isUnreachable", h.IsUnreachable)
	b = placesAppendBool(b, false, "isHostingAsn", h.IsHostingAsn)
	b = placesAppendInt(b, false, "hostingLikelihood", h.HostingLikelihood)
	b = placesAppendBool(b, false, "isKnownAsDatacenter", h.IsKnownAsDatacenter)
	b = placesAppendBool(b, false, "isBlocklisted", h.IsBlocklisted)
	b = placesAppendInt(b, false, "blocklistCount", h.BlocklistCount)
	b = placesAppendField(b, false, "cloudProvider", h.CloudProvider)
	b = placesAppendField(b, false, "hostingProvider", h.HostingProvider)
	b = placesAppendKey(b, false, "lists")
	b = append(b, '[')
	for i, l := range h.Lists {
		if i > 0 {
			b = append(b, ',')
		}
		b = web.AppendJSONString(b, l)
	}
	return append(b, ']')
}
