package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/graphql"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// gqlBody is a GraphQL request body.
func gqlBody(query string, vars map[string]any) string {
	req := map[string]any{"query": query}
	if vars != nil {
		req["variables"] = vars
	}
	b, _ := json.Marshal(req)
	return string(b)
}

// gqlDo posts body to /graphql/{pkg} with the good key (unless headers say otherwise), from
// remote (a host:port; "" keeps httptest's).
func gqlDo(t testing.TB, s *Server, pkg, body string, headers map[string]string, remote string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("POST", "/graphql/"+pkg, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if headers == nil {
		headers = map[string]string{"x-service-key": "good"}
	}
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	if remote != "" {
		r.RemoteAddr = remote
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	return rec
}

// restDo answers a REST target from remote, decoded with numbers kept as written.
func restDo(t testing.TB, s *Server, target, remote string) any {
	t.Helper()
	r := httptest.NewRequest("GET", target, nil)
	r.Header.Set("x-service-key", "good")
	if remote != "" {
		r.RemoteAddr = remote
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
	}
	return decodeNumbers(t, rec.Body.Bytes())
}

// graphqlOnly reports whether path is an answer that only GraphQL roots reach.
func graphqlOnly(path string) bool {
	switch path {
	case graphql.PathIPData, graphql.PathLocationData, graphql.PathIPv4Space, graphql.PathIPv6Space:
		return true
	}
	return false
}

// answerDo is restDo for the answers only GraphQL reaches: as the GraphQL service asks
// for them, decoded.
func answerDo(t testing.TB, s *Server, path string) any {
	t.Helper()
	rec := httptest.NewRecorder()
	if ok, err := (graphqlAnswerer{s}).serve(path, rec, httptest.NewRequest("GET", path, nil)); !ok || err != nil {
		t.Fatalf("%s: served %v, %v", path, ok, err)
	}
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", path, rec.Code, rec.Body)
	}
	return decodeNumbers(t, rec.Body.Bytes())
}

func decodeNumbers(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// gqlData posts a query and returns data.<root>, failing on any error.
func gqlData(t *testing.T, s *Server, pkg, query, root, remote string) any {
	t.Helper()
	rec := gqlDo(t, s, pkg, gqlBody(query, nil), nil, remote)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	res := decodeNumbers(t, rec.Body.Bytes()).(map[string]any)
	if res["errors"] != nil {
		t.Fatalf("errors: %s", rec.Body)
	}
	return res["data"].(map[string]any)[root]
}

// projectREST is the slow, obviously correct reference: the selection set of the query's
// only root field applied to the decoded REST answer. A member REST omits is null.
func projectREST(t *testing.T, query string, rest any) any {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatal(err)
	}
	root := doc.Operations[0].SelectionSet[0].(*ast.Field)
	var project func(ss ast.SelectionSet, v any) any
	project = func(ss ast.SelectionSet, v any) any {
		switch x := v.(type) {
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = project(ss, e)
			}
			return out
		case map[string]any:
			out := map[string]any{}
			for _, sel := range ss {
				f := sel.(*ast.Field)
				out[f.Alias] = project(f.SelectionSet, x[f.Name])
			}
			return out
		}
		return v
	}
	return project(root.SelectionSet, rest)
}

// graphqlVsREST are realistic queries, one root field each, with the REST request for the
// same input. pick selects the part of the REST answer the root field answers with.
var graphqlVsREST = []struct {
	name, pkg, query, rest, remote string
	pick                           func(any) any
}{
	{name: "ipGeolocation", pkg: "ip-geolocation",
		query: `{ ipGeolocation(ip: "81.2.69.160", localityLanguage: "de", utcReference: 1700000000) {
			ip localityLanguageRequested isReachableGlobally lastUpdated confidence
			country { isoAlpha2 isoAlpha3 m49Code name isoName isoNameFull unRegion callingCode countryFlagEmoji wikidataId geonameId isIndependent
				isoAdminLanguages { isoAlpha3 isoAlpha2 isoName nativeName } currency { numericCode code name minorUnits }
				wbRegion { id iso2Code value } wbIncomeLevel { value } continents { continent continentCode } }
			location { principalSubdivision isoPrincipalSubdivision isoPrincipalSubdivisionCode continent continentCode city localityName postcode latitude longitude plusCode country
				timeZone { ianaTimeId displayName effectiveTimeZoneFull effectiveTimeZoneShort utcOffsetSeconds utcOffset isDaylightSavingTime localTime utcTime }
				localityInfo { administrative { name description isoName order adminLevel isoCode wikidataId geonameId } informative { name description order geonameId } } }
			network { ip registry registryStatus registeredCountry registeredCountryName organisation isReachableGlobally isBogon bgpPrefix bgpPrefixNetworkAddress bgpPrefixLastAddress totalAddresses
				carriers { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses totalIpv4Prefixes totalIpv4BogonPrefixes totalIpv6Prefixes totalIpv6BogonPrefixes rank rankText }
				viaCarriers { asn asnNumeric rank } }
			confidenceArea { latitude longitude } } }`,
		rest: "/data/ip-geolocation-with-confidence?ip=81.2.69.160&localityLanguage=de&utcReference=1700000000",
		pick: withLocationCountry},
	{name: "ipData alias, IPv6, locale", pkg: "ip-geolocation",
		query: `{ ipData(ip: "2a00:1450:4001::1", locale: "ja") { ip country { name } location { continent country latitude } network { bgpPrefixNetworkAddress totalAddresses carriers { asn } } confidenceArea { latitude } } }`,
		rest:  "/data/ip-geolocation-with-confidence?ip=2a00:1450:4001::1&localityLanguage=ja", pick: withLocationCountry},
	{name: "ipGeolocation of the caller", pkg: "ip-geolocation",
		query: `{ ipGeolocation { ip location { city } network { organisation } } }`,
		rest:  "/data/ip-geolocation-with-confidence", remote: "81.2.69.160:4711", pick: withLocationCountry},
	{name: "ipGeolocation of a bogon", pkg: "ip-geolocation",
		query: `{ ipGeolocation(ip: "10.1.2.3") { ip isReachableGlobally country { name } location { city } network { isBogon bgpPrefix carriers { asn } } confidence confidenceArea { latitude } } }`,
		rest:  "/data/ip-geolocation-with-confidence?ip=10.1.2.3", pick: withLocationCountry},
	{name: "countryInfo", pkg: "ip-geolocation",
		query: `{ countryInfo(code: "IRL", localityLanguage: "ga") { isoAlpha2 isoAlpha3 m49Code name isoName isoNameFull unRegion callingCode countryFlagEmoji wikidataId geonameId isIndependent isoAdminLanguages { isoAlpha2 nativeName } currency { code name } wbRegion { value } wbIncomeLevel { id value } continents { continentCode } } }`,
		rest:  "/data/country-info?code=IRL&localityLanguage=ga"},
	{name: "countries", pkg: "ip-geolocation",
		query: `{ countries(localityLanguage: "ja") { isoAlpha2 name callingCode currency { code } } }`,
		rest:  "/data/countries?localityLanguage=ja"},
	{name: "userRisk", pkg: "ip-geolocation",
		query: `{ userRisk(ip: "185.220.101.1") { risk description } }`, rest: "/data/user-risk?ip=185.220.101.1"},
	{name: "hazardReport", pkg: "ip-geolocation",
		query: `{ hazardReport(ip: "185.220.101.1") { isKnownAsTorServer isKnownAsTorExit isKnownAsVpn isKnownAsProxy iCloudPrivateRelay isSpamhausDrop isBogon isUnreachable isHostingAsn hostingLikelihood isKnownAsDatacenter isBlocklisted blocklistCount cloudProvider hostingProvider lists } }`,
		rest:  "/data/hazard-report?ip=185.220.101.1"},
	{name: "networkByIp", pkg: "ip-geolocation",
		query: `{ networkByIp(ip: "8.8.8.8", localityLanguage: "de") { ip registry registryStatus registeredCountry registeredCountryName organisation isReachableGlobally isBogon bgpPrefix bgpPrefixNetworkAddress bgpPrefixLastAddress totalAddresses carriers { asn asnNumeric name rank rankText totalIpv4Addresses } viaCarriers { asn } } }`,
		rest:  "/data/network-by-ip?ip=8.8.8.8&localityLanguage=de"},
	{name: "timeZone", pkg: "ip-geolocation",
		query: `{ timeZone(ip: "81.2.69.160", localityLanguage: "de", utcReference: 1700000000) { ianaTimeId displayName effectiveTimeZoneFull effectiveTimeZoneShort utcOffsetSeconds utcOffset isDaylightSavingTime localTime utcTime } }`,
		rest:  "/data/ip-geolocation-with-confidence?ip=81.2.69.160&localityLanguage=de&utcReference=1700000000",
		pick:  func(v any) any { return v.(map[string]any)["location"].(map[string]any)["timeZone"] }},
	{name: "reverseGeocode", pkg: "reverse-geocoding",
		query: `{ reverseGeocode(latitude: 53.35, longitude: -6.26, localityLanguage: "de") { latitude longitude lookupSource plusCode localityLanguageRequested continent continentCode countryName countryCode principalSubdivision principalSubdivisionCode city locality postcode localityInfo { administrative { name description isoName order adminLevel isoCode wikidataId geonameId } informative { name description order geonameId } } } }`,
		rest:  "/data/reverse-geocode?latitude=53.35&longitude=-6.26&localityLanguage=de"},
	{name: "locationData alias at sea", pkg: "reverse-geocoding",
		query: `{ locationData(latitude: 0, longitude: -30, locale: "fr") { countryName city localityInfo { administrative { name } informative { name order } } } }`,
		rest:  "/data/reverse-geocode?latitude=0&longitude=-30&localityLanguage=fr"},
	{name: "phoneNumber", pkg: "phone-email",
		query: `{ phoneNumber(number: "+61 2 9374 4000", countryCode: "au", localityLanguage: "de") { isValid e164Format internationalFormat nationalFormat location lineType country { isoAlpha2 name callingCode } } }`,
		rest:  "/data/phone-number-validate?number=%2B61+2+9374+4000&countryCode=au&localityLanguage=de"},
	{name: "phoneNumber without a country", pkg: "phone-email",
		query: `{ phoneNumber(number: "+80012345678") { isValid lineType country { name } } }`,
		rest:  "/data/phone-number-validate?number=%2B80012345678"},
	{name: "networkByCidr", pkg: "network-engineering",
		query: `{ networkByCidr(cidr: "8.8.8.0/22", depthLimit: 2, subnetsBatchSize: 2, subnetsOffset: 1, localityLanguage: "de") { cidr parent totalNetworks truncated
			network { cidr type registry registryStatus registeredCountry registeredCountryName organisation isReachableGlobally isBogon bgpPrefix carriers { asn } viaCarriers { asn } totalSubnets
				subnets { startAddress endAddress organisation registeredCountry registeredCountryName } }
			networks { cidr type size totalAnnounced bogonsCount deepCount network { registry organisation isBogon bgpPrefix carriers { asn asnNumeric rank } viaCarriers { asn } } networks { cidr size } } } }`,
		rest: "/data/network-by-cidr?cidr=8.8.8.0/22&depthLimit=2&subnetsBatchSize=2&subnetsOffset=1&localityLanguage=de"},
	{name: "asnInfo", pkg: "network-engineering",
		query: `{ asnInfo(asn: "AS3356", batchSize: 5, offset: 2) { asn asnNumeric organisation name registry registeredCountry registeredCountryName registrationDate registrationLastChange totalIpv4Addresses totalIpv4Prefixes totalIpv4BogonPrefixes totalIpv6Prefixes totalIpv6BogonPrefixes rank rankText totalTransitTo transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } }`,
		rest:  "/data/asn-info-transit-to?asn=AS3356&batchSize=5&offset=2"},
	{name: "asnInfo in ip-geolocation, the SDK's root: the record without transit", pkg: "ip-geolocation",
		query: `{ asnInfo(asn: "AS13335", locale: "de") { asn asnNumeric organisation name registry registeredCountry registeredCountryName registrationDate totalIpv4Addresses totalIpv4Prefixes totalIpv6Prefixes rank rankText } }`,
		rest:  "/data/asn-info?asn=AS13335&localityLanguage=de"},
	{name: "asnInfoFull, numeric asn", pkg: "network-engineering",
		query: `{ asnInfoFull(asn: 3356, peersCap: 3, locale: "de") { asn asnNumeric organisation name registry registeredCountryName registrationLastChange totalIpv4Addresses totalIpv4Prefixes totalIpv4BogonPrefixes totalIpv6Prefixes totalIpv6BogonPrefixes rank rankText totalReceivingFrom receivingFrom { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } totalTransitTo transitTo { asn rank } } }`,
		rest:  "/data/asn-info-full?asn=3356&peersCap=3&localityLanguage=de"},
	{name: "asnInfoReceivingFrom", pkg: "network-engineering",
		query: `{ asnInfoReceivingFrom(asn: "AS7018", batchSize: 3, offset: 1, localityLanguage: "de") { asn asnNumeric organisation name registry registeredCountry registeredCountryName registrationDate totalIpv4Addresses totalIpv4Prefixes totalIpv4BogonPrefixes totalIpv6Prefixes totalIpv6BogonPrefixes rank rankText totalReceivingFrom receivingFrom { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } }`,
		rest:  "/data/asn-info-receiving-from?asn=AS7018&batchSize=3&offset=1&localityLanguage=de"},
	{name: "asnRankList", pkg: "network-engineering",
		query: `{ asnRankList(batchSize: 5, offset: 10, sort: "organisation", order: "desc") { total offset batch asns { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } }`,
		rest:  "/data/asn-rank-list?batchSize=5&offset=10&sort=organisation&order=desc"},
	{name: "prefixesList", pkg: "network-engineering",
		query: `{ prefixesList(asn: "AS15169", isv4: false, batchSize: 4, sort: "size", order: "desc") { total offset batch prefixes { bgpPrefix bgpPrefixNetworkAddress bgpPrefixLastAddress registryStatus isBogon isAnnounced carriers { asn rank rankText } } } }`,
		rest:  "/data/prefixes-list?asn=AS15169&isv4=false&batchSize=4&sort=size&order=desc"},
	{name: "torExitNodesList", pkg: "network-engineering",
		query: `{ torExitNodesList(batchSize: 6, offset: 3, localityLanguage: "ja") { total offset batch nodes { ip countryName countryCode carriers { asn organisation } } } }`,
		rest:  "/data/tor-exit-nodes-list?batchSize=6&offset=3&localityLanguage=ja"},
	{name: "phoneNumberByIp", pkg: "phone-email",
		query: `{ phoneNumberByIp(number: "(02) 9374 4000", ip: "1.128.0.1") { isValid e164Format internationalFormat nationalFormat location lineType country { isoAlpha2 name } } }`,
		rest:  "/data/phone-number-validate-by-ip?number=%2802%29+9374+4000&ip=1.128.0.1"},
	{name: "timezoneInfo, the SDK's query", pkg: "ip-geolocation",
		query: `{ timezoneInfo(timeZoneId: "Australia/Sydney", locale: "de", utcReference: 1781000000) { ianaTimeId displayName utcOffset utcOffsetSeconds isDaylightSavingTime localTime } }`,
		rest:  "/data/timezone-info?timeZoneId=Australia/Sydney&localityLanguage=de&utcReference=1781000000"},
	{name: "network alias", pkg: "network-engineering",
		query: `{ network(ip: "1.1.1.1") { ip organisation bgpPrefixLastAddress carriers { asn name } } }`,
		rest:  "/data/network-by-ip?ip=1.1.1.1"},
	{name: "reverseGeocodeClient", pkg: "free-api",
		query: `{ reverseGeocodeClient(latitude: 48.8566, longitude: 2.3522, localityLanguage: "default") { latitude longitude lookupSource localityLanguageRequested countryName city locality localityInfo { administrative { name adminLevel } } } }`,
		rest:  "/data/reverse-geocode-client?latitude=48.8566&longitude=2.3522&localityLanguage=default"},
	{name: "reverseGeocodeClient of the caller", pkg: "free-api",
		query: `{ reverseGeocodeClient { latitude longitude lookupSource countryCode city postcode localityInfo { administrative { name } informative { name } } } }`,
		rest:  "/data/reverse-geocode-client", remote: "81.2.69.160:4711"},
	{name: "amIRoaming", pkg: "free-api",
		query: `{ amIRoaming(latitude: 53.35, longitude: -6.26) { isRoaming roamingStatus description latitude longitude deviceCountryCode deviceCountryName networkCountryCode networkCountryName } }`,
		rest:  "/data/am-i-roaming?latitude=53.35&longitude=-6.26", remote: "81.2.69.160:4711"},
	{name: "userAgent", pkg: "ip-geolocation",
		query: `{ userAgent(userAgentRaw: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1") { device os userAgent family versionMajor versionMinor versionPatch isSpider isMobile userAgentDisplay } }`,
		rest:  "/data/user-agent-info?userAgentRaw=Mozilla%2F5.0+%28iPhone%3B+CPU+iPhone+OS+17_1+like+Mac+OS+X%29+AppleWebKit%2F605.1.15+%28KHTML%2C+like+Gecko%29+Version%2F17.1+Mobile%2F15E148+Safari%2F604.1"},
	{name: "userAgent by the SDKs' ua", pkg: "ip-geolocation",
		query: `{ userAgent(ua: "Googlebot/2.1 (+http://www.google.com/bot.html)") { device os family isMobile isSpider userAgentDisplay } }`,
		rest:  "/data/user-agent-info?userAgentRaw=Googlebot%2F2.1+%28%2Bhttp%3A%2F%2Fwww.google.com%2Fbot.html%29"},
	{name: "clientIp", pkg: "free-api",
		query: `{ clientIp { ipString ipType proxyIp } }`,
		rest:  "/data/client-ip", remote: "81.2.69.160:4711"},
	{name: "clientInfo", pkg: "free-api",
		query: `{ clientInfo { ipString ipNumeric ipType isBehindProxy device os userAgent family versionMajor isSpider isMobile userAgentDisplay userAgentRaw userLanguages } }`,
		rest:  "/data/client-info", remote: "81.2.69.160:4711"},
}

// withLocationCountry adds the GraphQL-only location.country to a REST geolocation
// answer: the top-level country's name, as the schema documents.
func withLocationCountry(v any) any {
	m := v.(map[string]any)
	if loc, ok := m["location"].(map[string]any); ok {
		if c, ok := m["country"].(map[string]any); ok {
			loc["country"] = c["name"]
		}
	}
	return v
}

// TestGraphQLMatchesREST is the acceptance test: for every package, realistic queries give
// the REST answer's values for the same input, with exactly the requested fields.
func TestGraphQLMatchesREST(t *testing.T) {
	s := ipRealServer(t)
	for _, tt := range graphqlVsREST {
		t.Run(tt.pkg+"/"+tt.name, func(t *testing.T) {
			doc, err := parser.ParseQuery(&ast.Source{Input: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			root := doc.Operations[0].SelectionSet[0].(*ast.Field).Name
			got := gqlData(t, s, tt.pkg, tt.query, root, tt.remote)
			rest := restDo(t, s, tt.rest, tt.remote)
			if tt.pick != nil {
				rest = tt.pick(rest)
			}
			want := projectREST(t, tt.query, rest)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GraphQL differs from REST (-REST +GraphQL):\n%s", diff)
			}
		})
	}
}

// TestGraphQLNoStore: a GraphQL response is no-store when one of its lookups' REST answers
// would be (about the caller, or with time zone fields for now), and only then.
func TestGraphQLNoStore(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		pkg, query string
		want       string
		remote     string // the caller; 81.2.69.160 when empty
	}{
		{"free-api", `{ clientIp { ipString } }`, "no-store", ""},
		{"free-api", `{ amIRoaming { roamingStatus } }`, "no-store", ""},
		{"ip-geolocation", `{ countryInfo(code: "IE") { name } ipGeolocation(ip: "81.2.69.160") { ip } }`, "no-store", ""},
		{"ip-geolocation", `{ ipGeolocation(ip: "81.2.69.160", utcReference: 1700000000) { ip } }`, "", ""},
		{"ip-geolocation", `{ countryInfo(code: "IE") { name } }`, "", ""},
		// About the caller (no ip): no-store, whether the lookup answers or is refused.
		{"network-engineering", `{ networkByIp { ip } }`, "no-store", ""},
		{"network-engineering", `{ networkByIp(ip: "8.8.8.8") { ip } }`, "", ""},
		{"ip-geolocation", `{ timeZone(utcReference: 1700000000) { ianaTimeId } }`, "no-store", "10.1.2.3:1"},
		{"ip-geolocation", `{ timeZone(ip: "10.1.2.3", utcReference: 1700000000) { ianaTimeId } }`, "", "10.1.2.3:1"},
	} {
		remote := tc.remote
		if remote == "" {
			remote = "81.2.69.160:1"
		}
		rec := gqlDo(t, s, tc.pkg, gqlBody(tc.query, nil), nil, remote)
		if got := rec.Header().Get("Cache-Control"); rec.Code != 200 || got != tc.want {
			t.Errorf("%s %s: %d, Cache-Control %q, want %q", tc.pkg, tc.query, rec.Code, got, tc.want)
		}
	}
}

// TestGraphQLTimeZoneWithoutOne: timeZone of an address without one is timezone-by-ip's
// 404 (the field null, the error saying so), not a null without a word.
func TestGraphQLTimeZoneWithoutOne(t *testing.T) {
	s := ipRealServer(t)
	rec := gqlDo(t, s, "ip-geolocation", gqlBody(`{ timeZone(ip: "10.1.2.3") { ianaTimeId } }`, nil), nil, "")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `"timeZone":null`) || !strings.Contains(body, `"status":404`) || !strings.Contains(body, "No time zone is known") {
		t.Errorf("%d %s; want the field null with the REST 404", rec.Code, body)
	}
}

// TestCountryListBounds: no country of the real data has more languages or continents than
// the GraphQL cost estimate counts for it.
func TestCountryListBounds(t *testing.T) {
	s := ipRealServer(t)
	countries := restDo(t, s, "/data/countries", "").([]any)
	for _, field := range []string{"isoAdminLanguages", "continents"} {
		bound, ok := graphql.ListBound("Country", field)
		if !ok {
			t.Fatalf("no fixed bound for Country.%s", field)
		}
		longest, code := 0, ""
		for _, c := range countries {
			c := c.(map[string]any)
			if l, _ := c[field].([]any); len(l) > longest {
				longest, code = len(l), c["isoAlpha2"].(string)
			}
		}
		if longest != bound {
			t.Errorf("Country.%s: the cost estimate counts %d, the data's longest is %d (%s)", field, bound, longest, code)
		}
	}
}

// TestGraphQLSpecExample checks the spec's example query answers in exactly the spec's shape.
func TestGraphQLSpecExample(t *testing.T) {
	s := ipRealServer(t)
	rec := gqlDo(t, s, "ip-geolocation", gqlBody(`{ ipGeolocation(ip: "81.2.69.160") { location { city country } confidence network { organisation } } }`, nil), nil, "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("status %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	rest := restDo(t, s, "/data/ip-geolocation-with-confidence?ip=81.2.69.160", "").(map[string]any)
	q := func(v any) string { b, _ := web.Marshal(v); return string(b) }
	loc, country, network := rest["location"].(map[string]any), rest["country"].(map[string]any), rest["network"].(map[string]any)
	want := fmt.Sprintf(`{"data":{"ipGeolocation":{"location":{"city":%s,"country":%s},"confidence":%s,"network":{"organisation":%s}}}}`,
		q(loc["city"]), q(country["name"]), q(rest["confidence"]), q(network["organisation"]))
	if got := rec.Body.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(want, `"city":"East Finchley","country":"United Kingdom"`) {
		t.Errorf("the example address no longer has a city and a country: %s", want)
	}
}

// TestGraphQLCallerBehindProxy checks that an omitted ip is the caller's address as the
// trusted proxy forwards it, as in REST.
func TestGraphQLCallerBehindProxy(t *testing.T) {
	snap := datasettest.Real(t)
	s := New(Options{
		Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{},
		Data: dataset.NewStatic(snap), ClientAddrs: web.ClientAddrs{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}},
	})
	rec := gqlDo(t, s, "ip-geolocation", gqlBody(`{ ipGeolocation { ip } networkByIp { ip } }`, nil),
		map[string]string{"x-service-key": "good", "X-Forwarded-For": "81.2.69.160"}, "10.1.2.3:5000")
	if want := `{"data":{"ipGeolocation":{"ip":"81.2.69.160"},"networkByIp":{"ip":"81.2.69.160"}}}`; rec.Body.String() != want {
		t.Errorf("got %s, want %s", rec.Body, want)
	}
}

func TestGraphQLHTTP(t *testing.T) {
	s := newTestServer(t) // the fixture snapshot: countries only
	long := gqlBody("{ countries { name } }"+strings.Repeat(" ", 70<<10), nil)
	tests := []struct {
		name, method, target, body string
		headers                    map[string]string
		code                       int
		contentType                string // prefix
		contains                   string
	}{
		{"ok", "POST", "/graphql/ip-geolocation", gqlBody(`{ countryInfo(code: "IE") { name } }`, nil), nil, 200, "application/json", `{"data":{"countryInfo":{"name":"Ireland"}}}`},
		{"key as parameter", "POST", "/graphql/ip-geolocation?key=good", gqlBody(`{ countryInfo(code: "IE") { name } }`, nil), map[string]string{}, 200, "application/json", `"Ireland"`},
		{"x-bdc-key", "POST", "/graphql/ip-geolocation", gqlBody(`{ countryInfo(code: "IE") { name } }`, nil), map[string]string{"x-bdc-key": "good"}, 200, "application/json", `"Ireland"`},
		{"unknown package", "POST", "/graphql/geo", gqlBody(`{ a }`, nil), nil, 404, "application/json", `There is no GraphQL package \"geo\"`},
		{"no key", "POST", "/graphql/ip-geolocation", gqlBody(`{ countries { name } }`, nil), map[string]string{}, 401, "application/json", "No API key"},
		{"wrong key", "POST", "/graphql/phone-email", gqlBody(`{ a }`, nil), map[string]string{"x-service-key": "nope"}, 401, "application/json", "not valid"},
		{"quota used up", "POST", "/graphql/network-engineering", gqlBody(`{ a }`, nil), map[string]string{"x-service-key": "spent"}, 402, "application/json", "for the network-engineering package is used up"},
		{"forbidden", "POST", "/graphql/reverse-geocoding", gqlBody(`{ a }`, nil), map[string]string{"x-service-key": "disabled"}, 403, "application/json", "no permission for the reverse-geocoding package"},
		{"malformed body", "POST", "/graphql/ip-geolocation", `{"query": "{ countries { name } }"`, nil, 400, "application/json", "not valid JSON"},
		{"not a request", "POST", "/graphql/ip-geolocation", `{"variables":{}}`, nil, 400, "application/json", "has no query"},
		{"body too large", "POST", "/graphql/ip-geolocation", long, nil, 413, "application/json", "larger than the limit"},
		{"GET is not served", "GET", "/graphql/ip-geolocation", "", nil, 405, "application/json", "use POST"},
		{"cross-package root", "POST", "/graphql/ip-geolocation", gqlBody(`{ phoneNumber(number: "+353 1 234 5678") { isValid } }`, nil), nil, 200, "application/json", "phoneNumber is served by /graphql/phone-email"},
		{"parse error", "POST", "/graphql/ip-geolocation", gqlBody(`{ countries { name }`, nil), nil, 200, "application/json", `"GRAPHQL_PARSE_FAILED"`},
		{"over cost", "POST", "/graphql/ip-geolocation", gqlBody(strings.Repeat(`{ `, 1)+aliasesOf(60, `countryInfo(code: "IE") { name }`)+` }`, nil), nil, 200, "application/json", `"COST_LIMIT_EXCEEDED"`},
		{"over depth", "POST", "/graphql/network-engineering", gqlBody(`{ networkByCidr(cidr: "8.0.0.0/8") { networks { networks { networks { networks { networks { networks { networks { network { carriers { asn } } } } } } } } } } }`, nil), nil, 200, "application/json", `"DEPTH_LIMIT_EXCEEDED"`},
		{"lookup error", "POST", "/graphql/ip-geolocation", gqlBody(`{ countryInfo(code: "XX") { name } }`, nil), nil, 200, "application/json", `"path":["countryInfo"],"extensions":{"code":"LOOKUP_FAILED","status":404}`},
		{"localityLanguage too long", "POST", "/graphql/ip-geolocation", gqlBody(`{ countryInfo(code: "IE", localityLanguage: "`+strings.Repeat("x", 36)+`") { name } }`, nil), nil, 200, "application/json", `too long (35 characters at most)`},
		{"engine missing from the snapshot", "POST", "/graphql/ip-geolocation", gqlBody(`{ userRisk(ip: "8.8.8.8") { risk } }`, nil), nil, 200, "application/json", `"status":503`},
		{"introspection", "POST", "/graphql/phone-email", gqlBody(`{ __schema { queryType { name fields { name } } } }`, nil), nil, 200, "application/json", `{"data":{"__schema":{"queryType":{"name":"Query","fields":[{"name":"phoneNumber"},{"name":"phoneNumberByIp"}]}}}}`},
		{"variables and operationName", "POST", "/graphql/ip-geolocation", `{"query":"query A { countries { isoAlpha2 } } query B($c: String!, $l: String) { countryInfo(code: $c, localityLanguage: $l) { name } }","operationName":"B","variables":{"c":"DE","l":"ja"}}`, nil, 200, "application/json", `{"data":{"countryInfo":{"name":"ドイツ"}}}`},
		{"free-api needs no key", "POST", "/graphql/free-api", gqlBody(`{ amIRoaming(latitude: 1, longitude: 2) { isRoaming } }`, nil), map[string]string{}, 200, "application/json", `"status":503`},
		{"schema", "GET", "/graphql/network-engineering/schema.graphql", "", map[string]string{}, 200, "text/plain", "type Query {"},
		{"schema of an unknown package", "GET", "/graphql/geo/schema.graphql", "", map[string]string{}, 404, "application/json", "no GraphQL package"},
		{"preflight of free-api", "OPTIONS", "/graphql/free-api", "", map[string]string{"Access-Control-Request-Headers": "content-type"}, 204, "", ""},
		{"no preflight for keyed packages", "OPTIONS", "/graphql/ip-geolocation", "", map[string]string{}, 405, "application/json", "use POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			headers := tt.headers
			if headers == nil {
				headers = map[string]string{"x-service-key": "good"}
			}
			for k, v := range headers {
				r.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, r)
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.code, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			if !strings.Contains(rec.Body.String(), tt.contains) {
				t.Errorf("body %s\ndoes not contain %s", rec.Body, tt.contains)
			}
			if tt.code != 200 && tt.code != 204 {
				var eb web.ErrorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &eb); err != nil || eb.Status != tt.code || eb.Description == "" {
					t.Errorf("not the JSON error body: %s", rec.Body)
				}
			}
			if strings.HasPrefix(tt.target, "/graphql/free-api") && rec.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Error("free-api answer without CORS")
			}
			if tt.method == "OPTIONS" && tt.code == 204 && !strings.Contains(rec.Header().Get("Access-Control-Allow-Methods"), "POST") {
				t.Errorf("preflight allows %q", rec.Header().Get("Access-Control-Allow-Methods"))
			}
		})
	}
}

func aliasesOf(n int, field string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("a%d: %s", i, field)
	}
	return strings.Join(parts, " ")
}

// countingMeter records every charge and refuses those after the first limit (0: none).
type countingMeter struct {
	mu      sync.Mutex
	limit   int
	charges []string
}

func (m *countingMeter) Charge(_ context.Context, _ account.Account, pkg string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.limit > 0 && len(m.charges) >= m.limit {
		return &quota.ExceededError{Package: pkg, Limit: int64(m.limit)}
	}
	m.charges = append(m.charges, pkg)
	return nil
}

// TestGraphQLChargesPerLookup: every root lookup counts against the package's volume, as the
// REST call would; a request with no lookup counts once; a 401 and free-api count nothing.
func TestGraphQLChargesPerLookup(t *testing.T) {
	m := &countingMeter{}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: m,
		Data: dataset.NewStatic(datasettest.Snapshot(t)), Registry: prometheus.NewRegistry()})
	gqlDo(t, s, "ip-geolocation", gqlBody(`{ a: countryInfo(code: "IE") { name } b: countryInfo(code: "DE") { name } countries { name } }`, nil), nil, "")
	gqlDo(t, s, "network-engineering", gqlBody(`{ __typename }`, nil), nil, "")
	gqlDo(t, s, "phone-email", `not json`, nil, "")                                        // charged, like a REST 400
	gqlDo(t, s, "ip-geolocation", gqlBody(`{ __typename }`, nil), map[string]string{}, "") // 401: not charged
	gqlDo(t, s, "free-api", gqlBody(`{ __typename }`, nil), map[string]string{}, "")
	want := []string{"ip-geolocation", "ip-geolocation", "ip-geolocation", "network-engineering", "phone-email"}
	if diff := cmp.Diff(want, m.charges); diff != "" {
		t.Errorf("charges (-want +got):\n%s", diff)
	}
}

// TestGraphQLRefusedFieldNotCharged: a field the REST endpoint would refuse before the key
// (a localityLanguage too long) is not charged; the fields around it are.
func TestGraphQLRefusedFieldNotCharged(t *testing.T) {
	m := &countingMeter{}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: m,
		Data: dataset.NewStatic(datasettest.Snapshot(t)), Registry: prometheus.NewRegistry()})
	rec := gqlDo(t, s, "ip-geolocation", gqlBody(`{ a: countryInfo(code: "IE") { name } b: countryInfo(code: "DE", localityLanguage: "`+strings.Repeat(" ", 34)+`de") { name } c: countryInfo(code: "JP") { name } }`, nil), nil, "")
	if !strings.Contains(rec.Body.String(), `"path":["b"],"extensions":{"code":"LOOKUP_FAILED","status":400}`) {
		t.Errorf("body %s", rec.Body)
	}
	if diff := cmp.Diff([]string{"ip-geolocation", "ip-geolocation"}, m.charges); diff != "" {
		t.Errorf("charges (-want +got):\n%s", diff)
	}
}

// TestGraphQLVolumeRunsOutMidQuery: with two units left, a query of three lookups answers the
// first two and gives the third a 402 field error; the next request is refused with 402.
func TestGraphQLVolumeRunsOutMidQuery(t *testing.T) {
	m := &countingMeter{limit: 2}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: m,
		Data: dataset.NewStatic(datasettest.Snapshot(t)), Registry: prometheus.NewRegistry()})
	q := gqlBody(`{ a: countryInfo(code: "IE") { name } b: countryInfo(code: "DE") { name } c: countryInfo(code: "JP") { name } }`, nil)
	rec := gqlDo(t, s, "ip-geolocation", q, nil, "")
	var got struct {
		Data   map[string]*struct{ Name string }
		Errors []struct {
			Message    string
			Path       []any
			Extensions struct{ Status int }
		}
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &got) != nil {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if got.Data["a"] == nil || got.Data["a"].Name != "Ireland" || got.Data["b"] == nil || got.Data["b"].Name != "Germany" || got.Data["c"] != nil {
		t.Errorf("data: %s", rec.Body)
	}
	if len(got.Errors) != 1 || got.Errors[0].Extensions.Status != 402 || len(got.Errors[0].Path) != 1 || got.Errors[0].Path[0] != "c" {
		t.Errorf("errors: %s", rec.Body)
	}
	if rec := gqlDo(t, s, "ip-geolocation", q, nil, ""); rec.Code != 402 {
		t.Errorf("next request: %d %s, want 402", rec.Code, rec.Body)
	}
}

// TestGraphQLRootsReachREST checks the wiring: every REST endpoint behind a root field has a
// handler here and is a served route, and the keyed packages are the billing packages.
func TestGraphQLRootsReachREST(t *testing.T) {
	s := newTestServer(t)
	ps, err := graphql.Packages()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range graphql.PackageNames() {
		p := ps[name]
		if p.Keyed() != slices.Contains(quota.Packages(), name) {
			t.Errorf("%s: keyed %v, but quota.Packages() is %v", name, p.Keyed(), quota.Packages())
		}
		for _, path := range p.RESTPaths() {
			if ok, _ := (graphqlAnswerer{s}).serve(path, httptest.NewRecorder(), httptest.NewRequest("GET", path, nil)); !ok {
				t.Errorf("%s: no handler for %s", name, path)
			}
			if graphqlOnly(path) {
				for _, method := range []string{"GET", "POST"} {
					if rec := do(t, s, method, path+"?ip=8.8.8.8&latitude=1&longitude=1&key=good", nil); rec.Code == 200 {
						t.Errorf("%s %s is reachable over HTTP: %s", method, path, rec.Body)
					}
				}
				continue
			}
			if _, pattern := s.mux.Handler(httptest.NewRequest("GET", path, nil)); pattern != "GET "+path {
				t.Errorf("%s: %s is not a REST route (matched %q)", name, path, pattern)
			}
		}
	}
}

func BenchmarkGraphQLIPGeolocation(b *testing.B) {
	s := ipRealServer(b)
	body := []byte(gqlBody(`{ ipGeolocation(ip: "81.2.69.160") { location { city country } confidence network { organisation } } }`, nil))
	rd := bytes.NewReader(body)
	r := httptest.NewRequest("POST", "/graphql/ip-geolocation", rd)
	r.Header.Set("x-service-key", "good")
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	serve := func() {
		rd.Reset(body)
		r.Body = io.NopCloser(rd)
		w.Body.Reset()
		s.Handler().ServeHTTP(w, r)
	}
	serve()
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"city":"East Finchley"`) {
		b.Fatalf("status %d: %s", w.Code, w.Body)
	}
	b.ReportAllocs()
	for b.Loop() {
		serve()
	}
}

// schemaSamples are REST answers that, together, show every field of every GraphQL type:
// the schema-vs-REST test walks them against the schema of the root field that answers
// with them.
var schemaSamples = []struct {
	pkg, root, rest, remote string
	pick                    func(any) any
}{
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=81.2.69.160&utcReference=1700000000"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=8.8.8.8&localityLanguage=default"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=10.1.2.3"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=2a00:1450:4001::1&localityLanguage=ja"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=185.220.101.1"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=1.1.1.1"},
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=24.1.1.1"},  // fips
	{pkg: "ip-geolocation", root: "ipGeolocation", rest: "/data/ip-geolocation-with-confidence?ip=23.16.0.1"}, // csdCode
	{pkg: "ip-geolocation", root: "timeZone", rest: "/data/ip-geolocation-with-confidence?ip=81.2.69.160&utcReference=1700000000",
		pick: func(v any) any { return v.(map[string]any)["location"].(map[string]any)["timeZone"] }},
	{pkg: "ip-geolocation", root: "countryInfo", rest: "/data/country-info?code=IE"},
	{pkg: "ip-geolocation", root: "countries", rest: "/data/countries?localityLanguage=de"},
	{pkg: "ip-geolocation", root: "userRisk", rest: "/data/user-risk?ip=8.8.8.8"},
	{pkg: "ip-geolocation", root: "userRisk", rest: "/data/user-risk?ip=10.1.2.3"},
	{pkg: "ip-geolocation", root: "hazardReport", rest: "/data/hazard-report?ip=185.220.101.1"},
	{pkg: "ip-geolocation", root: "hazardReport", rest: "/data/hazard-report?ip=8.8.8.8"},
	{pkg: "ip-geolocation", root: "networkByIp", rest: "/data/network-by-ip?ip=8.8.8.8"},
	{pkg: "ip-geolocation", root: "networkByIp", rest: "/data/network-by-ip?ip=10.1.2.3"},
	{pkg: "ip-geolocation", root: "networkByIp", rest: "/data/network-by-ip?ip=81.2.69.160"},
	{pkg: "reverse-geocoding", root: "reverseGeocode", rest: "/data/reverse-geocode?latitude=53.35&longitude=-6.26"},
	{pkg: "reverse-geocoding", root: "reverseGeocode", rest: "/data/reverse-geocode?latitude=0&longitude=-30"},
	{pkg: "reverse-geocoding", root: "reverseGeocode", rest: "/data/reverse-geocode?latitude=40.7128&longitude=-74.006&localityLanguage=default"},
	{pkg: "phone-email", root: "phoneNumber", rest: "/data/phone-number-validate?number=%2B61+2+9374+4000"},
	{pkg: "phone-email", root: "phoneNumber", rest: "/data/phone-number-validate?number=%2B80012345678"},
	{pkg: "phone-email", root: "phoneNumber", rest: "/data/phone-number-validate?number=12&countryCode=IE"},
	{pkg: "network-engineering", root: "networkByCidr", rest: "/data/network-by-cidr?cidr=8.8.8.0/22&depthLimit=2"},
	{pkg: "network-engineering", root: "networkByCidr", rest: "/data/network-by-cidr?cidr=1.0.0.0/8&depthLimit=3"},
	{pkg: "network-engineering", root: "networkByCidr", rest: "/data/network-by-cidr?cidr=10.0.0.0/8&bogonsOnly=true"},
	{pkg: "network-engineering", root: "networkByCidr", rest: "/data/network-by-cidr?cidr=8.8.8.0/24"},
	{pkg: "network-engineering", root: "asnInfo", rest: "/data/asn-info-transit-to?asn=3356&batchSize=50"},
	{pkg: "network-engineering", root: "asnInfo", rest: "/data/asn-info-transit-to?asn=15169"},
	{pkg: "network-engineering", root: "asnInfo", rest: "/data/asn-info-transit-to?asn=AS2519"},
	{pkg: "free-api", root: "reverseGeocodeClient", rest: "/data/reverse-geocode-client?latitude=53.35&longitude=-6.26"},
	{pkg: "free-api", root: "reverseGeocodeClient", rest: "/data/reverse-geocode-client", remote: "81.2.69.160:1"},
	{pkg: "free-api", root: "reverseGeocodeClient", rest: "/data/reverse-geocode-client", remote: "10.0.0.1:1"},
	{pkg: "ip-geolocation", root: "timezoneInfo", rest: "/data/timezone-info?timeZoneId=Australia/Sydney&utcReference=1781000000"},
	{pkg: "free-api", root: "amIRoaming", rest: "/data/am-i-roaming?latitude=53.35&longitude=-6.26", remote: "81.2.69.160:1"},
	{pkg: "free-api", root: "amIRoaming", rest: "/data/am-i-roaming?latitude=0&longitude=-30", remote: "10.0.0.1:1"},
	{pkg: "free-api", root: "amIRoaming", rest: "/data/am-i-roaming", remote: "81.2.69.160:1"},
	{pkg: "ip-geolocation", root: "userAgent", rest: "/data/user-agent-info?userAgentRaw=Mozilla%2F5.0+%28Windows+NT+10.0%3B+Win64%3B+x64%29+AppleWebKit%2F537.36+%28KHTML%2C+like+Gecko%29+Chrome%2F76.0.3809.132+Safari%2F537.36"},
	{pkg: "ip-geolocation", root: "userAgent", rest: "/data/user-agent-info?userAgentRaw="},
	{pkg: "free-api", root: "clientIp", rest: "/data/client-ip", remote: "81.2.69.160:1"},
	{pkg: "free-api", root: "clientInfo", rest: "/data/client-info", remote: "[2001:db8::1]:1"},
	{pkg: "network-engineering", root: "asnInfoReceivingFrom", rest: "/data/asn-info-receiving-from?asn=AS7018&batchSize=50"},
	{pkg: "network-engineering", root: "asnInfoReceivingFrom", rest: "/data/asn-info-receiving-from?asn=AS2519"},
	{pkg: "network-engineering", root: "asnRankList", rest: "/data/asn-rank-list?batchSize=20"},
	{pkg: "network-engineering", root: "prefixesList", rest: "/data/prefixes-list?asn=AS15169"},
	{pkg: "network-engineering", root: "prefixesList", rest: "/data/prefixes-list?asn=AS15169&isv4=false&bogonsOnly=true"},
	{pkg: "network-engineering", root: "torExitNodesList", rest: "/data/tor-exit-nodes-list?batchSize=50"},
	{pkg: "phone-email", root: "phoneNumberByIp", rest: "/data/phone-number-validate-by-ip?number=%2B61+2+9374+4000&ip=8.8.8.8"},
	{pkg: "network-engineering", root: "ipV4", rest: graphql.PathIPv4Space},
	{pkg: "network-engineering", root: "ipV6", rest: graphql.PathIPv6Space},
}

// neverInSamples are schema fields no sample shows, with the reason.
var neverInSamples = map[string]string{
	"Location.country":                            "GraphQL-only, computed from the answer's country",
	"Carrier.registrationLastChange":              "no loaded source has last-change dates (REST writes it only when the data has one)",
	"AsnInfo.registrationLastChange":              "as Carrier.registrationLastChange",
	"AsnInfoReceivingFrom.registrationLastChange": "as Carrier.registrationLastChange",
	"HazardReport.securityThreat":                 "under ipData only (TestGraphQLSDKQueries)",
	"HazardReport.userRisk":                       "under ipData only (TestGraphQLSDKQueries)",
	"HazardReport.isCellular":                     "always null: no source",
	"Fips.place":                                  "always null: no loaded source numbers Census places",
	"Currency.isoName":                            "GraphQL-only, the member name (TestGraphQLSDKQueries)",
	"ClientIp.proxyIp":                            "only behind a trusted proxy (TestClientIP)",
	"ClientInfo.versionMajor":                     "the samples send no User-Agent header; UserAgent's samples have them",
	"ClientInfo.versionMinor":                     "as ClientInfo.versionMajor",
	"ClientInfo.versionPatch":                     "as ClientInfo.versionMajor",
}

// sdkTypes are the types of the commercial service's SDK shapes: views over REST answers
// rather than REST objects, checked by TestGraphQLSDKQueries and TestSDKTypesFollowREST.
var sdkTypes = map[string]bool{
	"IpData": true, "IpAddress": true, "LatLng": true, "ConfidenceLevel": true, "Locality": true,
	"BgpNetwork": true, "BgpPrefix": true, "PrefixAddress": true, "LocationData": true,
	"AsnInfoFull": true, "RegisteredCountry": true,
}

// TestSDKTypesFollowREST: the SDK shapes that copy a REST type's fields keep up with it:
// BgpNetwork has Network's fields, IpData IPGeolocation's, each of the same type but for
// the fields the SDKs shape differently (AsnInfoFull adds the receivingFrom list to AsnInfo's).
func TestSDKTypesFollowREST(t *testing.T) {
	ps, err := graphql.Packages()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pkg, sdk, rest string
		reshaped       []string
	}{
		{"network-engineering", "BgpNetwork", "Network", []string{"bgpPrefix"}},
		{"ip-geolocation", "IpData", "IPGeolocation", []string{"confidence", "network"}},
		{"reverse-geocoding", "LocationData", "ReverseGeocode", []string{"locality"}},
		{"network-engineering", "AsnInfoFull", "AsnInfo", []string{"registeredCountry"}},
	} {
		schema := ps[tc.pkg].Schema()
		sdk, rest := schema.Types[tc.sdk], schema.Types[tc.rest]
		for _, f := range rest.Fields {
			g := sdk.Fields.ForName(f.Name)
			switch {
			case g == nil:
				t.Errorf("%s has no %s.%s", tc.sdk, tc.rest, f.Name)
			case g.Type.String() != f.Type.String() && !slices.Contains(tc.reshaped, f.Name):
				t.Errorf("%s.%s is %s, %s.%s %s", tc.sdk, f.Name, g.Type, tc.rest, f.Name, f.Type)
			}
		}
	}
}

// TestGraphQLSchemaMatchesREST keeps the schemas from drifting away from REST: every member of
// every sample REST answer is a field of the GraphQL type with a compatible type, every
// non-null field is always there, and every field shows up in some sample.
func TestGraphQLSchemaMatchesREST(t *testing.T) {
	s := ipRealServer(t)
	ps, err := graphql.Packages()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sm := range schemaSamples {
		var v any
		if graphqlOnly(sm.rest) {
			v = answerDo(t, s, sm.rest)
		} else {
			v = restDo(t, s, sm.rest, sm.remote)
		}
		if sm.pick != nil {
			v = sm.pick(v)
		}
		schema := ps[sm.pkg].Schema()
		f := schema.Query.Fields.ForName(sm.root)
		if f == nil {
			t.Fatalf("%s has no root %s", sm.pkg, sm.root)
		}
		checkAgainstSchema(t, schema, f.Type, v, sm.root+" ("+sm.rest+")", seen)
	}
	for _, name := range graphql.PackageNames() {
		for _, d := range ps[name].Schema().Types {
			if d.BuiltIn || d.Kind != ast.Object || d.Name == "Query" || sdkTypes[d.Name] {
				continue
			}
			for _, f := range d.Fields {
				k := d.Name + "." + f.Name
				_, excused := neverInSamples[k]
				if !seen[k] && !excused {
					t.Errorf("%s: no REST sample has %s; add a sample, or excuse it in neverInSamples", name, k)
				}
				if seen[k] && excused && k != "Location.country" {
					t.Errorf("%s is in a sample now: remove it from neverInSamples", k)
				}
			}
		}
	}
}

func checkAgainstSchema(t *testing.T, s *ast.Schema, typ *ast.Type, v any, at string, seen map[string]bool) {
	t.Helper()
	if v == nil {
		if typ.NonNull {
			t.Errorf("%s: null for the non-null %s", at, typ)
		}
		return
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			t.Errorf("%s: %T for the list %s", at, v, typ)
			return
		}
		for i, e := range list {
			checkAgainstSchema(t, s, typ.Elem, e, fmt.Sprintf("%s[%d]", at, i), seen)
		}
		return
	}
	def := s.Types[typ.NamedType]
	switch def.Kind {
	case ast.Object:
		obj, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%s: %T for the object %s", at, v, def.Name)
			return
		}
		for k, mv := range obj {
			f := def.Fields.ForName(k)
			if f == nil {
				t.Errorf("%s: REST member %s is not a field of %s", at, k, def.Name)
				continue
			}
			seen[def.Name+"."+k] = true
			checkAgainstSchema(t, s, f.Type, mv, at+"."+k, seen)
		}
		for _, f := range def.Fields {
			if _, graphqlOnly := neverInSamples[def.Name+"."+f.Name]; graphqlOnly {
				continue
			}
			if _, ok := obj[f.Name]; !ok && f.Type.NonNull {
				t.Errorf("%s: REST lacks %s, non-null in %s", at, f.Name, def.Name)
			}
		}
	case ast.Scalar:
		ok := false
		switch def.Name {
		case "String", "ID":
			_, ok = v.(string)
		case "Boolean":
			_, ok = v.(bool)
		case "Float":
			_, ok = v.(json.Number)
		case "Int":
			if n, isNum := v.(json.Number); isNum {
				i, err := n.Int64()
				ok = err == nil && i >= -1<<31 && i < 1<<31
			}
		case "BigInt":
			if n, isNum := v.(json.Number); isNum {
				ok = !strings.ContainsAny(string(n), ".eE")
			}
		}
		if !ok {
			t.Errorf("%s: %v (%T) is not a %s", at, v, v, def.Name)
		}
	default:
		t.Errorf("%s: unexpected kind %s", at, def.Kind)
	}
}

// TestGraphQLFreeAPISharesKeylessLimit: a client that used its burst on the keyless REST
// endpoints is refused on GraphQL's free-api too; the two are one allowance.
func TestGraphQLFreeAPISharesKeylessLimit(t *testing.T) {
	s := newTestServer(t)
	const remote = "198.51.100.7:1234"
	for range KeylessBurst {
		r := httptest.NewRequest("GET", "/data/am-i-roaming?latitude=1&longitude=1", nil)
		r.RemoteAddr = remote
		s.Handler().ServeHTTP(httptest.NewRecorder(), r)
	}
	rec := gqlDo(t, s, "free-api", gqlBody(`{ __typename }`, nil), map[string]string{}, remote)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("free-api after the REST burst: %d %s, want 429 with Retry-After", rec.Code, rec.Body)
	}
	if rec := gqlDo(t, s, "free-api", gqlBody(`{ __typename }`, nil), map[string]string{}, "198.51.100.8:1234"); rec.Code != 200 {
		t.Errorf("another client: %d %s", rec.Code, rec.Body)
	}
}

// gqlFieldError is an entry of a GraphQL answer's errors, as far as refusals need it.
type gqlFieldError struct {
	Extensions struct {
		Status     int `json:"status"`
		RetryAfter int `json:"retryAfter"`
	} `json:"extensions"`
}

// gqlFieldErrors decodes the errors of a GraphQL answer, which must be a 200.
func gqlFieldErrors(t *testing.T, rec *httptest.ResponseRecorder) []gqlFieldError {
	t.Helper()
	var resp struct {
		Errors []gqlFieldError `json:"errors"`
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &resp) != nil {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	return resp.Errors
}

// TestGraphQLClientInfoParseBudget: clientInfo parses the GraphQL request's own
// User-Agent under client-info's parse budget, and a string over it is a 429 field error
// with the wait REST's Retry-After would give, as extensions.retryAfter.
func TestGraphQLClientInfoParseBudget(t *testing.T) {
	s := newTestServer(t)
	s.uaBudget = parseBudget{perClient: newKeylessLimiter(1, 2, 64), all: newKeylessLimiter(5, 10, 1)}
	stopped := func() time.Duration { return 0 }
	s.uaBudget.perClient.now, s.uaBudget.all.now = stopped, stopped
	var last *httptest.ResponseRecorder
	for i := range 3 {
		last = gqlDo(t, s, "free-api", gqlBody(`{ clientInfo { device } }`, nil), map[string]string{"User-Agent": fmt.Sprintf("probe/%d", i)}, "198.51.100.7:4000")
	}
	if errs := gqlFieldErrors(t, last); len(errs) != 1 || errs[0].Extensions.Status != 429 || errs[0].Extensions.RetryAfter != 1 {
		t.Errorf("the third unseen string: %s, want one 429 error with retryAfter 1", last.Body)
	}
}

// TestGraphQLFreeAPIAliasesDrawOnLimit: every root field of a free-api request is one
// request of the keyless rate limit, as every keyed root is one unit of volume, so that
// aliases are no way around it: of KeylessBurst+5 aliased lookups in one request, those
// past the burst are refused with 429 in errors[], each with the wait REST's Retry-After
// would give (extensions.retryAfter), and the caller's next request is a 429.
func TestGraphQLFreeAPIAliasesDrawOnLimit(t *testing.T) {
	s := newTestServer(t)
	const remote = "198.51.100.9:1234"
	var q strings.Builder
	q.WriteString("{")
	for i := range KeylessBurst + 5 {
		fmt.Fprintf(&q, " a%d: amIRoaming(latitude: %d, longitude: 1) { isRoaming }", i, i)
	}
	q.WriteString(" }")
	rec := gqlDo(t, s, "free-api", gqlBody(q.String(), nil), map[string]string{}, remote)
	refused := 0
	for _, e := range gqlFieldErrors(t, rec) {
		if e.Extensions.Status == 429 {
			refused++
			if e.Extensions.RetryAfter < 1 {
				t.Errorf("a 429 field error without retryAfter: %s", rec.Body)
			}
		}
	}
	// The bucket refills at KeylessRate per second while the request runs: allow one.
	if refused < 4 || refused > 5 {
		t.Errorf("%d of %d aliased lookups refused with 429, want 5 (4 if the bucket refilled one)", refused, KeylessBurst+5)
	}
	if rec := gqlDo(t, s, "free-api", gqlBody(`{ __typename }`, nil), map[string]string{}, remote); rec.Code != 429 {
		t.Errorf("the next request: %d %s, want 429", rec.Code, rec.Body)
	}
	// The in-process recorders are pooled: a later lookup's error carries none of the
	// refusals' Retry-After, and its answer is not marked no-store by them.
	rec = gqlDo(t, s, "ip-geolocation", gqlBody(`{ countryInfo(code: "ZZ") { name } }`, nil), nil, "")
	if strings.Contains(rec.Body.String(), "retryAfter") || rec.Header().Get("Cache-Control") != "" || !strings.Contains(rec.Body.String(), `"status":404`) {
		t.Errorf("a later 404 lookup: %s %v", rec.Body, rec.Header())
	}
}
