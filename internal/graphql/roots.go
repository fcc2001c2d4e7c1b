package graphql

import (
	"net/http"
	"slices"
)

// Answerer answers a REST request in-process. path is a REST endpoint such as
// /data/country-info, or PathIPData or PathLocationData, and rawQuery its query parameters,
// encoded (no leading '?'). r is the GraphQL request: the answer uses its context, headers
// and remote address, so an omitted ip means the caller (behind trusted proxies, the
// address they forward).
type Answerer interface {
	Answer(r *http.Request, path, rawQuery string) Reply
}

// Reply is a REST answer: Status and the JSON Body, the error body
// {"status":...,"description":...} when Status is not 200. RetryAfter is the seconds its
// Retry-After asks a refused client to wait (a 429 or 503), 0 when it asks none; the
// field's error carries it as extensions.retryAfter, since a GraphQL answer is HTTP 200
// and has no header of its own for one field.
type Reply struct {
	Status     int
	Body       []byte
	RetryAfter int
}

// REST endpoints behind the root fields.
const (
	pathGeolocation   = "/data/ip-geolocation-with-confidence"
	pathCountryInfo   = "/data/country-info"
	pathCountries     = "/data/countries"
	pathUserRisk      = "/data/user-risk"
	pathHazardReport  = "/data/hazard-report"
	pathNetworkByIP   = "/data/network-by-ip"
	pathNetworkByCIDR = "/data/network-by-cidr"
	pathASNInfo       = "/data/asn-info-transit-to"
	pathASNRecord     = "/data/asn-info"
	pathASNFull       = "/data/asn-info-full"
	pathASNReceiving  = "/data/asn-info-receiving-from"
	pathASNRankList   = "/data/asn-rank-list"
	pathPrefixesList  = "/data/prefixes-list"
	pathTorExits      = "/data/tor-exit-nodes-list"
	pathPhoneByIP     = "/data/phone-number-validate-by-ip"
	pathPhone         = "/data/phone-number-validate"
	pathReverse       = "/data/reverse-geocode"
	pathReverseClient = "/data/reverse-geocode-client"
	pathAmIRoaming    = "/data/am-i-roaming"
	pathTimeZoneInfo  = "/data/timezone-info"
	pathTimeZoneByIP  = "/data/timezone-by-ip"
	pathUserAgent     = "/data/user-agent-info"
	pathClientIP      = "/data/client-ip"
	pathClientInfo    = "/data/client-info"
)

// PathIPData is the answer behind ipData, which no REST endpoint serves (an Answerer answers
// it all the same, as one lookup): the geolocation answer of pathGeolocation with two more
// members: confidenceReason (which rule set the confidence, a sentence in English without
// its full stop) and hazardReport, the hazard-report answer of the same address with two
// more: securityThreat (the strongest evidence in words) and userRisk (the user-risk
// answer).
const PathIPData = "/graphql/ip-data"

// PathLocationData is the answer behind locationData, which no REST endpoint serves (an
// Answerer answers it as one lookup): the reverse-geocode answer of pathReverse with two
// more members, country (the country's object) and timeZone (the point's time zone).
const PathLocationData = "/graphql/location-data"

// PathIPv4Space and PathIPv6Space are the answers behind ipV4 and ipV6, which no REST
// endpoint serves (an Answerer answers each as one lookup): how the family's address
// space divides, {bgpDataTimestamp, total, announced, bogon, distribution: [{name, total,
// announced, bogon}]}, one distribution entry per registry, the largest first.
const (
	PathIPv4Space = "/graphql/ipv4-space"
	PathIPv6Space = "/graphql/ipv6-space"
)

// root is one root field: the REST endpoint that answers it. Its arguments are the
// endpoint's query parameters of the same names (see synonyms for the exceptions).
type root struct {
	path string
}

// rootTable maps each package's root fields to REST. Aliases are the root names the
// commercial service's SDKs send; they answer as the field they stand for, ipData,
// locationData and network in the SDKs' shapes (views.go).
var rootTable = map[string]map[string]root{
	IPGeolocation: {
		"ipGeolocation": {path: pathGeolocation},
		"ipData":        {path: PathIPData}, // the SDKs' root and shape
		"countryInfo":   {path: pathCountryInfo},
		"countries":     {path: pathCountries},
		"userRisk":      {path: pathUserRisk},
		"hazardReport":  {path: pathHazardReport},
		"networkByIp":   {path: pathNetworkByIP},
		"timeZone":      {path: pathTimeZoneByIP},
		"timezoneInfo":  {path: pathTimeZoneInfo}, // the SDKs' root
		"asnInfo":       {path: pathASNRecord},    // the SDKs' root; without transit here
		"userAgent":     {path: pathUserAgent},    // the SDKs' root
	},
	ReverseGeocoding: {
		"reverseGeocode": {path: pathReverse},
		"locationData":   {path: PathLocationData}, // the SDKs' root and shape
	},
	PhoneEmail: {
		"phoneNumber":     {path: pathPhone},
		"phoneNumberByIp": {path: pathPhoneByIP},
	},
	NetworkEngineering: {
		"networkByIp":          {path: pathNetworkByIP},
		"network":              {path: pathNetworkByIP}, // the SDKs' root and shape
		"networkByCidr":        {path: pathNetworkByCIDR},
		"asnInfo":              {path: pathASNInfo},
		"asnInfoFull":          {path: pathASNFull}, // the SDKs' root and shape
		"asnInfoReceivingFrom": {path: pathASNReceiving},
		"asnRankList":          {path: pathASNRankList},
		"prefixesList":         {path: pathPrefixesList},
		"torExitNodesList":     {path: pathTorExits},
		"ipV4":                 {path: PathIPv4Space}, // the SDKs' root
		"ipV6":                 {path: PathIPv6Space}, // the SDKs' root
	},
	FreeAPI: {
		"reverseGeocodeClient": {path: pathReverseClient},
		"amIRoaming":           {path: pathAmIRoaming},
		"clientIp":             {path: pathClientIP},
		"clientInfo":           {path: pathClientInfo},
	},
}

// synonyms are arguments that fill a REST parameter of another name, only when the
// argument of that name is not given: the SDKs send locale for localityLanguage and ua for
// userAgentRaw.
var synonyms = map[string]string{"locale": "localityLanguage", "ua": "userAgentRaw"}

// typeField names a field of an object type.
type typeField struct{ typ, field string }

// servedBy lists the packages other than pkg whose schema has the root field name.
func servedBy(name, pkg string) []string {
	var out []string
	for _, p := range PackageNames() {
		if _, ok := rootTable[p][name]; ok && p != pkg {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
