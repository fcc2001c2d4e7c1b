package client

import (
	"math/big"
	"time"
)

// The response types mirror the schemas of the service's OpenAPI document (/openapi.json)
// field for field. A pointer is used where the service may leave a field out and also
// sends its zero value; omitempty alone where it leaves the field out instead of sending
// the zero value.

// Country is a country or territory.
type Country struct {
	ISOAlpha2         string      `json:"isoAlpha2"`
	ISOAlpha3         string      `json:"isoAlpha3"`
	M49Code           int         `json:"m49Code"`
	Name              string      `json:"name"` // in the requested localityLanguage
	ISOName           string      `json:"isoName"`
	ISONameFull       string      `json:"isoNameFull"`
	ISOAdminLanguages []Language  `json:"isoAdminLanguages"`
	UNRegion          string      `json:"unRegion"`
	Currency          *Currency   `json:"currency,omitempty"`
	WBRegion          *WBGroup    `json:"wbRegion,omitempty"`
	WBIncomeLevel     *WBGroup    `json:"wbIncomeLevel,omitempty"`
	CallingCode       string      `json:"callingCode"`
	CountryFlagEmoji  string      `json:"countryFlagEmoji"`
	WikidataID        string      `json:"wikidataId"`
	GeonameID         int         `json:"geonameId,omitempty"`
	IsIndependent     bool        `json:"isIndependent"`
	Continents        []Continent `json:"continents,omitempty"`
}

// Language is an administrative language of a country.
type Language struct {
	ISOAlpha3  string `json:"isoAlpha3"`
	ISOAlpha2  string `json:"isoAlpha2"`
	ISOName    string `json:"isoName"`
	NativeName string `json:"nativeName"`
}

// Currency is an ISO 4217 currency.
type Currency struct {
	NumericCode int    `json:"numericCode"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	MinorUnits  int    `json:"minorUnits"` // 2 means 1/100
}

// WBGroup is a World Bank region or income level.
type WBGroup struct {
	ID       string `json:"id"`
	ISO2Code string `json:"iso2Code"`
	Value    string `json:"value"`
}

// Continent is one continent a country lies on.
type Continent struct {
	Continent     string `json:"continent"`
	ContinentCode string `json:"continentCode"`
}

// Geolocation is the ip-geolocation-with-confidence answer. Read Country first, then
// ConfidenceArea, then Location.
type Geolocation struct {
	IPGeolocation
	Confidence string `json:"confidence"` // low, moderate or high
	// ConfidenceArea holds closed polygons (first point repeated), one after another.
	ConfidenceArea []Point `json:"confidenceArea"`
}

// IPGeolocation is the ip-geolocation answer: the geolocation without its confidence.
type IPGeolocation struct {
	IP                        string    `json:"ip"`
	LocalityLanguageRequested string    `json:"localityLanguageRequested"`
	IsReachableGlobally       bool      `json:"isReachableGlobally"`
	Country                   *Country  `json:"country,omitempty"`  // nil when the data does not place the address
	Location                  *Location `json:"location,omitempty"` // nil when the data does not place the address
	LastUpdated               string    `json:"lastUpdated"`        // as 2026-09-18T04:49:38.0000000Z
	Network                   Network   `json:"network"`
}

// GeolocationFull is the ip-geolocation-full answer: the geolocation with its confidence and
// the address's hazard report.
type GeolocationFull struct {
	Geolocation
	SecurityThreat string       `json:"securityThreat"` // the strongest evidence in words, or "unknown"
	HazardReport   HazardReport `json:"hazardReport"`
}

// CountryByIP is the country-by-ip answer.
type CountryByIP struct {
	IP                        string   `json:"ip"`
	LocalityLanguageRequested string   `json:"localityLanguageRequested"`
	IsReachableGlobally       bool     `json:"isReachableGlobally"`
	Country                   *Country `json:"country,omitempty"` // nil when the data does not place the address
	LastUpdated               string   `json:"lastUpdated"`
}

// Point is a WGS 84 coordinate.
type Point struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// Location is the pin of a geolocation and the places it lies in. Fields the data lacks
// are empty.
type Location struct {
	PrincipalSubdivision        string       `json:"principalSubdivision"`
	ISOPrincipalSubdivision     string       `json:"isoPrincipalSubdivision"`
	ISOPrincipalSubdivisionCode string       `json:"isoPrincipalSubdivisionCode"`
	Continent                   string       `json:"continent"`
	ContinentCode               string       `json:"continentCode"`
	City                        string       `json:"city"`
	LocalityName                string       `json:"localityName"`
	Postcode                    string       `json:"postcode"`
	Latitude                    *float64     `json:"latitude,omitempty"` // nil without a pin
	Longitude                   *float64     `json:"longitude,omitempty"`
	PlusCode                    string       `json:"plusCode,omitempty"`
	FIPS                        *FIPS        `json:"fips,omitempty"`
	CSDCode                     string       `json:"csdCode,omitempty"`
	TimeZone                    *TimeZone    `json:"timeZone,omitempty"`
	LocalityInfo                LocalityInfo `json:"localityInfo"`
}

// FIPS holds a US city's FIPS codes. CountySubdivision is empty where the data has none
// for the city, Place always (no loaded source numbers Census places).
type FIPS struct {
	State             string `json:"state"`
	County            string `json:"county"`
	CountySubdivision string `json:"countySubdivision"`
	Place             string `json:"place,omitempty"`
}

// TimeZone is the time zone at a location, at the request's instant.
type TimeZone struct {
	IANATimeID             string `json:"ianaTimeId"`
	DisplayName            string `json:"displayName"`
	EffectiveTimeZoneFull  string `json:"effectiveTimeZoneFull"`
	EffectiveTimeZoneShort string `json:"effectiveTimeZoneShort"`
	UTCOffsetSeconds       int    `json:"utcOffsetSeconds"`
	UTCOffset              string `json:"utcOffset"`
	IsDaylightSavingTime   bool   `json:"isDaylightSavingTime"`
	LocalTime              string `json:"localTime"`         // wall clock, as 2023-11-14T23:13:20.0000000
	UTCTime                string `json:"utcTime,omitempty"` // only with the request's UTCReference
}

// LocalityInfo lists the areas a place belongs to, largest first. The server always sends
// both lists, empty where there are no such areas.
type LocalityInfo struct {
	Administrative []LocalityInfoEntry `json:"administrative"`
	Informative    []LocalityInfoEntry `json:"informative"`
}

// LocalityInfoEntry is one area.
type LocalityInfoEntry struct {
	Name           string `json:"name"`
	Description    string `json:"description"`
	ISOName        string `json:"isoName,omitempty"`
	Order          int    `json:"order"`
	AdminLevel     int    `json:"adminLevel,omitempty"`
	ISOCode        string `json:"isoCode,omitempty"`
	WikidataID     string `json:"wikidataId,omitempty"`
	GeonameID      int    `json:"geonameId,omitempty"`
	ChinaAdminCode string `json:"chinaAdminCode,omitempty"`
}

// NetworkFacts are the facts every network shape carries.
type NetworkFacts struct {
	Registry              string       `json:"registry"`
	RegistryStatus        string       `json:"registryStatus"`
	RegisteredCountry     string       `json:"registeredCountry"`
	RegisteredCountryName string       `json:"registeredCountryName"`
	Organisation          string       `json:"organisation"`
	IsReachableGlobally   bool         `json:"isReachableGlobally"`
	IsBogon               bool         `json:"isBogon"`
	BGPPrefix             string       `json:"bgpPrefix,omitempty"` // empty when not announced
	Carriers              []Carrier    `json:"carriers"`
	ViaCarriers           []ViaCarrier `json:"viaCarriers"`
}

// Network is the network of a geolocation. The BGP fields are empty when the address is
// not announced.
type Network struct {
	NetworkFacts
	BGPPrefixNetworkAddress string `json:"bgpPrefixNetworkAddress,omitempty"`
	BGPPrefixLastAddress    string `json:"bgpPrefixLastAddress,omitempty"`
	TotalAddresses          string `json:"totalAddresses,omitempty"` // decimal, up to 2^128
}

// NetworkByIP is the network-by-ip answer.
type NetworkByIP struct {
	IP string `json:"ip"`
	Network
}

// Carrier is an AS announcing a network. For an AS the data has no record of, only ASN and
// ASNNumeric are set and the pointers are nil.
type Carrier struct {
	ASN                    string  `json:"asn"` // as AS15169
	ASNNumeric             uint32  `json:"asnNumeric"`
	Organisation           *string `json:"organisation,omitempty"`
	Name                   *string `json:"name,omitempty"`
	Registry               *string `json:"registry,omitempty"`
	RegisteredCountry      *string `json:"registeredCountry,omitempty"`
	RegisteredCountryName  *string `json:"registeredCountryName,omitempty"`
	RegistrationDate       string  `json:"registrationDate,omitempty"`       // yyyy-mm-dd
	RegistrationLastChange string  `json:"registrationLastChange,omitempty"` // yyyy-mm-dd
	TotalIPv4Addresses     *int64  `json:"totalIpv4Addresses,omitempty"`
	TotalIPv4Prefixes      *int    `json:"totalIpv4Prefixes,omitempty"`
	TotalIPv4BogonPrefixes *int    `json:"totalIpv4BogonPrefixes,omitempty"`
	TotalIPv6Prefixes      *int    `json:"totalIpv6Prefixes,omitempty"`
	TotalIPv6BogonPrefixes *int    `json:"totalIpv6BogonPrefixes,omitempty"`
	Rank                   int     `json:"rank,omitempty"`     // 0 when unranked
	RankText               string  `json:"rankText,omitempty"` // as "#170 out of 77,428"
}

// ViaCarrier is an AS in the shorter via-carrier shape (viaCarriers, transitTo). For an AS
// the data has no record of, only ASN and ASNNumeric are set.
type ViaCarrier struct {
	ASN                   string  `json:"asn"`
	ASNNumeric            uint32  `json:"asnNumeric"`
	Organisation          *string `json:"organisation,omitempty"`
	Name                  *string `json:"name,omitempty"`
	Registry              *string `json:"registry,omitempty"`
	RegisteredCountry     *string `json:"registeredCountry,omitempty"`
	RegisteredCountryName *string `json:"registeredCountryName,omitempty"`
	TotalIPv4Addresses    *int64  `json:"totalIpv4Addresses,omitempty"`
	Rank                  int     `json:"rank,omitempty"`
	RankText              string  `json:"rankText,omitempty"`
}

// ASInfo is the asn-info-transit-to answer: the AS and one page of the ASes it carries
// traffic to.
type ASInfo struct {
	Carrier
	TotalTransitTo int          `json:"totalTransitTo"`
	TransitTo      []ViaCarrier `json:"transitTo"`
}

// ASInfoReceivingFrom is the asn-info-receiving-from answer: the AS and one page of the
// ASes it receives transit from, most prominent first.
type ASInfoReceivingFrom struct {
	Carrier
	TotalReceivingFrom int          `json:"totalReceivingFrom"`
	ReceivingFrom      []ViaCarrier `json:"receivingFrom"`
}

// ASInfoFull is the asn-info-full answer: the AS with the first (at most 50) of both of
// its transit lists. The commercial service's confidenceArea has no source in ipatlas and
// is never sent.
type ASInfoFull struct {
	Carrier
	TotalReceivingFrom int          `json:"totalReceivingFrom"`
	ReceivingFrom      []ViaCarrier `json:"receivingFrom"`
	TotalTransitTo     int          `json:"totalTransitTo"`
	TransitTo          []ViaCarrier `json:"transitTo"`
}

// ASNRankList is the asn-rank-list answer: one page of the ranked ASes. Batch is the page
// size applied, so the next page is at Offset+Batch.
type ASNRankList struct {
	Total  int          `json:"total"`
	Offset int          `json:"offset"`
	Batch  int          `json:"batch"`
	ASNs   []ViaCarrier `json:"asns"`
}

// PrefixesList is the prefixes-list answer: one page of an AS's announced prefixes.
type PrefixesList struct {
	Total    int        `json:"total"`
	Offset   int        `json:"offset"`
	Batch    int        `json:"batch"`
	Prefixes []ASPrefix `json:"prefixes"`
}

// ASPrefix is one announced prefix of an AS, described as a whole.
type ASPrefix struct {
	BGPPrefix               string    `json:"bgpPrefix"`
	BGPPrefixNetworkAddress string    `json:"bgpPrefixNetworkAddress"`
	BGPPrefixLastAddress    string    `json:"bgpPrefixLastAddress"`
	RegistryStatus          string    `json:"registryStatus"` // "" where the pieces inside differ
	IsBogon                 bool      `json:"isBogon"`
	IsAnnounced             bool      `json:"isAnnounced"` // always true
	Carriers                []Carrier `json:"carriers"`
}

// NetworkByCIDR is the network-by-cidr answer.
type NetworkByCIDR struct {
	CIDR          string      `json:"cidr"`
	Parent        string      `json:"parent,omitempty"` // empty when nothing strictly contains it
	Network       CIDRNetwork `json:"network"`
	Networks      []CIDRItem  `json:"networks,omitempty"` // nil when the range is within one network
	TotalNetworks int         `json:"totalNetworks"`
	Truncated     bool        `json:"truncated,omitempty"` // the list was cut at 1000
}

// CIDRNetwork is the network covering the range, with a page of its subnets.
type CIDRNetwork struct {
	CIDR string `json:"cidr"`
	Type string `json:"type"` // network or range
	NetworkFacts
	TotalSubnets int      `json:"totalSubnets"`
	Subnets      []Subnet `json:"subnets"`
}

// Subnet is an announced subnet of the covering network.
type Subnet struct {
	StartAddress          string `json:"startAddress"`
	EndAddress            string `json:"endAddress"`
	Organisation          string `json:"organisation"`
	RegisteredCountry     string `json:"registeredCountry"`
	RegisteredCountryName string `json:"registeredCountryName"`
}

// CIDRItem is a network inside the range. Sizes go up to 2^128, hence big integers.
type CIDRItem struct {
	CIDR           string       `json:"cidr"`
	Type           string       `json:"type"`
	Size           *big.Int     `json:"size"`
	TotalAnnounced *big.Int     `json:"totalAnnounced"`
	BogonsCount    int          `json:"bogonsCount"`
	DeepCount      int          `json:"deepCount"`
	Network        NetworkFacts `json:"network"`
	Networks       []CIDRItem   `json:"networks,omitempty"`
}

// UserRisk is the user-risk answer.
type UserRisk struct {
	Risk        string `json:"risk"` // Low, Moderate or High
	Description string `json:"description"`
}

// HazardReport is the hazard-report answer: the evidence behind UserRisk.
type HazardReport struct {
	IsKnownAsTorServer  bool     `json:"isKnownAsTorServer"`
	IsKnownAsTorExit    bool     `json:"isKnownAsTorExit"`
	IsKnownAsVPN        bool     `json:"isKnownAsVpn"`
	IsKnownAsProxy      bool     `json:"isKnownAsProxy"`
	ICloudPrivateRelay  bool     `json:"iCloudPrivateRelay"`
	IsSpamhausDrop      bool     `json:"isSpamhausDrop"`
	IsBogon             bool     `json:"isBogon"`
	IsUnreachable       bool     `json:"isUnreachable"`
	IsHostingASN        bool     `json:"isHostingAsn"`
	HostingLikelihood   int      `json:"hostingLikelihood"` // 0 to 10
	IsKnownAsDatacenter bool     `json:"isKnownAsDatacenter"`
	IsBlocklisted       bool     `json:"isBlocklisted"`
	BlocklistCount      int      `json:"blocklistCount"`
	CloudProvider       string   `json:"cloudProvider"`
	HostingProvider     string   `json:"hostingProvider"`
	Lists               []string `json:"lists"`
}

// PhoneValidation is the phone-number-validate answer.
type PhoneValidation struct {
	IsValid             bool     `json:"isValid"`
	E164Format          string   `json:"e164Format"`
	InternationalFormat string   `json:"internationalFormat"`
	NationalFormat      string   `json:"nationalFormat"`
	Location            string   `json:"location"`
	LineType            string   `json:"lineType"`          // a libphonenumber type name; UNKNOWN when not valid
	Country             *Country `json:"country,omitempty"` // nil for numbers of no country
}

// ReverseGeocodeWithTimezone is the reverse-geocode-with-timezone answer.
type ReverseGeocodeWithTimezone struct {
	ReverseGeocode
	TimeZone *TimeZone `json:"timeZone,omitempty"` // nil where the data has no zone for the point
}

// ReverseGeocode is the reverse-geocode answer. Fields the data lacks are empty strings.
type ReverseGeocode struct {
	Latitude                  *float64     `json:"latitude,omitempty"` // nil when answered for a caller the data does not place
	Longitude                 *float64     `json:"longitude,omitempty"`
	LookupSource              string       `json:"lookupSource"` // coordinates or ipGeolocation
	PlusCode                  string       `json:"plusCode"`
	LocalityLanguageRequested string       `json:"localityLanguageRequested"`
	Continent                 string       `json:"continent"`
	ContinentCode             string       `json:"continentCode"`
	CountryName               string       `json:"countryName"`
	CountryCode               string       `json:"countryCode"`
	PrincipalSubdivision      string       `json:"principalSubdivision"`
	PrincipalSubdivisionCode  string       `json:"principalSubdivisionCode"`
	City                      string       `json:"city"`
	Locality                  string       `json:"locality"`
	Postcode                  string       `json:"postcode"`
	LocalityInfo              LocalityInfo `json:"localityInfo"`
}

// AmIRoaming is the am-i-roaming answer.
type AmIRoaming struct {
	IsRoaming          bool     `json:"isRoaming"`
	RoamingStatus      string   `json:"roamingStatus"` // roaming, home or unknown
	Description        string   `json:"description"`
	Latitude           *float64 `json:"latitude,omitempty"` // nil when no position was sent
	Longitude          *float64 `json:"longitude,omitempty"`
	DeviceCountryCode  string   `json:"deviceCountryCode"`
	DeviceCountryName  string   `json:"deviceCountryName"`
	NetworkCountryCode string   `json:"networkCountryCode"`
	NetworkCountryName string   `json:"networkCountryName"`
}

// Sources is the serving snapshot's provenance.
type Sources struct {
	FormatVersion int       `json:"formatVersion"`
	BuildTime     time.Time `json:"buildTime"`
	Sources       []Source  `json:"sources"`
}

// Source is one data source of the snapshot.
type Source struct {
	Name        string         `json:"name"`
	Version     string         `json:"version"`
	Licence     string         `json:"licence"`
	Attribution string         `json:"attribution"`
	Origin      string         `json:"origin"`
	SHA256      string         `json:"sha256"`
	DataDate    time.Time      `json:"dataDate"` // zero when the data does not say
	Status      string         `json:"status"`   // ok, missing, error or unused
	Note        string         `json:"note"`
	Records     map[string]int `json:"records"`
	Feeds       []string       `json:"feeds"`
}

// Health is the /healthz answer.
type Health struct {
	Status string `json:"status"`
}

// Ready is the /readyz answer.
type Ready struct {
	Status        string    `json:"status"`
	DataBuildTime time.Time `json:"dataBuildTime"`
	LoadedAt      time.Time `json:"loadedAt"`
}
