package api

import (
	"net/http"
)

// torExitNodesList answers /data/tor-exit-nodes-list: {total, offset, batch, nodes}, a page
// of the addresses on the snapshot's Tor exit lists (risk.DB.TorExits) in address order,
// IPv4 before IPv6.
//
//	total   how many exit addresses the lists hold
//	offset  the offset answered (the parameter, default 0)
//	batch   the page size answered (batchSize, 1 to 1000, default 50); nodes holds fewer
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
	batch, offset, err := listPaging(r, torExitsDefaultBatch) // as the other lists
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
	b := listAppendHead((*bp)[:0], len(exits), offset, batch, `,"nodes":[`)
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
		n, _ := snap.Net.Lookup(a)
		b = netAppendCarriers(ipKey(b, `,"carriers":`), snap.Net, v, n.Carriers, lang)
		b = append(b, '}')
	}
	writeJSONPooled(w, bp, append(b, ']', '}'))
	return nil
}
