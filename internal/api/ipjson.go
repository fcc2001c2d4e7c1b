package api

import (
	"strconv"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/web"
)

// JSON appenders for the IP endpoints. The hot bodies (geolocation, network by IP) are
// appended into pooled buffers instead of going through encoding/json; strings are escaped
// exactly as encoding/json escapes them (HTML-safe characters aside, which web.Marshal does
// not escape either), and TestIPJSONMatchesEncodingJSON checks that.

// ipKey appends key, a member's name with its punctuation as a literal: `,"name":`, or
// `"name":` for an object's first member. Written whole, a key is one copy rather than four
// appends, and the call site shows the JSON it writes.
func ipKey(b []byte, key string) []byte { return append(b, key...) }

func ipStr(b []byte, key, v string) []byte {
	return web.AppendJSONString(append(b, key...), v)
}

// ipStrOpt appends the member only when v is not empty: the data does not have it.
func ipStrOpt(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return ipStr(b, key, v)
}

func ipInt(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(append(b, key...), v, 10)
}

func ipUint(b []byte, key string, v uint64) []byte {
	return strconv.AppendUint(append(b, key...), v, 10)
}

func ipBool(b []byte, key string, v bool) []byte {
	return strconv.AppendBool(append(b, key...), v)
}

// ipFloat appends a coordinate as encoding/json would (shortest representation).
func ipFloat(b []byte, key string, v float64) []byte {
	b = append(b, key...)
	if v == 0 {
		return append(b, '0')
	}
	return ipgeo.AppendDegrees(b, v)
}

// ipASN appends "AS15169" as a JSON string.
func ipASN(b []byte, asn uint32) []byte {
	b = append(b, '"', 'A', 'S')
	b = strconv.AppendUint(b, uint64(asn), 10)
	return append(b, '"')
}

// ipRankText appends the rank text "#53 out of 62,872", the rank grouped as the total is
// ("#16,959 out of 77,428").
func ipRankText(b []byte, rank, total int) []byte {
	b = append(b, '"', '#')
	b = ipAppendGrouped(b, uint64(rank))
	b = append(b, " out of "...)
	b = ipAppendGrouped(b, uint64(total))
	return append(b, '"')
}

// ipAppendGrouped appends n with thousands separators: 62872 -> 62,872.
func ipAppendGrouped(b []byte, n uint64) []byte {
	var tmp [32]byte
	d := strconv.AppendUint(tmp[:0], n, 10)
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}

// netLangName is a localised country name for a registered country code, "" if unknown.
// lang "default" means the country's own first administrative language.
func netLangName(v *countryView, code, lang string) string {
	if code == "" {
		return ""
	}
	c, ok := v.snap.Countries.Lookup(code)
	if !ok {
		return ""
	}
	if lang == "default" {
		lang = v.locale(v.snap.Countries.LocalLanguage(c))
	}
	return v.snap.Countries.Name(c, lang)
}

// netAppendCountryName appends netLangName(v, code, lang) as a JSON string, from the
// view's quoted names where the code is one of its countries (the same bytes, without the
// data's two map lookups per name). lang must be resolved (countryView.resolvedLang): the
// view keeps the names of every language it is asked for.
func netAppendCountryName(b []byte, v *countryView, code, lang string) []byte {
	i, ok := v.indexOf(code)
	if !ok {
		return web.AppendJSONString(b, netLangName(v, code, lang))
	}
	return v.appendName(b, i, lang)
}

// netAppendCarrier appends the carrier object of asn. full selects the carrier shape
// (registration dates and prefix counts); otherwise the via-carrier shape. An AS the data
// has no record of is only its number.
func netAppendCarrier(b []byte, db *netinfo.DB, v *countryView, asn uint32, lang string, full bool) []byte {
	b = append(b, `{"asn":`...)
	b = ipASN(b, asn)
	b = ipInt(b, `,"asnNumeric":`, int64(asn))
	info, ok := db.AS(asn)
	if !ok {
		return append(b, '}')
	}
	b = ipStr(b, `,"organisation":`, info.Organisation)
	b = ipStr(b, `,"name":`, info.Name)
	b = ipStr(b, `,"registry":`, info.Registry)
	b = ipStr(b, `,"registeredCountry":`, info.RegisteredCountry)
	b = netAppendCountryName(ipKey(b, `,"registeredCountryName":`), v, info.RegisteredCountry, lang)
	if full {
		b = ipStrOpt(b, `,"registrationDate":`, info.RegistrationDate)
		b = ipStrOpt(b, `,"registrationLastChange":`, info.RegistrationLastChange)
	}
	b = ipUint(b, `,"totalIpv4Addresses":`, info.TotalIPv4Addresses)
	if full {
		b = ipInt(b, `,"totalIpv4Prefixes":`, int64(info.TotalIPv4Prefixes))
		b = ipInt(b, `,"totalIpv4BogonPrefixes":`, int64(info.TotalIPv4BogonPrefixes))
		b = ipInt(b, `,"totalIpv6Prefixes":`, int64(info.TotalIPv6Prefixes))
		b = ipInt(b, `,"totalIpv6BogonPrefixes":`, int64(info.TotalIPv6BogonPrefixes))
	}
	if info.Rank > 0 { // unranked (no IPv4 announced): no rank to give
		b = ipInt(b, `,"rank":`, int64(info.Rank))
		b = ipRankText(ipKey(b, `,"rankText":`), info.Rank, db.RankedASes())
	}
	return append(b, '}')
}

// netAppendNetworkFields appends the Network object's members (without braces), each with a
// leading comma (ipOpenObject opens an object of them alone). Registry strings the data
// lacks are empty strings (the commercial service writes them so); the four BGP fields are
// omitted for an address that is not announced, since there is no prefix to describe.
func netAppendNetworkFields(b []byte, db *netinfo.DB, v *countryView, n netinfo.Network, lang string) []byte {
	b = ipStr(b, `,"registry":`, n.Registry)
	b = ipStr(b, `,"registryStatus":`, n.RegistryStatus)
	b = ipStr(b, `,"registeredCountry":`, n.RegisteredCountry)
	b = netAppendCountryName(ipKey(b, `,"registeredCountryName":`), v, n.RegisteredCountry, lang)
	b = ipStr(b, `,"organisation":`, n.Organisation)
	b = ipBool(b, `,"isReachableGlobally":`, n.IsReachableGlobally)
	b = ipBool(b, `,"isBogon":`, n.IsBogon)
	if n.IsAnnounced() {
		p := n.BGPPrefix
		b = ipKey(b, `,"bgpPrefix":`)
		b = append(b, '"')
		b = p.AppendTo(b)
		b = append(b, '"')
		b = ipKey(b, `,"bgpPrefixNetworkAddress":`)
		b = append(b, '"')
		b = p.Masked().Addr().AppendTo(b)
		b = append(b, '"')
		b = ipKey(b, `,"bgpPrefixLastAddress":`)
		b = append(b, '"')
		b = netinfo.LastAddr(p).AppendTo(b)
		b = append(b, '"')
		b = ipKey(b, `,"totalAddresses":`)
		b = append(b, '"')
		if n, ok := netinfo.PrefixSize(p).Uint64(); ok {
			b = strconv.AppendUint(b, n, 10)
		} else {
			b = netinfo.PrefixSize(p).AppendTo(b)
		}
		b = append(b, '"')
	}
	b = netAppendCarriers(ipKey(b, `,"carriers":`), db, v, n.Carriers, lang)
	b = ipKey(b, `,"viaCarriers":`)
	b = append(b, '[')
	for i, asn := range n.ViaCarriers {
		if i >= netinfo.MaxViaCarriers {
			break
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = netAppendCarrier(b, db, v, asn, lang, false)
	}
	return append(b, ']')
}

// netAppendCarriers appends a carriers array: each of asns as network-by-ip writes it.
func netAppendCarriers(b []byte, db *netinfo.DB, v *countryView, asns []uint32, lang string) []byte {
	b = append(b, '[')
	for i, asn := range asns {
		if i > 0 {
			b = append(b, ',')
		}
		b = netAppendCarrier(b, db, v, asn, lang, true)
	}
	return append(b, ']')
}
