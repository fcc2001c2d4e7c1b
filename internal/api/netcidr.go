package api

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/netip"
	"strings"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/web"
)

// cidrBody is the network-by-cidr body, in the shape the commercial service's clients read
// (reference-api 1.6): the covering network with its paged subnets, and, when the range
// spans several announced networks, the networks inside it, nested depthLimit levels.
type cidrBody struct {
	CIDR   string `json:"cidr"`
	Parent string `json:"parent,omitempty"` // omitted when nothing strictly contains the network
	// Network is the network covering the range: the announced network that holds it, or
	// the range itself (type "range").
	Network cidrNetworkJSON `json:"network"`
	// Networks lists the networks inside the range; omitted when it lies within a single
	// announced network. TotalNetworks counts them all (after bogonsOnly), Truncated says
	// when netinfo.MaxNetworks items cut the list short.
	Networks      []cidrItemJSON `json:"networks,omitempty"`
	TotalNetworks int            `json:"totalNetworks"`
	Truncated     bool           `json:"truncated,omitempty"`
}

// cidrFacts are the Network-object facts of a prefix.
type cidrFacts struct {
	Registry              string            `json:"registry"`
	RegistryStatus        string            `json:"registryStatus"`
	RegisteredCountry     string            `json:"registeredCountry"`
	RegisteredCountryName string            `json:"registeredCountryName"`
	Organisation          string            `json:"organisation"`
	IsReachableGlobally   bool              `json:"isReachableGlobally"`
	IsBogon               bool              `json:"isBogon"`
	BGPPrefix             string            `json:"bgpPrefix,omitempty"`
	Carriers              []json.RawMessage `json:"carriers"`
	ViaCarriers           []json.RawMessage `json:"viaCarriers"`
}

type cidrNetworkJSON struct {
	CIDR string `json:"cidr"`
	Type string `json:"type"`
	cidrFacts
	TotalSubnets int              `json:"totalSubnets"`
	Subnets      []cidrSubnetJSON `json:"subnets"`
}

type cidrSubnetJSON struct {
	StartAddress          string `json:"startAddress"`
	EndAddress            string `json:"endAddress"`
	Organisation          string `json:"organisation"`
	RegisteredCountry     string `json:"registeredCountry"`
	RegisteredCountryName string `json:"registeredCountryName"`
}

type cidrItemJSON struct {
	CIDR           string         `json:"cidr"`
	Type           string         `json:"type"`
	Size           json.Number    `json:"size"` // up to 2**128: a number, never rounded
	TotalAnnounced json.Number    `json:"totalAnnounced"`
	BogonsCount    int            `json:"bogonsCount"`
	DeepCount      int            `json:"deepCount"`
	Network        cidrFacts      `json:"network"`
	Networks       []cidrItemJSON `json:"networks,omitempty"`
}

// networkByCIDR answers /data/network-by-cidr. Parameters: cidr (required; IPv4 or IPv6,
// host bits are cleared), depthLimit (1–5, default 1), subnetsBatchSize (1–20, default 20;
// over 20 is a 400, the spec's hard limit), subnetsOffset (≥ 0, default 0), bogonsOnly
// (true keeps only bogon networks and subnets), localityLanguage.
func (s *Server) networkByCIDR(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	snap := v.snap
	raw, ok := paramOK(r, "cidr")
	if !ok || strings.TrimSpace(raw) == "" {
		return badRequest("The cidr parameter is required: a range such as 8.8.8.0/24 or 2001:4860::/32.")
	}
	p, ok := parseCIDRParam(raw)
	if !ok {
		return badRequest("The cidr parameter %s is not a CIDR range: use x.x.x.x/y with y from 0 to 32, or an IPv6 address/y with y from 0 to 128.", quoteInput(raw))
	}
	depth, err := intParam(r, "depthLimit", netinfo.DefaultDepthLimit, 1, netinfo.MaxDepthLimit)
	if err != nil {
		return err
	}
	batch, err := intParam(r, "subnetsBatchSize", netinfo.MaxSubnetsBatch, 1, netinfo.MaxSubnetsBatch)
	if err != nil {
		return err
	}
	offset, err := intParam(r, "subnetsOffset", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	bogons, err := boolParam(r, "bogonsOnly")
	if err != nil {
		return err
	}
	res, err := snap.Net.Within(p, netinfo.WithinOptions{DepthLimit: depth, SubnetsOffset: offset, SubnetsBatchSize: batch, BogonsOnly: bogons})
	if err != nil {
		if errors.Is(err, netinfo.ErrWithin) {
			return badRequest("The network-by-cidr request is not valid: %v.", strings.TrimPrefix(err.Error(), "netinfo: "))
		}
		return err
	}
	lang := v.resolvedLang(r)
	body := cidrBody{
		CIDR:          res.CIDR.String(),
		Network:       cidrNetworkJSON{CIDR: res.Network.CIDR.String(), Type: res.Network.Type, cidrFacts: cidrFactsOf(snap, v, res.Network.CIDR, res.Network.Network, lang), TotalSubnets: res.Network.TotalSubnets, Subnets: []cidrSubnetJSON{}},
		TotalNetworks: res.TotalNetworks,
		Truncated:     res.Truncated,
	}
	if res.Parent.IsValid() {
		body.Parent = res.Parent.String()
	}
	for _, sn := range res.Network.Subnets {
		body.Network.Subnets = append(body.Network.Subnets, cidrSubnetJSON{
			StartAddress: sn.First.String(), EndAddress: sn.Last.String(), Organisation: sn.Organisation,
			RegisteredCountry: sn.RegisteredCountry, RegisteredCountryName: netLangName(v, sn.RegisteredCountry, lang),
		})
	}
	body.Networks = cidrItems(snap, v, res.Networks, lang)
	return web.WriteJSON(w, http.StatusOK, body)
}

func cidrItems(snap *dataset.Snapshot, v *countryView, items []netinfo.CIDRItem, lang string) []cidrItemJSON {
	if len(items) == 0 {
		return nil
	}
	out := make([]cidrItemJSON, 0, len(items))
	for _, it := range items {
		out = append(out, cidrItemJSON{
			CIDR: it.CIDR.String(), Type: it.Type,
			Size: json.Number(it.Size.String()), TotalAnnounced: json.Number(it.TotalAnnounced.String()),
			BogonsCount: it.BogonsCount, DeepCount: it.DeepCount,
			Network:  cidrFactsOf(snap, v, it.CIDR, it.Network, lang),
			Networks: cidrItems(snap, v, it.Networks, lang),
		})
	}
	return out
}

// cidrFactsOf is the Network object of n, the facts of the range p.
func cidrFactsOf(snap *dataset.Snapshot, v *countryView, p netip.Prefix, n netinfo.Network, lang string) cidrFacts {
	snap.CompleteRangeRegisteredCountry(&n, p.Masked().Addr(), netinfo.LastAddr(p))
	db := snap.Net
	f := cidrFacts{
		Registry: n.Registry, RegistryStatus: n.RegistryStatus, RegisteredCountry: n.RegisteredCountry,
		RegisteredCountryName: netLangName(v, n.RegisteredCountry, lang), Organisation: n.Organisation,
		IsReachableGlobally: n.IsReachableGlobally, IsBogon: n.IsBogon,
		Carriers: []json.RawMessage{}, ViaCarriers: []json.RawMessage{},
	}
	if n.IsAnnounced() {
		f.BGPPrefix = n.BGPPrefix.String()
	}
	for _, asn := range n.Carriers {
		f.Carriers = append(f.Carriers, netAppendCarrier(nil, db, v, asn, lang, true))
	}
	for i, asn := range n.ViaCarriers {
		if i >= netinfo.MaxViaCarriers {
			break
		}
		f.ViaCarriers = append(f.ViaCarriers, netAppendCarrier(nil, db, v, asn, lang, false))
	}
	return f
}

// asnDefaultBatch is the batchSize of asn-info-transit-to (and receiving-from) when the
// parameter is absent. The spec marks batchSize required but gives no default; the
// commercial service's own MCP server (@bigdatacloudapi/mcp-server 1.1.0) describes both
// endpoints' batchSize as "default 25", so an absent batchSize means 25 rather than a 400.
const asnDefaultBatch = 25

// asnMaxBatch is the spec's hard limit on transitTo entries per call.
const asnMaxBatch = 50

// asnFromParam reads the asn parameter: missing or malformed is a 400.
func asnFromParam(r *http.Request) (uint32, error) {
	raw, ok := paramOK(r, "asn")
	if !ok || strings.TrimSpace(raw) == "" {
		return 0, badRequest("The asn parameter is required: an AS number such as 13335, AS13335 or ASN13335.")
	}
	asn, ok := parseASNParam(raw)
	if !ok {
		return 0, badRequest("The asn parameter %s is not an AS number: use 13335, AS13335 or ASN13335 (0 to 4294967295).", quoteInput(raw))
	}
	return asn, nil
}

// asnRecord finds AS asn: a private or reserved one and one the data does not know are a
// 404.
func asnRecord(db *netinfo.DB, asn uint32) (netinfo.ASInfo, error) {
	if purpose, special := netinfo.SpecialASN(asn); special {
		return netinfo.ASInfo{}, notFound("AS%d is %s: no public network has it.", asn, purpose)
	}
	info, ok := db.AS(asn)
	if !ok {
		return netinfo.ASInfo{}, notFound("No autonomous system AS%d is known to the data.", asn)
	}
	return info, nil
}

// asnInfoTransitTo answers /data/asn-info-transit-to: the AS's carrier object plus
// totalTransitTo and a page of transitTo (via-carrier objects, by rank). asn is required
// (15169, AS15169 or ASN15169; missing or malformed is a 400); an AS the data has no record
// of is a 404. batchSize is 1–50 (default asnDefaultBatch; over 50 is a 400), offset ≥ 0
// (default 0).
func (s *Server) asnInfoTransitTo(w http.ResponseWriter, r *http.Request) error {
	return s.asnInfoPaged(w, r, `,"totalTransitTo":`, `,"transitTo":`, func(a netinfo.ASInfo) []uint32 { return a.TransitTo })
}
