package dataset

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

func TestCompleteRegisteredCountry(t *testing.T) {
	placedIn := func(code string) ipgeo.Place { return ipgeo.Place{RegisteredCountry: ipgeo.Area{Code: code}} }
	for _, tc := range []struct {
		name string
		n    netinfo.Network
		p    ipgeo.Place
		want string
	}{
		{"legacy space without a country", netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"}, placedIn("US"), "US"},
		{"allocated", netinfo.Network{Registry: "RIPE NCC", RegistryStatus: "allocated"}, placedIn("SE"), "SE"},
		{"assigned", netinfo.Network{Registry: "APNIC", RegistryStatus: "assigned"}, placedIn("JP"), "JP"},
		{"the registry's country wins", netinfo.Network{RegistryStatus: "allocated", RegisteredCountry: "DE"}, placedIn("FR"), "DE"},
		{"available space is no one's", netinfo.Network{Registry: "AFRINIC", RegistryStatus: "available"}, placedIn("ZA"), ""},
		{"reserved space is no one's", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved"}, placedIn("CN"), ""},
		{"6to4, which IANA lists as allocated, is no one's", netinfo.Network{Registry: "IANA", RegistryStatus: "allocated"}, placedIn("GB"), ""},
		{"the IETF's space is no one's", netinfo.Network{Registry: "IETF", RegistryStatus: "assigned"}, placedIn("US"), ""},
		{"a bogon", netinfo.Network{RegistryStatus: "allocated", IsBogon: true}, placedIn("US"), ""},
		{"no place", netinfo.Network{RegistryStatus: "allocated"}, ipgeo.Place{}, ""},
	} {
		n := tc.n
		CompleteRegisteredCountry(&n, tc.p)
		if n.RegisteredCountry != tc.want {
			t.Errorf("%s: registered country %q, want %q", tc.name, n.RegisteredCountry, tc.want)
		}
		n.RegisteredCountry = tc.n.RegisteredCountry
		if n.Registry != tc.n.Registry || n.RegistryStatus != tc.n.RegistryStatus || n.IsBogon != tc.n.IsBogon {
			t.Errorf("%s: changed more than the country: %+v", tc.name, n)
		}
	}
}
