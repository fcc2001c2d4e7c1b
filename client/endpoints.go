package client

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Request options. A zero field is left out of the query, so the server's default applies
// (its documentation on /docs gives each default and limit).

// GeolocationRequest asks where an address is.
type GeolocationRequest struct {
	IP               string // empty: the caller's own address
	LocalityLanguage string // ISO 639-1, or "default" for the country's own language
	// UTCReference is the instant for the time zone fields; zero means now (and the
	// answer's TimeZone.UTCTime is then empty).
	UTCReference time.Time
}

// NetworkByIPRequest asks for the network holding an address.
type NetworkByIPRequest struct {
	IP               string // empty: the caller's own address
	LocalityLanguage string
}

// NetworkByCIDRRequest asks for the networks within a range.
type NetworkByCIDRRequest struct {
	CIDR             string // required: 8.8.8.0/22 or 2001:4860::/32
	DepthLimit       int    // 1 to 5; 0: the server's default (1)
	SubnetsBatchSize int    // 1 to 20; 0: the server's default (20)
	SubnetsOffset    int
	BogonsOnly       bool
	LocalityLanguage string
}

// ASNInfoRequest asks for an AS and the ASes it carries traffic to.
type ASNInfoRequest struct {
	ASN              uint32 // required
	BatchSize        int    // 1 to 50; 0: the server's default (25)
	Offset           int
	LocalityLanguage string
}

// ASNInfoFullRequest asks for an AS with both of its transit lists.
type ASNInfoFullRequest struct {
	ASN              uint32 // required
	PeersCap         int    // 1 to 50 caps both lists; 0: the 50
	LocalityLanguage string
}

// ASNRankListRequest asks for a page of the ranked ASes.
type ASNRankListRequest struct {
	BatchSize        int // 1 to 1000; 0: the server's default (15)
	Offset           int
	Sort             string // rank (""), asn, asnNumeric, organisation or countryCode
	Order            string // asc ("") or desc
	LocalityLanguage string
}

// PrefixesListRequest asks for a page of an AS's announced prefixes.
type PrefixesListRequest struct {
	ASN              uint32 // required
	IPv6             bool   // the IPv6 prefixes (isv4=false); else the IPv4 ones
	BogonsOnly       bool
	BatchSize        int // 1 to 1000; 0: the server's default (25)
	Offset           int
	Sort             string // bgpPrefix ("") or size
	Order            string // asc ("") or desc
	LocalityLanguage string
}

// IPRequest names an address for the risk endpoints.
type IPRequest struct {
	IP string // empty: the caller's own address
}

// PhoneRequest asks to validate a phone number.
type PhoneRequest struct {
	Number           string // required, any format
	CountryCode      string // ISO 3166-1 code; may be empty for a number in international form
	LocalityLanguage string
}

// CountryInfoRequest asks for one country.
type CountryInfoRequest struct {
	Code             string // required: IE, IRL or 372
	LocalityLanguage string
}

// CountriesRequest asks for every country.
type CountriesRequest struct {
	LocalityLanguage string
}

// ReverseGeocodeRequest asks for the place at a coordinate.
type ReverseGeocodeRequest struct {
	Latitude, Longitude float64
	LocalityLanguage    string
}

// ReverseGeocodeClientRequest asks the keyless reverse geocoder.
type ReverseGeocodeClientRequest struct {
	Position         *Point // nil: answer from the caller's own address
	LocalityLanguage string
}

// AmIRoamingRequest compares the device's position with the caller's network.
type AmIRoamingRequest struct {
	Position         *Point // nil: none is sent, and the answer is "unknown"
	LocalityLanguage string
}

// TimeZoneInfoRequest asks for a time zone by its IANA id.
type TimeZoneInfoRequest struct {
	TimeZoneID       string    // required: Australia/Sydney
	UTCReference     time.Time // the instant; zero means now (and UTCTime is then empty)
	LocalityLanguage string
}

// TimeZoneByIPRequest asks for the time zone of an address.
type TimeZoneByIPRequest struct {
	IP               string // empty: the caller's own address
	UTCReference     time.Time
	LocalityLanguage string // "default": the address's country's language
}

// TimeZoneByLocationRequest asks for the time zone at a coordinate (or, with
// ReverseGeocodeWithTimezone, for the place and its time zone).
type TimeZoneByLocationRequest struct {
	Latitude, Longitude float64
	UTCReference        time.Time
	LocalityLanguage    string
}

// query builds a query string, leaving out empty values.
type query url.Values

func (q query) str(name, v string) query {
	if v != "" {
		url.Values(q).Set(name, v)
	}
	return q
}

// instant sets utcReference unless t is zero.
func (q query) instant(t time.Time) query {
	if !t.IsZero() {
		url.Values(q).Set("utcReference", strconv.FormatInt(t.Unix(), 10))
	}
	return q
}

func (q query) int(name string, v int) query {
	if v != 0 {
		url.Values(q).Set(name, strconv.Itoa(v))
	}
	return q
}

// float always sets the value: 0 is a coordinate.
func (q query) float(name string, v float64) query {
	url.Values(q).Set(name, strconv.FormatFloat(v, 'f', -1, 64))
	return q
}

// call GETs path and decodes the answer as a T; on failure it returns no value.
func call[T any](ctx context.Context, c *Client, path string, q url.Values, auth keyed) (*T, error) {
	var out T
	if err := c.get(ctx, path, q, auth, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// IPGeolocationWithConfidence calls /data/ip-geolocation-with-confidence.
func (c *Client) IPGeolocationWithConfidence(ctx context.Context, r GeolocationRequest) (*Geolocation, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[Geolocation](ctx, c, "/data/ip-geolocation-with-confidence", url.Values(q), withKey)
}

// NetworkByIP calls /data/network-by-ip.
func (c *Client) NetworkByIP(ctx context.Context, r NetworkByIPRequest) (*NetworkByIP, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage)
	return call[NetworkByIP](ctx, c, "/data/network-by-ip", url.Values(q), withKey)
}

// NetworkByCIDR calls /data/network-by-cidr.
func (c *Client) NetworkByCIDR(ctx context.Context, r NetworkByCIDRRequest) (*NetworkByCIDR, error) {
	q := query{}.str("cidr", r.CIDR).int("depthLimit", r.DepthLimit).int("subnetsBatchSize", r.SubnetsBatchSize).
		int("subnetsOffset", r.SubnetsOffset).str("localityLanguage", r.LocalityLanguage)
	if r.BogonsOnly {
		q.str("bogonsOnly", "true")
	}
	return call[NetworkByCIDR](ctx, c, "/data/network-by-cidr", url.Values(q), withKey)
}

// ASNInfoTransitTo calls /data/asn-info-transit-to.
func (c *Client) ASNInfoTransitTo(ctx context.Context, r ASNInfoRequest) (*ASInfo, error) {
	q := query{}.str("asn", strconv.FormatUint(uint64(r.ASN), 10)).int("batchSize", r.BatchSize).
		int("offset", r.Offset).str("localityLanguage", r.LocalityLanguage)
	return call[ASInfo](ctx, c, "/data/asn-info-transit-to", url.Values(q), withKey)
}

// ASNInfoReceivingFrom calls /data/asn-info-receiving-from: the AS and one page of the
// ASes it receives transit from.
func (c *Client) ASNInfoReceivingFrom(ctx context.Context, r ASNInfoRequest) (*ASInfoReceivingFrom, error) {
	q := query{}.str("asn", strconv.FormatUint(uint64(r.ASN), 10)).int("batchSize", r.BatchSize).
		int("offset", r.Offset).str("localityLanguage", r.LocalityLanguage)
	return call[ASInfoReceivingFrom](ctx, c, "/data/asn-info-receiving-from", url.Values(q), withKey)
}

// ASNInfoFull calls /data/asn-info-full.
func (c *Client) ASNInfoFull(ctx context.Context, r ASNInfoFullRequest) (*ASInfoFull, error) {
	q := query{}.str("asn", strconv.FormatUint(uint64(r.ASN), 10)).int("peersCap", r.PeersCap).
		str("localityLanguage", r.LocalityLanguage)
	return call[ASInfoFull](ctx, c, "/data/asn-info-full", url.Values(q), withKey)
}

// ASNRankList calls /data/asn-rank-list.
func (c *Client) ASNRankList(ctx context.Context, r ASNRankListRequest) (*ASNRankList, error) {
	q := query{}.int("batchSize", r.BatchSize).int("offset", r.Offset).str("sort", r.Sort).
		str("order", r.Order).str("localityLanguage", r.LocalityLanguage)
	return call[ASNRankList](ctx, c, "/data/asn-rank-list", url.Values(q), withKey)
}

// PrefixesList calls /data/prefixes-list.
func (c *Client) PrefixesList(ctx context.Context, r PrefixesListRequest) (*PrefixesList, error) {
	q := query{}.str("asn", strconv.FormatUint(uint64(r.ASN), 10)).int("batchSize", r.BatchSize).
		int("offset", r.Offset).str("sort", r.Sort).str("order", r.Order).str("localityLanguage", r.LocalityLanguage)
	if r.IPv6 {
		q.str("isv4", "false")
	}
	if r.BogonsOnly {
		q.str("bogonsOnly", "true")
	}
	return call[PrefixesList](ctx, c, "/data/prefixes-list", url.Values(q), withKey)
}

// UserRisk calls /data/user-risk.
func (c *Client) UserRisk(ctx context.Context, r IPRequest) (*UserRisk, error) {
	return call[UserRisk](ctx, c, "/data/user-risk", url.Values(query{}.str("ip", r.IP)), withKey)
}

// HazardReport calls /data/hazard-report.
func (c *Client) HazardReport(ctx context.Context, r IPRequest) (*HazardReport, error) {
	return call[HazardReport](ctx, c, "/data/hazard-report", url.Values(query{}.str("ip", r.IP)), withKey)
}

// PhoneNumberValidate calls /data/phone-number-validate.
func (c *Client) PhoneNumberValidate(ctx context.Context, r PhoneRequest) (*PhoneValidation, error) {
	q := query{}.str("number", r.Number).str("countryCode", r.CountryCode).str("localityLanguage", r.LocalityLanguage)
	return call[PhoneValidation](ctx, c, "/data/phone-number-validate", url.Values(q), withKey)
}

// CountryInfo calls /data/country-info.
func (c *Client) CountryInfo(ctx context.Context, r CountryInfoRequest) (*Country, error) {
	q := query{}.str("code", r.Code).str("localityLanguage", r.LocalityLanguage)
	return call[Country](ctx, c, "/data/country-info", url.Values(q), withKey)
}

// Countries calls /data/countries.
func (c *Client) Countries(ctx context.Context, r CountriesRequest) ([]Country, error) {
	out, err := call[[]Country](ctx, c, "/data/countries", url.Values(query{}.str("localityLanguage", r.LocalityLanguage)), withKey)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// ReverseGeocode calls /data/reverse-geocode.
func (c *Client) ReverseGeocode(ctx context.Context, r ReverseGeocodeRequest) (*ReverseGeocode, error) {
	q := query{}.float("latitude", r.Latitude).float("longitude", r.Longitude).str("localityLanguage", r.LocalityLanguage)
	return call[ReverseGeocode](ctx, c, "/data/reverse-geocode", url.Values(q), withKey)
}

// ReverseGeocodeClient calls the keyless /data/reverse-geocode-client. It is meant for
// code running on the user's device; the key is not sent.
func (c *Client) ReverseGeocodeClient(ctx context.Context, r ReverseGeocodeClientRequest) (*ReverseGeocode, error) {
	q := query{}.str("localityLanguage", r.LocalityLanguage)
	if r.Position != nil {
		q.float("latitude", r.Position.Latitude).float("longitude", r.Position.Longitude)
	}
	return call[ReverseGeocode](ctx, c, "/data/reverse-geocode-client", url.Values(q), keyless)
}

// AmIRoaming calls the keyless /data/am-i-roaming; the key is not sent.
func (c *Client) AmIRoaming(ctx context.Context, r AmIRoamingRequest) (*AmIRoaming, error) {
	q := query{}.str("localityLanguage", r.LocalityLanguage)
	if r.Position != nil {
		q = q.float("latitude", r.Position.Latitude).float("longitude", r.Position.Longitude)
	}
	return call[AmIRoaming](ctx, c, "/data/am-i-roaming", url.Values(q), keyless)
}

// IPGeolocation calls /data/ip-geolocation: IPGeolocationWithConfidence's answer without
// the confidence.
func (c *Client) IPGeolocation(ctx context.Context, r GeolocationRequest) (*IPGeolocation, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[IPGeolocation](ctx, c, "/data/ip-geolocation", url.Values(q), withKey)
}

// IPGeolocationFull calls /data/ip-geolocation-full: IPGeolocationWithConfidence's answer
// with the address's hazard report.
func (c *Client) IPGeolocationFull(ctx context.Context, r GeolocationRequest) (*GeolocationFull, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[GeolocationFull](ctx, c, "/data/ip-geolocation-full", url.Values(q), withKey)
}

// CountryByIP calls /data/country-by-ip.
func (c *Client) CountryByIP(ctx context.Context, r NetworkByIPRequest) (*CountryByIP, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage)
	return call[CountryByIP](ctx, c, "/data/country-by-ip", url.Values(q), withKey)
}

// ASNInfo calls /data/asn-info: ASNInfoTransitTo's answer without the transit (BatchSize
// and Offset are not sent).
func (c *Client) ASNInfo(ctx context.Context, r ASNInfoRequest) (*Carrier, error) {
	q := query{}.str("asn", strconv.FormatUint(uint64(r.ASN), 10)).str("localityLanguage", r.LocalityLanguage)
	return call[Carrier](ctx, c, "/data/asn-info", url.Values(q), withKey)
}

// ReverseGeocodeWithTimezone calls /data/reverse-geocode-with-timezone.
func (c *Client) ReverseGeocodeWithTimezone(ctx context.Context, r TimeZoneByLocationRequest) (*ReverseGeocodeWithTimezone, error) {
	q := query{}.float("latitude", r.Latitude).float("longitude", r.Longitude).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[ReverseGeocodeWithTimezone](ctx, c, "/data/reverse-geocode-with-timezone", url.Values(q), withKey)
}

// TimeZoneInfo calls /data/timezone-info.
func (c *Client) TimeZoneInfo(ctx context.Context, r TimeZoneInfoRequest) (*TimeZone, error) {
	q := query{}.str("timeZoneId", r.TimeZoneID).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[TimeZone](ctx, c, "/data/timezone-info", url.Values(q), withKey)
}

// TimeZoneByIP calls /data/timezone-by-ip.
func (c *Client) TimeZoneByIP(ctx context.Context, r TimeZoneByIPRequest) (*TimeZone, error) {
	q := query{}.str("ip", r.IP).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[TimeZone](ctx, c, "/data/timezone-by-ip", url.Values(q), withKey)
}

// TimeZoneByLocation calls /data/timezone-by-location.
func (c *Client) TimeZoneByLocation(ctx context.Context, r TimeZoneByLocationRequest) (*TimeZone, error) {
	q := query{}.float("latitude", r.Latitude).float("longitude", r.Longitude).str("localityLanguage", r.LocalityLanguage).instant(r.UTCReference)
	return call[TimeZone](ctx, c, "/data/timezone-by-location", url.Values(q), withKey)
}

// Sources calls the keyless /data/sources.
func (c *Client) Sources(ctx context.Context) (*Sources, error) {
	return call[Sources](ctx, c, "/data/sources", nil, keyless)
}

// Health calls /healthz.
func (c *Client) Health(ctx context.Context) (*Health, error) {
	return call[Health](ctx, c, "/healthz", nil, keyless)
}

// Ready calls /readyz: an error (an *Error with status 503) until the server has data.
func (c *Client) Ready(ctx context.Context) (*Ready, error) {
	return call[Ready](ctx, c, "/readyz", nil, keyless)
}
