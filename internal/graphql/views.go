package graphql

import "bytes"

// A view answers a field that its REST answer does not hold under the field's name: a
// GraphQL-only field (Location.country), or a field of the commercial service's SDK shapes
// (ipData, network), which lay other names and nestings over the same REST answers. It
// returns the field's raw JSON, nil when there is none (null), from the object the field
// belongs to (self, as raw JSON, and its members) and the root field's whole answer. Views
// only move and rename what REST wrote; the few that write a value of their own say so.
type view func(v viewArgs) []byte

type viewArgs struct {
	self []byte   // the object the field belongs to
	obj  []member // its members
	root []byte   // the root field's whole REST answer
}

func (v viewArgs) member(name string) []byte { return lookupMember(v.obj, name) }

// views maps type fields to their views; every other field is the member of its name.
var views = map[typeField]view{
	// REST writes the country once, at the top level.
	{"Location", "country"}: func(v viewArgs) []byte { return descend(v.root, []string{"country", "name"}) },

	// ipData: the geolocation answer (with its hazard report, see PathIPData) in the SDKs'
	// nesting.
	{"IpData", "ipAddress"}:  self,
	{"IpData", "latLng"}:     memberView("location"),
	{"IpData", "locality"}:   memberView("location"),
	{"IpData", "timezone"}:   func(v viewArgs) []byte { return descend(v.self, []string{"location", "timeZone"}) },
	{"IpData", "confidence"}: self,

	{"IpAddress", "ipString"}: memberView("ip"),
	// Written here: 4 or 6, from the address's notation.
	{"IpAddress", "addressFamily"}: func(v viewArgs) []byte {
		ip := v.member("ip")
		switch {
		case ip == nil:
			return nil
		case bytes.IndexByte(ip, ':') >= 0:
			return []byte("6")
		}
		return []byte("4")
	},

	// locationData: the reverse-geocode answer (with country and timeZone, see
	// PathLocationData) in the SDKs' nesting.
	{"LocationData", "latLng"}:   self,
	{"LocationData", "locality"}: self,
	{"LocationData", "timezone"}: memberView("timeZone"),

	// Locality is a location object (ipData) or a reverse-geocode answer (locationData),
	// whose members have other names.
	{"Locality", "localityName"}:                firstMember("localityName", "locality"),
	{"Locality", "isoPrincipalSubdivisionCode"}: firstMember("isoPrincipalSubdivisionCode", "principalSubdivisionCode"),
	{"Locality", "administrative"}:              func(v viewArgs) []byte { return descend(v.self, []string{"localityInfo", "administrative"}) },
	{"Locality", "informative"}:                 func(v viewArgs) []byte { return descend(v.self, []string{"localityInfo", "informative"}) },

	{"ConfidenceLevel", "value"}: memberView("confidence"),
	// Written here: the level and the rule that set it (PathIPData's confidenceReason), as
	// "Moderate: the network serves several countries."
	{"ConfidenceLevel", "description"}: func(v viewArgs) []byte {
		level, reason := v.member("confidence"), v.member("confidenceReason")
		if len(level) < 3 || len(reason) < 3 || level[0] != '"' || reason[0] != '"' {
			return nil
		}
		out := append([]byte{'"'}, bytes.ToUpper(level[1:2])...)
		out = append(append(out, level[2:len(level)-1]...), ": "...)
		return append(append(out, reason[1:len(reason)-1]...), '.', '"')
	},

	// network (and ipData's network): the network with bgpPrefix an object.
	{"BgpNetwork", "bgpPrefix"}: selfWhen("bgpPrefix"),
	{"BgpPrefix", "cidrString"}: memberView("bgpPrefix"),
	{"BgpPrefix", "firstIp"}:    ipStringView("bgpPrefixNetworkAddress"),
	{"BgpPrefix", "lastIp"}:     ipStringView("bgpPrefixLastAddress"),

	// asnInfoFull: the registration country as an object, null where REST's code is empty.
	{"AsnInfoFull", "registeredCountry"}: selfWhen("registeredCountry"),
	{"RegisteredCountry", "isoAlpha2"}:   memberView("registeredCountry"),
	{"RegisteredCountry", "name"}:        memberView("registeredCountryName"),

	// countryInfo { currency { isoName } }: ISO 4217's name is the name REST writes.
	{"Currency", "isoName"}: memberView("name"),
}

// self is the view of a field that is the object itself, seen as another type.
func self(v viewArgs) []byte { return v.self }

// selfWhen is the view of a field that is the object itself seen as another type, null
// when the member name it is built around is absent or the empty string.
func selfWhen(name string) view {
	return func(v viewArgs) []byte {
		if m := v.member(name); m == nil || string(m) == `""` {
			return nil
		}
		return v.self
	}
}

// memberView is the view of a field that is the member name under another name.
func memberView(name string) view { return func(v viewArgs) []byte { return v.member(name) } }

// firstMember is the view of a field that is the first of the named members present.
func firstMember(names ...string) view {
	return func(v viewArgs) []byte {
		for _, n := range names {
			if m := v.member(n); m != nil {
				return m
			}
		}
		return nil
	}
}

// ipStringView is the view of an {ipString} object holding the string member name.
func ipStringView(name string) view {
	return func(v viewArgs) []byte {
		s := v.member(name)
		if s == nil {
			return nil
		}
		return append(append([]byte(`{"ipString":`), s...), '}')
	}
}
