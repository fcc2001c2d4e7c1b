package api

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/quota"
)

// The commercial service's other Network Engineering endpoints (reference-api 1.7), each
// answered from the snapshot's netinfo section alone:
//
//	/data/asn-info-receiving-from  asn-info-transit-to's twin: the ASes giving the AS transit
//	/data/asn-info-full            the AS with its first 50 of both lists
//	/data/asn-rank-list            the ranked ASes, paged, in five orders
//	/data/prefixes-list            an AS's announced prefixes of one family, paged
func (s *Server) asnListRoutes() {
	s.keyed("GET /data/asn-info-receiving-from", quota.NetworkEngineering, s.asnInfoReceivingFrom)
	s.keyed("GET /data/asn-info-full", quota.NetworkEngineering, s.asnInfoFull)
	s.keyed("GET /data/asn-rank-list", quota.NetworkEngineering, s.asnRankList)
	s.keyed("GET /data/prefixes-list", quota.NetworkEngineering, s.prefixesList)
}

// listMaxBatch is the hard limit of batchSize in asn-rank-list and prefixes-list, the
// commercial service's ("max 1000").
const listMaxBatch = 1000

// The lists' batchSize when absent: the commercial service's defaults, as its own MCP server
// (@bigdatacloudapi/mcp-server 1.1.0) describes its tools' batchSize ("default 15", "default
// 25", "default 50"), so that a client that leaves it out gets the page it got there.
const (
	rankListDefaultBatch = 15
	prefixesDefaultBatch = 25
	torExitsDefaultBatch = 50
)

// asnFullCap is how many entries of each list asn-info-full gives: the commercial service's
// "50 most prominent entries".
const asnFullCap = 50

// asnInfoReceivingFrom answers /data/asn-info-receiving-from: asn-info-transit-to's answer
// with totalReceivingFrom and a page of receivingFrom (the ASes whose transit list holds
// the AS, by rank) in place of the transit. Parameters and statuses are transit-to's.
func (s *Server) asnInfoReceivingFrom(w http.ResponseWriter, r *http.Request) error {
	return s.asnInfoPaged(w, r, `,"totalReceivingFrom":`, `,"receivingFrom":`, func(a netinfo.ASInfo) []uint32 { return a.ReceivingFrom })
}

// asnInfoFull answers /data/asn-info-full: the AS's carrier object, then totalReceivingFrom
// and the first peersCap (at most 50) of receivingFrom, then totalTransitTo and the first
// of transitTo. The commercial service's confidenceArea (the AS's service area) has no
// source here and is omitted. peersCap is read as a cap on both lists, since that is what
// the name says and the only list-shaped thing the answer has: any integer from 1 to 50
// caps them; absent, 0, negative or above 50 leaves the 50 (a client of the commercial
// service sends 0 when its caller gave none); not an integer is a 400.
func (s *Server) asnInfoFull(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	asn, err := asnFromParam(r)
	if err != nil {
		return err
	}
	peers := asnFullCap
	if raw, ok := paramOK(r, "peersCap"); ok && strings.TrimSpace(raw) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if errors.Is(err, strconv.ErrRange) {
			n, err = 0, nil // a whole number too large (or small) to hold: above 50 all the same
		}
		if err != nil {
			return badRequest("The peersCap parameter must be a whole number (1 to %d caps the lists; any other leaves %d); got %s.", asnFullCap, asnFullCap, quoteInput(raw))
		}
		if 0 < n && n < asnFullCap {
			peers = n
		}
	}
	info, err := asnRecord(v.snap.Net, asn)
	if err != nil {
		return err
	}
	lang := v.resolvedLang(r)
	bp := bufPool.Get().(*[]byte)
	b := netAppendCarrier((*bp)[:0], v.snap.Net, v, asn, lang, true)
	b = b[:len(b)-1] // reopen the object
	b = asnAppendList(b, v, `,"totalReceivingFrom":`, `,"receivingFrom":`, info.ReceivingFrom, 0, peers, lang)
	b = asnAppendList(b, v, `,"totalTransitTo":`, `,"transitTo":`, info.TransitTo, 0, peers, lang)
	writeJSONPooled(w, bp, append(b, '}'))
	return nil
}

// asnInfoPaged answers an AS with one of its lists paged (batchSize 1–50, default
// asnDefaultBatch; offset ≥ 0): asn-info-transit-to and asn-info-receiving-from. Missing
// or malformed parameters are a 400, checked before the AS is looked up; a private or
// unknown AS is a 404.
func (s *Server) asnInfoPaged(w http.ResponseWriter, r *http.Request, totalKey, listKey string, list func(netinfo.ASInfo) []uint32) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	asn, err := asnFromParam(r)
	if err != nil {
		return err
	}
	batch, err := intParam(r, "batchSize", asnDefaultBatch, 1, asnMaxBatch)
	if err != nil {
		return err
	}
	offset, err := intParam(r, "offset", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	info, err := asnRecord(v.snap.Net, asn)
	if err != nil {
		return err
	}
	lang := v.resolvedLang(r)
	bp := bufPool.Get().(*[]byte)
	b := netAppendCarrier((*bp)[:0], v.snap.Net, v, asn, lang, true)
	b = b[:len(b)-1] // reopen the object
	b = asnAppendList(b, v, totalKey, listKey, list(info), offset, batch, lang)
	writeJSONPooled(w, bp, append(b, '}'))
	return nil
}

// asnAppendList appends a list's total and the page [offset, offset+batch) of it, each AS
// in the via-carrier shape.
func asnAppendList(b []byte, v *countryView, totalKey, listKey string, list []uint32, offset, batch int, lang string) []byte {
	b = ipInt(b, totalKey, int64(len(list)))
	b = append(ipKey(b, listKey), '[')
	page := list[min(offset, len(list)):]
	for i, asn := range page[:min(batch, len(page))] {
		if i > 0 {
			b = append(b, ',')
		}
		b = netAppendCarrier(b, v.snap.Net, v, asn, lang, false)
	}
	return append(b, ']')
}

// The sort keys of asn-rank-list, as the commercial service names them, each with the
// order it selects. asn and asnNumeric are the same order, by number: the string's text
// order (AS1, AS10, AS100, AS2) would serve no one.
var (
	rankSortNames = []string{"rank", "asn", "asnNumeric", "organisation", "countryCode"}
	rankSorts     = []netinfo.RankSort{netinfo.RankByRank, netinfo.RankByASN, netinfo.RankByASN, netinfo.RankByOrganisation, netinfo.RankByCountry}
	// prefixSortNames: bgpPrefix, the address order; size, the number of addresses.
	prefixSortNames = []string{"bgpPrefix", "size"}
	prefixSorts     = []netinfo.PrefixSort{netinfo.PrefixByAddress, netinfo.PrefixBySize}
	orderNames      = []string{"asc", "desc"}
)

// asnRankList answers /data/asn-rank-list: {total, offset, batch, asns[]}, the ASes that
// have a rank (announce IPv4 space), each in the via-carrier shape of transitTo entries.
// batchSize 1–1000 (default rankListDefaultBatch), offset ≥ 0, sort (rankSortNames, default
// rank), order asc or desc (default asc); anything else is a 400. batch is the batchSize
// applied, so the next page is at offset+batch; the last page holds fewer, and an offset
// past the end none.
func (s *Server) asnRankList(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	batch, offset, err := listPaging(r, rankListDefaultBatch)
	if err != nil {
		return err
	}
	sortIdx, desc, err := sortParams(r, rankSortNames)
	if err != nil {
		return err
	}
	db, lang := v.snap.Net, v.resolvedLang(r)
	bp := bufPool.Get().(*[]byte)
	b := listAppendHead((*bp)[:0], db.RankedASes(), offset, batch, `,"asns":[`)
	for i, asn := range db.RankList(rankSorts[sortIdx], desc, offset, batch) {
		if i > 0 {
			b = append(b, ',')
		}
		b = netAppendCarrier(b, db, v, asn, lang, false)
	}
	writeJSONPooled(w, bp, append(b, ']', '}'))
	return nil
}

// prefixesList answers /data/prefixes-list: {total, offset, batch, prefixes[]}, the
// announced prefixes the AS is a carrier of, in the reference's shape without an AS header
// (asn-info gives that). asn is required (404 for a private or unknown AS, as
// asn-info-transit-to); isv4 true (the default) lists IPv4 prefixes, false IPv6; bogonsOnly
// keeps the prefixes that are bogon as a whole; batchSize, offset and order as in
// asn-rank-list; sort bgpPrefix (the default; address order) or size (fewest addresses
// first, ties by address).
func (s *Server) prefixesList(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	asn, err := asnFromParam(r)
	if err != nil {
		return err
	}
	opt := netinfo.PrefixOptions{}
	if raw, ok := paramOK(r, "isv4"); ok && raw != "" { // absent: true, unlike boolParam's
		v4, err := boolParam(r, "isv4")
		if err != nil {
			return err
		}
		opt.IPv6 = !v4
	}
	if opt.BogonsOnly, err = boolParam(r, "bogonsOnly"); err != nil {
		return err
	}
	if opt.Limit, opt.Offset, err = listPaging(r, prefixesDefaultBatch); err != nil {
		return err
	}
	sortIdx, desc, err := sortParams(r, prefixSortNames)
	if err != nil {
		return err
	}
	opt.Sort, opt.Desc = prefixSorts[sortIdx], desc
	db := v.snap.Net
	if _, err := asnRecord(db, asn); err != nil {
		return err
	}
	page, total := db.ASPrefixes(asn, opt)
	lang := v.resolvedLang(r)
	bp := bufPool.Get().(*[]byte)
	b := listAppendHead((*bp)[:0], total, opt.Offset, opt.Limit, `,"prefixes":[`)
	for i, n := range page {
		if i > 0 {
			b = append(b, ',')
		}
		b = prefixAppendEntry(b, db, v, n, lang)
	}
	writeJSONPooled(w, bp, append(b, ']', '}'))
	return nil
}

// prefixAppendEntry appends one prefixes-list entry: the announced network n.
func prefixAppendEntry(b []byte, db *netinfo.DB, v *countryView, n netinfo.Network, lang string) []byte {
	p := n.BGPPrefix
	b = append(b, `{"bgpPrefix":"`...)
	b = append(p.AppendTo(b), '"')
	b = p.Masked().Addr().AppendTo(ipKey(b, `,"bgpPrefixNetworkAddress":"`))
	b = netinfo.LastAddr(p).AppendTo(ipKey(b, `","bgpPrefixLastAddress":"`))
	b = append(b, '"')
	b = ipStr(b, `,"registryStatus":`, n.RegistryStatus)
	b = ipBool(b, `,"isBogon":`, n.IsBogon)
	b = ipBool(b, `,"isAnnounced":`, n.IsAnnounced())
	b = netAppendCarriers(ipKey(b, `,"carriers":`), db, v, n.Carriers, lang)
	return append(b, '}')
}

// listPaging reads batchSize (1–listMaxBatch, default def) and offset (≥ 0).
func listPaging(r *http.Request, def int) (batch, offset int, err error) {
	if batch, err = intParam(r, "batchSize", def, 1, listMaxBatch); err != nil {
		return 0, 0, err
	}
	if offset, err = intParam(r, "offset", 0, 0, math.MaxInt32); err != nil {
		return 0, 0, err
	}
	return batch, offset, nil
}

// listAppendHead opens a paged list's body: total, offset, batch and the list's key.
func listAppendHead(b []byte, total, offset, batch int, listKey string) []byte {
	b = ipInt(append(b, '{'), `"total":`, int64(total))
	b = ipInt(b, `,"offset":`, int64(offset))
	b = ipInt(b, `,"batch":`, int64(batch))
	return ipKey(b, listKey)
}

// sortParams reads a list's sort (one of names, the first by default) and order (asc, the
// default, or desc).
func sortParams(r *http.Request, names []string) (sortIdx int, desc bool, err error) {
	if sortIdx, err = enumParam(r, "sort", names); err != nil {
		return 0, false, err
	}
	order, err := enumParam(r, "order", orderNames)
	return sortIdx, order == 1, err
}

// enumParam reads an optional parameter that takes one of values, in any case; absent or
// empty is values[0]. Anything else is a 400 listing them.
func enumParam(r *http.Request, name string, values []string) (int, error) {
	raw, ok := paramOK(r, name)
	if !ok || strings.TrimSpace(raw) == "" {
		return 0, nil
	}
	i, ok := parseEnum(raw, values)
	if !ok {
		return 0, badRequest("The %s parameter must be one of %s; got %s.", name, strings.Join(values, ", "), quoteInput(raw))
	}
	return i, nil
}

// parseEnum returns the index of s among values, compared without ASCII case and surrounding
// space, and whether it is one of them. Only ASCII letters fold: the values are ASCII, and
// Unicode folding would take the Kelvin sign for a k.
func parseEnum(s string, values []string) (int, bool) {
	s = strings.TrimSpace(s)
	for i, v := range values {
		if asciiEqualFold(s, v) {
			return i, true
		}
	}
	return 0, false
}

func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range len(s) {
		if asciiLower(s[i]) != asciiLower(t[i]) {
			return false
		}
	}
	return true
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
