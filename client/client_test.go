package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/client"
)

// rtCase is one call of the round-trip table: method names the Client method it covers.
type rtCase struct {
	name, method string
	keyless      bool
	call         func(context.Context, *client.Client) (any, error)
	fresh        func() any // a new value of the answer's type, for strict decoding
	check        func(t *testing.T, v any)
}

// rt builds an rtCase with typed call and check functions.
func rt[T any](name, method string, call func(context.Context, *client.Client) (*T, error), check func(*testing.T, *T)) rtCase {
	return rtCase{
		name: name, method: method,
		call:  func(ctx context.Context, c *client.Client) (any, error) { return call(ctx, c) },
		fresh: func() any { return new(T) },
		check: func(t *testing.T, v any) {
			if check != nil {
				check(t, v.(*T))
			}
		},
	}
}

func keylessCase(c rtCase) rtCase { c.keyless = true; return c }

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func roundTripCases() []rtCase {
	return append([]rtCase{
		rt("geolocation", "IPGeolocationWithConfidence", func(ctx context.Context, c *client.Client) (*client.Geolocation, error) {
			return c.IPGeolocationWithConfidence(ctx, client.GeolocationRequest{IP: "8.8.8.8"})
		}, func(t *testing.T, g *client.Geolocation) {
			if g.Country == nil || g.Country.ISOAlpha2 != "US" || g.Network.BGPPrefix != "8.8.8.0/24" || len(g.ConfidenceArea) == 0 || g.Location == nil || g.Location.Latitude == nil {
				t.Errorf("%+v", g)
			}
		}),
		rt("geolocation v6 utcReference", "IPGeolocationWithConfidence", func(ctx context.Context, c *client.Client) (*client.Geolocation, error) {
			return c.IPGeolocationWithConfidence(ctx, client.GeolocationRequest{IP: "2a00:1450:4001::1", LocalityLanguage: "de", UTCReference: time.Unix(1700000000, 0)})
		}, func(t *testing.T, g *client.Geolocation) {
			if g.Location == nil || g.Location.TimeZone == nil || g.Location.TimeZone.UTCTime != "2023-11-14T22:13:20.0000000Z" || g.Country.Name != "Deutschland" {
				t.Errorf("%+v", g.Location)
			}
		}),
		rt("geolocation bogon", "IPGeolocationWithConfidence", func(ctx context.Context, c *client.Client) (*client.Geolocation, error) {
			return c.IPGeolocationWithConfidence(ctx, client.GeolocationRequest{IP: "10.1.2.3"})
		}, func(t *testing.T, g *client.Geolocation) {
			if g.IsReachableGlobally || g.Country != nil || g.Location != nil || !g.Network.IsBogon || g.Confidence != "low" || g.ConfidenceArea == nil {
				t.Errorf("%+v", g)
			}
		}),
		rt("network", "NetworkByIP", func(ctx context.Context, c *client.Client) (*client.NetworkByIP, error) {
			return c.NetworkByIP(ctx, client.NetworkByIPRequest{IP: "8.8.8.8"})
		}, func(t *testing.T, n *client.NetworkByIP) {
			if n.IP != "8.8.8.8" || n.TotalAddresses != "256" || len(n.Carriers) == 0 || n.Carriers[0].ASN != "AS15169" || str(n.Carriers[0].Organisation) != "Google LLC" {
				t.Errorf("%+v", n)
			}
		}),
		rt("network v6", "NetworkByIP", func(ctx context.Context, c *client.Client) (*client.NetworkByIP, error) {
			return c.NetworkByIP(ctx, client.NetworkByIPRequest{IP: "2001:4860:4860::8888", LocalityLanguage: "ja"})
		}, nil),
		rt("cidr paged", "NetworkByCIDR", func(ctx context.Context, c *client.Client) (*client.NetworkByCIDR, error) {
			return c.NetworkByCIDR(ctx, client.NetworkByCIDRRequest{CIDR: "8.8.8.0/22", SubnetsBatchSize: 2, SubnetsOffset: 1})
		}, func(t *testing.T, n *client.NetworkByCIDR) {
			if len(n.Network.Subnets) != 2 || n.Network.TotalSubnets < 3 || len(n.Networks) == 0 || n.Networks[0].Size.Cmp(big.NewInt(256)) != 0 {
				t.Errorf("%+v", n)
			}
		}),
		rt("cidr v6 nested", "NetworkByCIDR", func(ctx context.Context, c *client.Client) (*client.NetworkByCIDR, error) {
			return c.NetworkByCIDR(ctx, client.NetworkByCIDRRequest{CIDR: "2001:4860::/32", DepthLimit: 2})
		}, func(t *testing.T, n *client.NetworkByCIDR) {
			if len(n.Networks) == 0 || n.Networks[0].Size.BitLen() < 65 { // IPv6 sizes pass 2^64
				t.Errorf("%+v", n.Networks)
			}
		}),
		rt("cidr truncated", "NetworkByCIDR", func(ctx context.Context, c *client.Client) (*client.NetworkByCIDR, error) {
			return c.NetworkByCIDR(ctx, client.NetworkByCIDRRequest{CIDR: "12.0.0.0/8"})
		}, func(t *testing.T, n *client.NetworkByCIDR) {
			if !n.Truncated || n.TotalNetworks <= len(n.Networks) {
				t.Errorf("truncated %v, %d of %d", n.Truncated, len(n.Networks), n.TotalNetworks)
			}
		}),
		rt("cidr bogons", "NetworkByCIDR", func(ctx context.Context, c *client.Client) (*client.NetworkByCIDR, error) {
			return c.NetworkByCIDR(ctx, client.NetworkByCIDRRequest{CIDR: "10.0.0.0/8", BogonsOnly: true})
		}, nil),
		rt("asn", "ASNInfoTransitTo", func(ctx context.Context, c *client.Client) (*client.ASInfo, error) {
			return c.ASNInfoTransitTo(ctx, client.ASNInfoRequest{ASN: 3356, BatchSize: 2, Offset: 1})
		}, func(t *testing.T, a *client.ASInfo) {
			if a.ASN != "AS3356" || a.Rank == 0 || len(a.TransitTo) != 2 || a.TotalTransitTo < 3 || a.TotalIPv4Prefixes == nil {
				t.Errorf("%+v", a)
			}
		}),
		rt("asn with empty names", "ASNInfoTransitTo", func(ctx context.Context, c *client.Client) (*client.ASInfo, error) {
			return c.ASNInfoTransitTo(ctx, client.ASNInfoRequest{ASN: 4674})
		}, func(t *testing.T, a *client.ASInfo) {
			if a.Organisation == nil || *a.Organisation != "" || a.Rank != 0 {
				t.Errorf("organisation %q, rank %d", str(a.Organisation), a.Rank)
			}
		}),
		rt("risk", "UserRisk", func(ctx context.Context, c *client.Client) (*client.UserRisk, error) {
			return c.UserRisk(ctx, client.IPRequest{IP: "185.220.101.1"})
		}, func(t *testing.T, r *client.UserRisk) {
			if r.Risk != "High" {
				t.Errorf("%+v", r)
			}
		}),
		rt("geolocation without confidence", "IPGeolocation", func(ctx context.Context, c *client.Client) (*client.IPGeolocation, error) {
			return c.IPGeolocation(ctx, client.GeolocationRequest{IP: "8.8.8.8", LocalityLanguage: "ja"})
		}, func(t *testing.T, g *client.IPGeolocation) {
			if g.Country == nil || g.Country.ISOAlpha2 != "US" || g.Network.BGPPrefix != "8.8.8.0/24" {
				t.Errorf("%+v", g)
			}
		}),
		rt("geolocation full", "IPGeolocationFull", func(ctx context.Context, c *client.Client) (*client.GeolocationFull, error) {
			return c.IPGeolocationFull(ctx, client.GeolocationRequest{IP: "185.220.101.1", UTCReference: time.Unix(1700000000, 0)})
		}, func(t *testing.T, g *client.GeolocationFull) {
			if g.SecurityThreat != "known as a Tor exit node" || !g.HazardReport.IsKnownAsTorServer || g.Confidence == "" || g.Country == nil {
				t.Errorf("%+v", g)
			}
		}),
		rt("country by ip", "CountryByIP", func(ctx context.Context, c *client.Client) (*client.CountryByIP, error) {
			return c.CountryByIP(ctx, client.NetworkByIPRequest{IP: "81.2.69.160", LocalityLanguage: "de"})
		}, func(t *testing.T, g *client.CountryByIP) {
			if g.Country == nil || g.Country.Name != "Vereinigtes Königreich" || !g.IsReachableGlobally {
				t.Errorf("%+v", g)
			}
		}),
		rt("country by ip bogon", "CountryByIP", func(ctx context.Context, c *client.Client) (*client.CountryByIP, error) {
			return c.CountryByIP(ctx, client.NetworkByIPRequest{IP: "10.1.2.3"})
		}, func(t *testing.T, g *client.CountryByIP) {
			if g.Country != nil || g.IsReachableGlobally {
				t.Errorf("%+v", g)
			}
		}),
		rt("asn receiving from", "ASNInfoReceivingFrom", func(ctx context.Context, c *client.Client) (*client.ASInfoReceivingFrom, error) {
			return c.ASNInfoReceivingFrom(ctx, client.ASNInfoRequest{ASN: 2914, BatchSize: 2, LocalityLanguage: "de"})
		}, func(t *testing.T, a *client.ASInfoReceivingFrom) {
			if a.ASN != "AS2914" || a.TotalReceivingFrom == 0 || len(a.ReceivingFrom) == 0 || len(a.ReceivingFrom) > 2 {
				t.Errorf("%+v", a)
			}
		}),
		rt("asn full", "ASNInfoFull", func(ctx context.Context, c *client.Client) (*client.ASInfoFull, error) {
			return c.ASNInfoFull(ctx, client.ASNInfoFullRequest{ASN: 3356, PeersCap: 5})
		}, func(t *testing.T, a *client.ASInfoFull) {
			if a.ASN != "AS3356" || a.TotalTransitTo == 0 || len(a.TransitTo) != min(5, a.TotalTransitTo) || len(a.ReceivingFrom) > 5 {
				t.Errorf("%+v", a)
			}
		}),
		rt("asn rank list", "ASNRankList", func(ctx context.Context, c *client.Client) (*client.ASNRankList, error) {
			return c.ASNRankList(ctx, client.ASNRankListRequest{BatchSize: 3, Offset: 1, Sort: "countryCode", Order: "desc"})
		}, func(t *testing.T, l *client.ASNRankList) {
			if l.Total < 1000 || l.Offset != 1 || l.Batch != 3 || len(l.ASNs) != 3 || l.ASNs[0].Rank == 0 {
				t.Errorf("%+v", l)
			}
		}),
		rt("prefixes list", "PrefixesList", func(ctx context.Context, c *client.Client) (*client.PrefixesList, error) {
			return c.PrefixesList(ctx, client.PrefixesListRequest{ASN: 15169, IPv6: true, BatchSize: 4, Sort: "size"})
		}, func(t *testing.T, l *client.PrefixesList) {
			if l.Total == 0 || len(l.Prefixes) != min(4, l.Total) || !l.Prefixes[0].IsAnnounced || len(l.Prefixes[0].Carriers) == 0 || !strings.Contains(l.Prefixes[0].BGPPrefix, ":") {
				t.Errorf("%+v", l)
			}
		}),
		rt("asn short", "ASNInfo", func(ctx context.Context, c *client.Client) (*client.Carrier, error) {
			return c.ASNInfo(ctx, client.ASNInfoRequest{ASN: 13335})
		}, func(t *testing.T, a *client.Carrier) {
			if a.ASN != "AS13335" || str(a.Organisation) != "Cloudflare, Inc." {
				t.Errorf("%+v", a)
			}
		}),
		rt("reverse with time zone", "ReverseGeocodeWithTimezone", func(ctx context.Context, c *client.Client) (*client.ReverseGeocodeWithTimezone, error) {
			return c.ReverseGeocodeWithTimezone(ctx, client.TimeZoneByLocationRequest{Latitude: 53.35, Longitude: -6.26, UTCReference: time.Unix(1700000000, 0)})
		}, func(t *testing.T, g *client.ReverseGeocodeWithTimezone) {
			if g.CountryCode != "IE" || g.TimeZone == nil || g.TimeZone.IANATimeID != "Europe/Dublin" || g.TimeZone.IsDaylightSavingTime || g.TimeZone.UTCTime == "" {
				t.Errorf("%+v", g)
			}
		}),
		rt("time zone by id", "TimeZoneInfo", func(ctx context.Context, c *client.Client) (*client.TimeZone, error) {
			return c.TimeZoneInfo(ctx, client.TimeZoneInfoRequest{TimeZoneID: "Australia/Sydney", UTCReference: time.Unix(1700000000, 0)})
		}, func(t *testing.T, z *client.TimeZone) {
			if z.IANATimeID != "Australia/Sydney" || z.UTCOffsetSeconds != 39600 || z.UTCTime != "2023-11-14T22:13:20.0000000Z" {
				t.Errorf("%+v", z)
			}
		}),
		rt("time zone by ip", "TimeZoneByIP", func(ctx context.Context, c *client.Client) (*client.TimeZone, error) {
			return c.TimeZoneByIP(ctx, client.TimeZoneByIPRequest{IP: "81.2.69.160", LocalityLanguage: "de"})
		}, func(t *testing.T, z *client.TimeZone) {
			if z.IANATimeID != "Europe/London" || z.UTCTime != "" {
				t.Errorf("%+v", z)
			}
		}),
		rt("time zone by location", "TimeZoneByLocation", func(ctx context.Context, c *client.Client) (*client.TimeZone, error) {
			return c.TimeZoneByLocation(ctx, client.TimeZoneByLocationRequest{Latitude: 35.68, Longitude: 139.77, LocalityLanguage: "ja"})
		}, func(t *testing.T, z *client.TimeZone) {
			if z.IANATimeID != "Asia/Tokyo" || z.UTCOffsetSeconds != 32400 {
				t.Errorf("%+v", z)
			}
		}),
		rt("hazards", "HazardReport", func(ctx context.Context, c *client.Client) (*client.HazardReport, error) {
			return c.HazardReport(ctx, client.IPRequest{IP: "185.220.101.1"})
		}, func(t *testing.T, h *client.HazardReport) {
			if !h.IsKnownAsTorExit || len(h.Lists) == 0 {
				t.Errorf("%+v", h)
			}
		}),
		rt("phone", "PhoneNumberValidate", func(ctx context.Context, c *client.Client) (*client.PhoneValidation, error) {
			return c.PhoneNumberValidate(ctx, client.PhoneRequest{Number: "(02) 9374 4000", CountryCode: "AU"})
		}, func(t *testing.T, p *client.PhoneValidation) {
			if !p.IsValid || p.E164Format != "+61293744000" || p.Country == nil || p.Country.ISOAlpha2 != "AU" {
				t.Errorf("%+v", p)
			}
		}),
		rt("phone of no country", "PhoneNumberValidate", func(ctx context.Context, c *client.Client) (*client.PhoneValidation, error) {
			return c.PhoneNumberValidate(ctx, client.PhoneRequest{Number: "+800 1234 5678"})
		}, func(t *testing.T, p *client.PhoneValidation) {
			if p.Country != nil || p.LineType != "TOLL_FREE" {
				t.Errorf("%+v", p)
			}
		}),
		rt("country", "CountryInfo", func(ctx context.Context, c *client.Client) (*client.Country, error) {
			return c.CountryInfo(ctx, client.CountryInfoRequest{Code: "IRL", LocalityLanguage: "ga"})
		}, func(t *testing.T, co *client.Country) {
			if co.ISOAlpha2 != "IE" || co.Name != "Éire" || co.Currency == nil || co.Currency.Code != "EUR" {
				t.Errorf("%+v", co)
			}
		}),
		rt("country without currency", "CountryInfo", func(ctx context.Context, c *client.Client) (*client.Country, error) {
			return c.CountryInfo(ctx, client.CountryInfoRequest{Code: "AQ"})
		}, func(t *testing.T, co *client.Country) {
			if co.Currency != nil || co.WBRegion != nil {
				t.Errorf("%+v", co)
			}
		}),
		rt("countries", "Countries", func(ctx context.Context, c *client.Client) (*[]client.Country, error) {
			cs, err := c.Countries(ctx, client.CountriesRequest{LocalityLanguage: "default"})
			return &cs, err
		}, func(t *testing.T, cs *[]client.Country) {
			if len(*cs) < 240 {
				t.Errorf("%d countries", len(*cs))
			}
		}),
		rt("reverse", "ReverseGeocode", func(ctx context.Context, c *client.Client) (*client.ReverseGeocode, error) {
			return c.ReverseGeocode(ctx, client.ReverseGeocodeRequest{Latitude: 48.8584, Longitude: 2.2945})
		}, func(t *testing.T, r *client.ReverseGeocode) {
			if r.CountryCode != "FR" || r.City != "Paris" || len(r.LocalityInfo.Administrative) == 0 {
				t.Errorf("%+v", r)
			}
		}),
		rt("reverse at sea", "ReverseGeocode", func(ctx context.Context, c *client.Client) (*client.ReverseGeocode, error) {
			return c.ReverseGeocode(ctx, client.ReverseGeocodeRequest{Latitude: 0, Longitude: -30})
		}, func(t *testing.T, r *client.ReverseGeocode) {
			if r.CountryCode != "" || r.LocalityInfo.Administrative == nil || len(r.LocalityInfo.Administrative) != 0 { // empty, not absent
				t.Errorf("%+v", r)
			}
		}),
		keylessCase(rt("reverse client", "ReverseGeocodeClient", func(ctx context.Context, c *client.Client) (*client.ReverseGeocode, error) {
			return c.ReverseGeocodeClient(ctx, client.ReverseGeocodeClientRequest{Position: &client.Point{Latitude: 51.5074, Longitude: -0.1278}})
		}, func(t *testing.T, r *client.ReverseGeocode) {
			if r.CountryCode != "GB" || r.LookupSource != "coordinates" {
				t.Errorf("%+v", r)
			}
		})),
		keylessCase(rt("reverse client by address", "ReverseGeocodeClient", func(ctx context.Context, c *client.Client) (*client.ReverseGeocode, error) {
			return c.ReverseGeocodeClient(ctx, client.ReverseGeocodeClientRequest{})
		}, func(t *testing.T, r *client.ReverseGeocode) {
			if r.LookupSource != "ipGeolocation" { // the test client is on loopback, which no data places
				t.Errorf("%+v", r)
			}
		})),
		keylessCase(rt("roaming", "AmIRoaming", func(ctx context.Context, c *client.Client) (*client.AmIRoaming, error) {
			return c.AmIRoaming(ctx, client.AmIRoamingRequest{Position: &client.Point{Latitude: 48.8566, Longitude: 2.3522}})
		}, func(t *testing.T, r *client.AmIRoaming) {
			if r.RoamingStatus != "unknown" || r.DeviceCountryCode != "FR" {
				t.Errorf("%+v", r)
			}
		})),
		keylessCase(rt("roaming without a position", "AmIRoaming", func(ctx context.Context, c *client.Client) (*client.AmIRoaming, error) {
			return c.AmIRoaming(ctx, client.AmIRoamingRequest{})
		}, func(t *testing.T, r *client.AmIRoaming) {
			if r.RoamingStatus != "unknown" || r.DeviceCountryCode != "" || r.Latitude != nil {
				t.Errorf("%+v", r)
			}
		})),
		rt("graphql", "GraphQL", func(ctx context.Context, c *client.Client) (*client.GraphQLResponse, error) {
			return c.GraphQL(ctx, client.PackageIPGeolocation, client.GraphQLRequest{
				Query:     `query Geo($ip: String) { ipGeolocation(ip: $ip) { confidence country { isoAlpha2 } network { carriers { asn } } } }`,
				Variables: map[string]any{"ip": "8.8.8.8"},
			})
		}, func(t *testing.T, r *client.GraphQLResponse) {
			var data struct {
				IPGeolocation struct {
					Country struct{ ISOAlpha2 string }
				}
			}
			if len(r.Errors) != 0 || json.Unmarshal(r.Data, &data) != nil || data.IPGeolocation.Country.ISOAlpha2 != "US" {
				t.Errorf("errors %+v, data %s", r.Errors, r.Data)
			}
		}),
		rt("graphql lookup error", "GraphQL", func(ctx context.Context, c *client.Client) (*client.GraphQLResponse, error) {
			return c.GraphQL(ctx, client.PackageIPGeolocation, client.GraphQLRequest{Query: `{ ipGeolocation(ip: "999.1.1.1") { confidence } }`})
		}, func(t *testing.T, r *client.GraphQLResponse) {
			if len(r.Errors) != 1 || r.Errors[0].Extensions.Status != 405 || len(r.Errors[0].Path) != 1 {
				t.Errorf("%+v", r.Errors)
			}
		}),
		rt("graphql syntax error", "GraphQL", func(ctx context.Context, c *client.Client) (*client.GraphQLResponse, error) {
			return c.GraphQL(ctx, client.PackageNetworkEngineering, client.GraphQLRequest{Query: `{ asnInfoTransitTo(`})
		}, func(t *testing.T, r *client.GraphQLResponse) {
			if len(r.Errors) == 0 || r.Data != nil || len(r.Errors[0].Locations) == 0 {
				t.Errorf("%+v %s", r.Errors, r.Data)
			}
		}),
		keylessCase(rt("graphql free", "GraphQL", func(ctx context.Context, c *client.Client) (*client.GraphQLResponse, error) {
			return c.GraphQL(ctx, client.PackageFreeAPI, client.GraphQLRequest{Query: `{ amIRoaming(latitude: 48.85, longitude: 2.35) { deviceCountryCode } }`})
		}, func(t *testing.T, r *client.GraphQLResponse) {
			if len(r.Errors) != 0 || !strings.Contains(string(r.Data), `"FR"`) {
				t.Errorf("%+v %s", r.Errors, r.Data)
			}
		})),
		keylessCase(rt("sources", "Sources", func(ctx context.Context, c *client.Client) (*client.Sources, error) {
			return c.Sources(ctx)
		}, func(t *testing.T, s *client.Sources) {
			if len(s.Sources) == 0 || s.BuildTime.IsZero() {
				t.Errorf("%+v", s)
			}
		})),
		keylessCase(rt("health", "Health", func(ctx context.Context, c *client.Client) (*client.Health, error) {
			return c.Health(ctx)
		}, func(t *testing.T, h *client.Health) {
			if h.Status != "ok" {
				t.Errorf("%+v", h)
			}
		})),
		keylessCase(rt("ready", "Ready", func(ctx context.Context, c *client.Client) (*client.Ready, error) {
			return c.Ready(ctx)
		}, func(t *testing.T, r *client.Ready) {
			if r.Status != "ready" || r.LoadedAt.IsZero() {
				t.Errorf("%+v", r)
			}
		})),
	}, clientRoundTripCases()...)
}

// TestRoundTrip calls every endpoint on the real data and checks that the client sent the
// key the right way, decoded sensible values, and that its types lose nothing: encoding
// the decoded answer gives back the JSON the server sent.
func TestRoundTrip(t *testing.T) {
	ts := realServer(t)
	rec := &recorder{}
	c, err := client.New(ts.URL, testKey, client.WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, tc := range roundTripCases() {
		t.Run(tc.name, func(t *testing.T) {
			covered[tc.method] = true
			v, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, v)
			req, body := rec.last()
			if got := req.Header.Get("x-service-key"); (got == testKey) == tc.keyless {
				t.Errorf("x-service-key %q on a keyless=%v endpoint", got, tc.keyless)
			}
			if strings.Contains(req.URL.RawQuery, "key=") {
				t.Errorf("the key is in the URL: %s", req.URL)
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(decodeAny(t, body), decodeAny(t, again), numbersByValue); diff != "" {
				t.Errorf("encoding the decoded answer changes it (-server +client):\n%s", diff)
			}
		})
	}
	for _, name := range endpointMethods() {
		if !covered[name] {
			t.Errorf("Client.%s has no round-trip case", name)
		}
	}
}

// TestStrictDecoding: every answer decodes into its type with unknown fields refused, so
// the types name every field the service sends.
func TestStrictDecoding(t *testing.T) {
	ts := realServer(t)
	rec := &recorder{}
	c, err := client.New(ts.URL, testKey, client.WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range roundTripCases() {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.call(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			_, body := rec.last()
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(tc.fresh()); err != nil {
				t.Errorf("%T lacks a field the service sends: %v", tc.fresh(), err)
			}
		})
	}
}

// endpointMethods lists the Client's exported methods.
func endpointMethods() []string {
	var out []string
	typ := reflect.TypeFor[*client.Client]()
	for i := range typ.NumMethod() {
		out = append(out, typ.Method(i).Name)
	}
	return out
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return v
}

// numbersByValue compares JSON numbers as numbers: 1.50 and 1.5 are the same answer.
var numbersByValue = cmp.Comparer(func(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
})

func TestErrors(t *testing.T) {
	ts := realServer(t)
	ctx := context.Background()
	good, _ := client.New(ts.URL, testKey)
	wrong, _ := client.New(ts.URL, "ipa_WRONG")
	none, _ := client.New(ts.URL, "")
	tests := []struct {
		name   string
		call   func() error
		status int
	}{
		{"wrong key", func() error { _, err := wrong.Countries(ctx, client.CountriesRequest{}); return err }, 401},
		{"no key", func() error { _, err := none.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); return err }, 401},
		{"unknown country", func() error { _, err := good.CountryInfo(ctx, client.CountryInfoRequest{Code: "XX"}); return err }, 404},
		{"unknown AS", func() error { _, err := good.ASNInfoTransitTo(ctx, client.ASNInfoRequest{ASN: 65535}); return err }, 404},
		{"unknown AS prefixes", func() error {
			_, err := good.PrefixesList(ctx, client.PrefixesListRequest{ASN: 4199999999})
			return err
		}, 404},
		{"bad rank sort", func() error { _, err := good.ASNRankList(ctx, client.ASNRankListRequest{Sort: "size"}); return err }, 400},
		{"invalid IP", func() error {
			_, err := good.IPGeolocationWithConfidence(ctx, client.GeolocationRequest{IP: "999.1.1.1"})
			return err
		}, 405},
		{"batch over the limit", func() error {
			_, err := good.NetworkByCIDR(ctx, client.NetworkByCIDRRequest{CIDR: "8.8.8.0/22", SubnetsBatchSize: 21})
			return err
		}, 400},
		{"missing parameter", func() error { _, err := good.PhoneNumberValidate(ctx, client.PhoneRequest{}); return err }, 400},
		{"unknown GraphQL package", func() error {
			_, err := good.GraphQL(ctx, "nope", client.GraphQLRequest{Query: "{ __typename }"})
			return err
		}, 404},
		{"GraphQL without a key", func() error {
			_, err := none.GraphQL(ctx, client.PackagePhoneEmail, client.GraphQLRequest{Query: "{ __typename }"})
			return err
		}, 401},
		{"coordinates out of range", func() error { // 401, as the commercial service answers
			_, err := none.AmIRoaming(ctx, client.AmIRoamingRequest{Position: &client.Point{Latitude: 91}})
			return err
		}, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var e *client.Error
			if !errors.As(err, &e) || e.Status != tt.status || e.Description == "" {
				t.Fatalf("got %v, want an *Error with status %d", err, tt.status)
			}
			if !client.IsStatus(err, tt.status) || !strings.Contains(err.Error(), strconv.Itoa(tt.status)) {
				t.Errorf("Error() = %q", err)
			}
		})
	}
}

// TestGraphQLRetryAfter: a GraphQL field refused with a wait decodes with the seconds it
// asks for.
func TestGraphQLRetryAfter(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"errors":[{"message":"Too many requests","path":["b"],"extensions":{"code":"LOOKUP_FAILED","status":429,"retryAfter":2}}],"data":{"a":{"ipString":"127.0.0.1"},"b":null}}`)
	}))
	defer ts.Close()
	c, _ := client.New(ts.URL, testKey)
	r, err := c.GraphQL(context.Background(), client.PackageFreeAPI, client.GraphQLRequest{Query: "{ a: clientIp { ipString } b: clientIp { ipString } }"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) != 1 || r.Errors[0].Extensions.Status != 429 || r.Errors[0].Extensions.RetryAfterSeconds != 2 {
		t.Errorf("errors %+v", r.Errors)
	}
}

// TestErrorFromAProxy: an answer that is not the service's error body keeps its status
// and text.
func TestErrorFromAProxy(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream unavailable", http.StatusBadGateway)
	}))
	defer ts.Close()
	c, _ := client.New(ts.URL, testKey)
	_, err := c.Health(context.Background())
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 502 || e.Description != "upstream unavailable" {
		t.Fatalf("got %#v", err)
	}
}

// A proxy's error passes on a body that names another status, and asks for a wait: the
// error's status is the response's, and the wait is kept.
func TestErrorStatusIsTheResponses(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"status":404,"description":"No valid entry was found."}`)
	}))
	defer ts.Close()
	c, _ := client.New(ts.URL, testKey)
	_, err := c.Health(context.Background())
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 503 || e.Description != "No valid entry was found." || e.RetryAfter != 7*time.Second {
		t.Fatalf("got %#v", err)
	}
}

// A redirect to another host or from https to http does not take the key along; one on the
// same host does, and the caller's own redirect policy still applies.
func TestKeyStaysOnTheServersHost(t *testing.T) {
	var got sync.Map // path → key received
	record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.URL.Path, r.Header.Get("x-service-key"))
		io.WriteString(w, `{"isoAlpha2":"IE"}`)
	})
	var homeURL string // a detour through elsewhere comes back home under /home/back/
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/detour"); ok {
			http.Redirect(w, r, homeURL+"/home/back"+rest, http.StatusFound)
			return
		}
		record(w, r)
	}))
	defer elsewhere.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/away/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/sink"+r.URL.Path, http.StatusFound)
	})
	mux.HandleFunc("/here/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home"+r.URL.Path, http.StatusFound)
	})
	mux.HandleFunc("/bounce/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/detour"+r.URL.Path, http.StatusFound)
	})
	mux.Handle("/home/", record)
	home := httptest.NewServer(mux)
	defer home.Close()
	homeURL = home.URL
	ctx := context.Background()

	away, _ := client.New(home.URL+"/away", testKey)
	if _, err := away.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); err != nil {
		t.Fatal(err)
	}
	if k, ok := got.Load("/sink/away/data/country-info"); !ok || k != "" {
		t.Errorf("another host received key %q (reached: %v)", k, ok)
	}
	here, _ := client.New(home.URL+"/here", testKey)
	if _, err := here.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); err != nil {
		t.Fatal(err)
	}
	if k, _ := got.Load("/home/here/data/country-info"); k != testKey {
		t.Errorf("the same host received key %q", k)
	}
	// Back home by way of another host, which chose where: no key either.
	bounce, _ := client.New(home.URL+"/bounce", testKey)
	if _, err := bounce.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); err != nil {
		t.Fatal(err)
	}
	if k, ok := got.Load("/home/back/bounce/data/country-info"); !ok || k != "" {
		t.Errorf("a redirect back home through another host sent key %q (reached: %v)", k, ok)
	}

	// https to http on the same host: a transport that redirects to http and records.
	var plain string
	downgrade := roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.URL.Scheme == "https" {
			return &http.Response{StatusCode: http.StatusFound, Header: http.Header{"Location": {"http://" + r.URL.Host + r.URL.Path}}, Body: http.NoBody, Request: r}, nil
		}
		plain = r.Header.Get("x-service-key")
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"isoAlpha2":"IE"}`)), Request: r}, nil
	})
	tls, _ := client.New("https://ipatlas.example", testKey, client.WithHTTPClient(&http.Client{Transport: downgrade}))
	if _, err := tls.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); err != nil || plain != "" {
		t.Errorf("a redirect from https to http sent key %q (%v)", plain, err)
	}

	refuse := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	own, _ := client.New(home.URL+"/here", testKey, client.WithHTTPClient(refuse))
	if _, err := own.CountryInfo(ctx, client.CountryInfoRequest{Code: "IE"}); !client.IsStatus(err, http.StatusFound) {
		t.Errorf("the caller's redirect policy was not applied: %v", err)
	}
	plainClient := &http.Client{}
	if _, err := client.New(home.URL, testKey, client.WithHTTPClient(plainClient)); err != nil || plainClient.CheckRedirect != nil {
		t.Errorf("the caller's http.Client was changed (%v)", err)
	}
	if _, err := client.New(home.URL, testKey, client.WithHTTPClient(nil)); err != nil {
		t.Errorf("WithHTTPClient(nil): %v", err)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestBasePathPrefix: a server behind a proxy under a path prefix.
func TestBasePathPrefix(t *testing.T) {
	inner := fixtureServer(t)
	proxy := httptest.NewServer(http.StripPrefix("/ipatlas", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Scheme, r.URL.Host, r.RequestURI = "http", strings.TrimPrefix(inner.URL, "http://"), ""
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		_, _ = bytes.NewBuffer(nil).ReadFrom(resp.Body) // the status is what this test reads
	})))
	defer proxy.Close()
	c, err := client.New(proxy.URL+"/ipatlas/", testKey)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CountryInfo(context.Background(), client.CountryInfoRequest{Code: "XX"})
	if !client.IsStatus(err, http.StatusNotFound) {
		t.Fatalf("through the prefix: %v", err)
	}
}

func TestNewRefusesBadBaseURLs(t *testing.T) {
	for _, u := range []string{"", "127.0.0.1:8080", "ftp://host", "http://", "http://host/?a=b", "http://host/#x", "http://[::1"} {
		if _, err := client.New(u, testKey); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080", "https://ipatlas.example.org/", "http://[::1]:8080/prefix"} {
		if _, err := client.New(u, testKey); err != nil {
			t.Errorf("New(%q): %v", u, err)
		}
	}
}

// TestNoInternalImports: the package is public; its code must not need ipatlas's
// internal packages (which only the module itself may import).
func TestNoInternalImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.Contains(p, "/internal/") {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
