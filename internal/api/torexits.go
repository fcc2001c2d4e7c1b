package api

import (
	"math"
	"net/http"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// torExitNodesList answers /data/tor-exit-nodes-list: {total, offset, batch, nodes}, a page
// of the addresses on the snapshot's Tor exit lists (risk.DB.TorExits) in address order,
// IPv4 before IPv6.
//
//	total   how many exit addresses the lists hold
//	offset  the offset answered (the parameter, default 0)
//	batch   the page size answered (batchSize, 1 to 1000, default 100); nodes holds fewer
//	        at the end of the list
//	nodes   {ip, countryName, countryCode, carriers}: countryCode and countryName (in
//	        localityLanguage) are where the geolocation data places the address, both
//	        omitted where it places it in no country; carriers are the origin ASes of the
//	        announced network holding it, as network-by-ip writes them ([] where none
//	        announces it)
//
// batchSize and offset out of range or malformed are 400s. It needs the risk, network and
// geolocation data (503 without).
func (s *Server) torExitNodesList(w http.ResponseWriter, r *http.Request) error {
	batch, err := intParam(r, "batchSize", listDefaultBatch, 1, listMaxBatch) // as the other lists
	if err != nil {
		return err
	}
	offset, err := intParam(r, "offset", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	v, err := s.viewWith(engineRisk | engineNet | engineIPGeo)
	if err != nil {
		return err
	}
	snap, lang := v.snap, v.resolvedLang(r)
	exits := snap.Risk.TorExits()
	page := exits[min(offset, len(exits)):]
	page = page[:min(batch, len(page))]

	bp := bufPool.Get().(*[]byte)
	b := ipInt(append((*bp)[:0], '{'), `"total":`, int64(len(exits)))
	b = ipInt(b, `,"offset":`, int64(offset))
	b = ipInt(b, `,"batch":`, int64(batch))
	b = ipKey(b, `,"nodes":[`)
	for i, a := range page {
		if i > 0 {
			b = append(b, ',')
		}
		b = ipKey(b, `{"ip":"`)
		b = append(a.AppendTo(b), '"')
		if place, ok := snap.IPGeo.Lookup(a); ok && place.Country.Code != "" {
			b = netAppendCountryName(ipKey(b, `,"countryName":`), v, place.Country.Code, lang)
			b = ipStr(b, `,"countryCode":`, place.Country.Code)
		}
		b = appendCarriers(ipKey(b, `,"carriers":`), snap.Net, v, a, lang)
		b = append(b, '}')
	}
	writeJSONPooled(w, bp, append(b, ']', '}'))
	return nil
}

// appendCarriers appends the carriers array of a's network, as network-by-ip writes it.
func appendCarriers(b []byte, db *netinfo.DB, v *countryView, a netip.Addr, lang string) []byte {
	n, _ := db.Lookup(a)
	b = append(b, '[')
	for i, asn := range n.Carriers {
		if i > 0 {
			b = append(b, ',')
		}
		b = netAppendCarrier(b, db, v, asn, lang, true)
	}
	return append(b, ']')
}
