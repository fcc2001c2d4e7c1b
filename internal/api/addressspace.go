package api

import (
	"encoding/json"
	"net/http"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/web"
)

// addressSpaceBody is the answer behind the GraphQL roots ipV4 and ipV6 (graphql.PathIPv4Space,
// PathIPv6Space): netinfo.Space in the commercial SDKs' names. Counts are JSON numbers
// (GraphQL BigInt), exact up to IPv6's 2^128.
type addressSpaceBody struct {
	// BGPDataTimestamp is the date of the announced prefixes' source (dataset.SourceBGP), as
	// lastUpdated is written; null when the snapshot does not date it.
	BGPDataTimestamp *string                `json:"bgpDataTimestamp"`
	Total            json.Number            `json:"total"`
	Announced        json.Number            `json:"announced"`
	Bogon            json.Number            `json:"bogon"`
	Distribution     []addressSpaceRegistry `json:"distribution"`
}

type addressSpaceRegistry struct {
	Name      string      `json:"name"`
	Total     json.Number `json:"total"`
	Announced json.Number `json:"announced"`
	Bogon     json.Number `json:"bogon"`
}

// addressSpace answers the address space of IPv4 (is4) or IPv6: how many addresses there
// are, how many are announced and how many are bogon, in all and per registry (the
// registry network-by-ip names for them), the largest registry first. The first answer for
// each family after a load takes a few hundred milliseconds (netinfo.DB.Space).
func (s *Server) addressSpace(w http.ResponseWriter, is4 bool) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	sp := v.snap.Net.Space(is4)
	body := addressSpaceBody{
		Total: jsonCount(sp.Total), Announced: jsonCount(sp.Announced), Bogon: jsonCount(sp.Bogon),
		Distribution: make([]addressSpaceRegistry, 0, len(sp.Registries)),
	}
	if t, ok := v.snap.SourceDate(dataset.SourceBGP); ok {
		ts := string(ipgeo.AppendUTCTime(nil, t))
		body.BGPDataTimestamp = &ts
	}
	for _, r := range sp.Registries {
		body.Distribution = append(body.Distribution, addressSpaceRegistry{
			Name: r.Registry, Total: jsonCount(r.Total), Announced: jsonCount(r.Announced), Bogon: jsonCount(r.Bogon),
		})
	}
	return web.WriteJSON(w, http.StatusOK, body)
}

// jsonCount is an address count as a JSON number, exact at any size.
func jsonCount(c netinfo.AddrCount) json.Number { return json.Number(c.String()) }
