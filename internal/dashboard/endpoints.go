package dashboard

import "slices"

// Endpoint is one REST endpoint the API explorer offers.
type Endpoint struct {
	Path    string // e.g. /data/country-info
	Package string // the billing package it counts against
	Example string // an example query string, without the key
}

// Endpoints is the explorer's list: add a row here when an endpoint is added to the API.
func Endpoints() []Endpoint {
	return []Endpoint{
		{"/data/country-info", "ip-geolocation", "code=IE&localityLanguage=en"},
		{"/data/countries", "ip-geolocation", "localityLanguage=en"},
		{"/data/ip-geolocation-with-confidence", "ip-geolocation", "ip=8.8.8.8&localityLanguage=en"},
		{"/data/ip-geolocation", "ip-geolocation", "ip=8.8.8.8&localityLanguage=en"},
		{"/data/ip-geolocation-full", "ip-geolocation", "ip=8.8.8.8&localityLanguage=en"},
		{"/data/country-by-ip", "ip-geolocation", "ip=8.8.8.8&localityLanguage=en"},
		{"/data/asn-info", "ip-geolocation", "asn=AS15169"},
		{"/data/network-by-ip", "ip-geolocation", "ip=8.8.8.8"},
		{"/data/user-risk", "ip-geolocation", "ip=8.8.8.8"},
		{"/data/hazard-report", "ip-geolocation", "ip=8.8.8.8"},
		{"/data/timezone-info", "ip-geolocation", "timeZoneId=Australia/Sydney"},
		{"/data/timezone-by-ip", "ip-geolocation", "ip=8.8.8.8"},
		{"/data/network-by-cidr", "network-engineering", "cidr=8.8.8.0/24"},
		{"/data/asn-info-transit-to", "network-engineering", "asn=AS15169"},
		{"/data/asn-info-receiving-from", "network-engineering", "asn=AS15169"},
		{"/data/asn-info-full", "network-engineering", "asn=AS15169"},
		{"/data/asn-rank-list", "network-engineering", "batchSize=10"},
		{"/data/prefixes-list", "network-engineering", "asn=AS15169&batchSize=10"},
		{"/data/phone-number-validate", "phone-email", "number=+353123456789"},
		{"/data/reverse-geocode", "reverse-geocoding", "latitude=53.35&longitude=-6.26&localityLanguage=en"},
		{"/data/timezone-by-location", "reverse-geocoding", "latitude=53.35&longitude=-6.26"},
		{"/data/reverse-geocode-with-timezone", "reverse-geocoding", "latitude=53.35&longitude=-6.26&localityLanguage=en"},
		// The caller and its software, and the Tor exit list (api's routes_client.go).
		{"/data/phone-number-validate-by-ip", "phone-email", "number=884633490&ip=193.114.112.1&localityLanguage=en"},
		{"/data/user-agent-info", "ip-geolocation", "userAgentRaw=Googlebot/2.1"},
		{"/data/tor-exit-nodes-list", "network-engineering", "batchSize=10&offset=0&localityLanguage=en"},
	}
}

// endpointGroup is one package's endpoints, as the explorer lists them.
type endpointGroup struct {
	Package   string
	Endpoints []Endpoint
}

// explorerGroups is the explorer's list as it shows it, grouped once.
var explorerGroups = groupByPackage(Endpoints())

// groupByPackage groups eps by package, in the order the packages first appear.
func groupByPackage(eps []Endpoint) []endpointGroup {
	var groups []endpointGroup
	for _, e := range eps {
		i := slices.IndexFunc(groups, func(g endpointGroup) bool { return g.Package == e.Package })
		if i < 0 {
			i = len(groups)
			groups = append(groups, endpointGroup{Package: e.Package})
		}
		groups[i].Endpoints = append(groups[i].Endpoints, e)
	}
	return groups
}
