package api

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// The queries of the commercial service's .NET SDK (its QueryBuilder, every builder of each
// root selected), which must run against ipatlas unchanged.
const (
	sdkIPDataQuery       = `{ ipData(ip: %q, locale: %q, utcReference: 1781000000) { ipAddress { ipString addressFamily } latLng { latitude longitude plusCode } confidence { value } country { isoAlpha2 name callingCode isoAlpha3 isoName isoNameFull countryFlagEmoji currency { code } wbRegion { value } wbIncomeLevel { value } } locality { city localityName principalSubdivision postcode continentCode isoPrincipalSubdivisionCode administrative { name adminLevel isoCode } } timezone { ianaTimeId utcOffset isDaylightSavingTime localTime } hazardReport { securityThreat isKnownAsTorServer isKnownAsVpn isKnownAsProxy isSpamhausDrop hostingLikelihood isCellular userRisk { risk description } } network { registryStatus isBogon bgpPrefix { cidrString firstIp { ipString } lastIp { ipString } } } } }`
	sdkLocationDataQuery = `{ locationData(latitude: %v, longitude: %v, locale: %q, utcReference: 1781000000) { latLng { latitude longitude plusCode } country { isoAlpha2 name callingCode isoAlpha3 isoName isoNameFull countryFlagEmoji currency { code } wbRegion { value } wbIncomeLevel { value } } locality { city localityName principalSubdivision postcode continentCode isoPrincipalSubdivisionCode administrative { name adminLevel isoCode } } timezone { ianaTimeId utcOffset isDaylightSavingTime localTime } } }`
	sdkNetworkQuery      = `{ network(ip: %q, locale: "en") { bgpPrefix { cidrString firstIp { ipString } lastIp { ipString } } registryStatus isBogon carriers { asn organisation registeredCountry } } }`
	sdkCountryInfoQuery  = `{ countryInfo(code: %q, locale: "en") { isoAlpha2 name isoName callingCode currency { code isoName } wbRegion { value } wbIncomeLevel { value } } }`
	sdkIPv4Query         = `{ ipV4 { bgpDataTimestamp total announced bogon distribution { name total bogon announced } } }`
	sdkASNInfoFullQuery  = `{ asnInfoFull(asn: %q, locale: %q) { asn asnNumeric organisation name registry registeredCountry { isoAlpha2 name } rank rankText totalIpv4Addresses totalIpv4Prefixes totalIpv6Prefixes totalReceivingFrom receivingFrom { asn organisation registeredCountry rank } totalTransitTo transitTo { asn organisation registeredCountry rank } confidenceArea { latitude longitude } } }`
)

// TestGraphQLSDKQueries runs the SDK's queries and checks every value against the REST
// answers of the same input, rearranged into the SDK's shape by sdkIPData and sdkNetwork (the
// slow reference): ipData against ip-geolocation-with-confidence, hazard-report and
// user-risk; network against network-by-ip; countryInfo against country-info.
func TestGraphQLSDKQueries(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct{ ip, lang string }{
		{"185.220.101.1", "en"}, // a Tor exit
		{"8.8.8.8", "en"},
		{"81.2.69.160", "de"},
		{"1.1.1.1", "en"},  // no location
		{"10.1.2.3", "en"}, // a bogon
		{"2001:4860:4860::8888", "ja"},
	} {
		t.Run(tc.ip, func(t *testing.T) {
			q := fmt.Sprintf(sdkIPDataQuery, tc.ip, tc.lang)
			got := gqlData(t, s, "ip-geolocation", q, "ipData", "")
			geo := restDo(t, s, "/data/ip-geolocation-with-confidence?utcReference=1781000000&localityLanguage="+tc.lang+"&ip="+tc.ip, "").(map[string]any)
			hazard := restDo(t, s, "/data/hazard-report?ip="+tc.ip, "").(map[string]any)
			userRisk := restDo(t, s, "/data/user-risk?ip="+tc.ip, "").(map[string]any)
			want := projectREST(t, q, sdkIPData(geo, hazard, userRisk))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ipData differs from REST (-REST +GraphQL):\n%s", diff)
			}

			q = fmt.Sprintf(sdkNetworkQuery, tc.ip)
			got = gqlData(t, s, "network-engineering", q, "network", "")
			want = projectREST(t, q, sdkNetwork(restDo(t, s, "/data/network-by-ip?ip="+tc.ip, "").(map[string]any)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("network differs from REST (-REST +GraphQL):\n%s", diff)
			}

			// The description is the level and the rule that set it.
			conf := gqlData(t, s, "ip-geolocation", fmt.Sprintf(`{ ipData(ip: %q) { confidence { value description } } }`, tc.ip), "ipData", "").(map[string]any)["confidence"].(map[string]any)
			a := netip.MustParseAddr(tc.ip)
			snap := datasettest.Real(t)
			place, _ := snap.IPGeo.Lookup(a)
			net, _ := snap.Net.Lookup(a)
			c := snap.IPGeo.Confidence(place, ipgeo.Evidence{BGPPrefix: net.BGPPrefix, SecondOpinion: net.RegisteredCountry, Unreachable: !net.IsReachableGlobally})
			wantDesc := strings.ToUpper(c.Level.String()[:1]) + c.Level.String()[1:] + ": " + c.Reason + "."
			if conf["value"] != c.Level.String() || conf["description"] != wantDesc {
				t.Errorf("confidence %v, want %q described as %q", conf, c.Level, wantDesc)
			}
		})
	}
	// locationData against reverse-geocode, country-info, and the time zone of an address
	// geolocated in the same zone (the same object for the same instant and language).
	for _, tc := range []struct {
		lat, lon float64
		lang, ip string
	}{{51.5074, -0.1278, "en", "81.2.69.160"}, {52.52, 13.405, "de", "185.220.101.1"}} {
		q := fmt.Sprintf(sdkLocationDataQuery, tc.lat, tc.lon, tc.lang)
		got := gqlData(t, s, "reverse-geocoding", q, "locationData", "")
		rg := restDo(t, s, fmt.Sprintf("/data/reverse-geocode?latitude=%v&longitude=%v&localityLanguage=%s", tc.lat, tc.lon, tc.lang), "").(map[string]any)
		rg["country"] = restDo(t, s, fmt.Sprintf("/data/country-info?code=%s&localityLanguage=%s", rg["countryCode"], tc.lang), "")
		geo := restDo(t, s, "/data/ip-geolocation-with-confidence?utcReference=1781000000&localityLanguage="+tc.lang+"&ip="+tc.ip, "").(map[string]any)
		rg["timeZone"] = geo["location"].(map[string]any)["timeZone"]
		if diff := cmp.Diff(projectREST(t, q, sdkLocationData(rg)), got); diff != "" {
			t.Errorf("locationData(%v, %v) differs from REST (-REST +GraphQL):\n%s", tc.lat, tc.lon, diff)
		}
	}
	// phoneNumber, as the SDK's Verification API asks for it.
	q := `{ phoneNumber(number: "+61412345678") { isValid e164Format internationalFormat nationalFormat lineType country { isoAlpha2 name callingCode } } }`
	if diff := cmp.Diff(projectREST(t, q, restDo(t, s, "/data/phone-number-validate?number=%2B61412345678", "")), gqlData(t, s, "phone-email", q, "phoneNumber", "")); diff != "" {
		t.Errorf("phoneNumber differs from REST (-REST +GraphQL):\n%s", diff)
	}
	// asnInfoFull against asn-info-full, registeredCountry as an object; confidenceArea has no
	// source and is null.
	for _, tc := range []struct{ asn, lang string }{{"AS3356", "de"}, {"13335", "en"}, {"AS213373", "ja"}} {
		q := fmt.Sprintf(sdkASNInfoFullQuery, tc.asn, tc.lang)
		got := gqlData(t, s, "network-engineering", q, "asnInfoFull", "")
		full := restDo(t, s, "/data/asn-info-full?asn="+tc.asn+"&localityLanguage="+tc.lang, "").(map[string]any)
		if cc, _ := full["registeredCountry"].(string); cc != "" {
			full["registeredCountry"] = map[string]any{"isoAlpha2": cc, "name": full["registeredCountryName"]}
		} else {
			full["registeredCountry"] = nil
		}
		if diff := cmp.Diff(projectREST(t, q, full), got); diff != "" {
			t.Errorf("asnInfoFull(%s) differs from REST (-REST +GraphQL):\n%s", tc.asn, diff)
		}
		if got.(map[string]any)["confidenceArea"] != nil {
			t.Errorf("asnInfoFull(%s) confidenceArea = %v, want null", tc.asn, got.(map[string]any)["confidenceArea"])
		}
	}
	// ipV4 (and ipV6, in the same shape) against the snapshot's netinfo.Space and the date
	// of the prefixes' source.
	for _, family := range []struct {
		root string
		is4  bool
	}{{"ipV4", true}, {"ipV6", false}} {
		q := strings.Replace(sdkIPv4Query, "ipV4", family.root, 1)
		got := gqlData(t, s, "network-engineering", q, family.root, "").(map[string]any)
		snap := datasettest.Real(t)
		sp := snap.Net.Space(family.is4)
		date, _ := snap.SourceDate(dataset.SourceBGP)
		want := map[string]any{
			"bgpDataTimestamp": string(ipgeo.AppendUTCTime(nil, date)),
			"total":            json.Number(sp.Total.String()),
			"announced":        json.Number(sp.Announced.String()),
			"bogon":            json.Number(sp.Bogon.String()),
		}
		var dist []any
		for _, r := range sp.Registries {
			dist = append(dist, map[string]any{"name": r.Registry, "total": json.Number(r.Total.String()), "bogon": json.Number(r.Bogon.String()), "announced": json.Number(r.Announced.String())})
		}
		want["distribution"] = dist
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s differs from netinfo.Space (-want +got):\n%s", family.root, diff)
		}
		if len(dist) < 6 || date.IsZero() {
			t.Errorf("%s: %d registries, data date %v", family.root, len(dist), date)
		}
	}
	for _, code := range []string{"DE", "JP", "AQ"} {
		q := fmt.Sprintf(sdkCountryInfoQuery, code)
		got := gqlData(t, s, "ip-geolocation", q, "countryInfo", "")
		c := restDo(t, s, "/data/country-info?code="+code, "").(map[string]any)
		if cur, ok := c["currency"].(map[string]any); ok {
			cur["isoName"] = cur["name"]
		}
		if diff := cmp.Diff(projectREST(t, q, c), got); diff != "" {
			t.Errorf("countryInfo(%s) differs from REST (-REST +GraphQL):\n%s", code, diff)
		}
	}
}

// sdkIPData rearranges decoded REST answers into ipData's shape.
func sdkIPData(geo, hazard, userRisk map[string]any) map[string]any {
	family := json.Number("4")
	if strings.Contains(geo["ip"].(string), ":") {
		family = "6"
	}
	h := map[string]any{"securityThreat": sdkThreat(hazard), "userRisk": userRisk}
	for k, v := range hazard {
		h[k] = v
	}
	doc := map[string]any{
		"ipAddress":    map[string]any{"ipString": geo["ip"], "addressFamily": family},
		"confidence":   map[string]any{"value": geo["confidence"]},
		"country":      geo["country"],
		"hazardReport": h,
		"network":      sdkNetwork(geo["network"].(map[string]any)),
	}
	if loc, ok := geo["location"].(map[string]any); ok {
		locality := map[string]any{}
		for k, v := range loc {
			locality[k] = v
		}
		info := loc["localityInfo"].(map[string]any)
		locality["administrative"], locality["informative"] = info["administrative"], info["informative"]
		doc["latLng"], doc["locality"], doc["timezone"] = loc, locality, loc["timeZone"]
	}
	return doc
}

// sdkLocationData rearranges a decoded reverse-geocode answer, with country and timeZone
// added, into locationData's shape.
func sdkLocationData(rg map[string]any) map[string]any {
	locality := map[string]any{}
	for k, v := range rg {
		locality[k] = v
	}
	locality["localityName"], locality["isoPrincipalSubdivisionCode"] = rg["locality"], rg["principalSubdivisionCode"]
	info := rg["localityInfo"].(map[string]any)
	locality["administrative"], locality["informative"] = info["administrative"], info["informative"]
	return map[string]any{"latLng": rg, "country": rg["country"], "locality": locality, "timezone": rg["timeZone"]}
}

// sdkNetwork rearranges a decoded REST network object into the SDKs' network shape.
func sdkNetwork(n map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range n {
		out[k] = v
	}
	delete(out, "bgpPrefix")
	if p, ok := n["bgpPrefix"]; ok {
		out["bgpPrefix"] = map[string]any{
			"cidrString": p,
			"firstIp":    map[string]any{"ipString": n["bgpPrefixNetworkAddress"]},
			"lastIp":     map[string]any{"ipString": n["bgpPrefixLastAddress"]},
		}
	}
	return out
}

// sdkThreat is securityThreat from the REST hazard flags, in risk.Threat's order.
func sdkThreat(h map[string]any) string {
	if n, _ := h["blocklistCount"].(json.Number).Int64(); n >= 3 && h["isKnownAsTorExit"] != true && h["isKnownAsTorServer"] != true && h["isSpamhausDrop"] != true {
		return "on public blocklists"
	}
	for _, c := range []struct{ flag, threat string }{
		{"isKnownAsTorExit", "known as a Tor exit node"},
		{"isKnownAsTorServer", "known as a Tor server"},
		{"isSpamhausDrop", "listed on Spamhaus DROP"},
		{"isBlocklisted", "on public blocklists"},
		{"isKnownAsVpn", "known as a VPN server"},
		{"isKnownAsProxy", "known as a proxy"},
	} {
		if h[c.flag] == true {
			return c.threat
		}
	}
	return "unknown"
}

// TestGraphQLSDKWithoutSections: without the risk data, ipData answers all but hazardReport
// (null); without the geolocation data, locationData all but timezone. Neither fails.
func TestGraphQLSDKWithoutSections(t *testing.T) {
	serve := func(drop func(*dataset.Snapshot)) *Server {
		snap := *datasettest.Real(t)
		drop(&snap)
		return New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{}, Data: dataset.NewStatic(&snap)})
	}
	s := serve(func(s *dataset.Snapshot) { s.Risk = nil })
	got := gqlData(t, s, "ip-geolocation", `{ ipData(ip: "8.8.8.8") { country { isoAlpha2 } hazardReport { isBogon } } }`, "ipData", "")
	if diff := cmp.Diff(map[string]any{"country": map[string]any{"isoAlpha2": "US"}, "hazardReport": nil}, got); diff != "" {
		t.Errorf("ipData without risk data (-want +got):\n%s", diff)
	}
	s = serve(func(s *dataset.Snapshot) { s.IPGeo = nil })
	got = gqlData(t, s, "reverse-geocoding", `{ locationData(latitude: 51.5074, longitude: -0.1278) { country { isoAlpha2 } timezone { ianaTimeId } } }`, "locationData", "")
	if diff := cmp.Diff(map[string]any{"country": map[string]any{"isoAlpha2": "GB"}, "timezone": nil}, got); diff != "" {
		t.Errorf("locationData without geolocation data (-want +got):\n%s", diff)
	}
}
