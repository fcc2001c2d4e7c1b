package api

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"testing"

	"github.com/ipatlas/ipatlas/client"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// TestCarrierMembers renders both carrier shapes of an AS that has every field, and reads
// them back strictly into the Go client's wire types: a misspelt member name, a missing
// comma or a member in the wrong shape fails here, including registrationLastChange, which
// no loaded source fills and so no golden shows.
func TestCarrierMembers(t *testing.T) {
	section, err := netinfo.Encode(netinfo.Input{
		Networks: []netinfo.Announced{{Prefix: netip.MustParsePrefix("192.0.2.0/24"), Carriers: []uint32{64500}, Country: "IE"}},
		ASes: []netinfo.ASRecord{{
			ASN: 64500, Organisation: "Example \"Org\"", Name: "EXAMPLE-AS", Registry: "RIPE NCC", Country: "IE",
			RegistrationDate: "2001-02-03", RegistrationLastChange: "2024-05-06",
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	db, err := netinfo.Decode(section)
	if err != nil {
		t.Fatal(err)
	}
	v, err := newCountryView(datasettest.Snapshot(t))
	if err != nil {
		t.Fatal(err)
	}
	strict := func(b []byte, into any) {
		t.Helper()
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if err := d.Decode(into); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}

	var full client.Carrier
	strict(netAppendCarrier(nil, db, v, 64500, "en", true), &full)
	want := client.Carrier{ASN: "AS64500", ASNNumeric: 64500, RegistrationDate: "2001-02-03", RegistrationLastChange: "2024-05-06", Rank: 1, RankText: "#1 out of 1"}
	if full.ASN != want.ASN || full.ASNNumeric != want.ASNNumeric || full.RegistrationDate != want.RegistrationDate ||
		full.RegistrationLastChange != want.RegistrationLastChange || full.Rank != want.Rank || full.RankText != want.RankText {
		t.Errorf("carrier %+v, want %+v", full, want)
	}
	for name, p := range map[string]*string{"organisation": full.Organisation, "name": full.Name, "registry": full.Registry, "registeredCountry": full.RegisteredCountry, "registeredCountryName": full.RegisteredCountryName} {
		if p == nil || *p == "" {
			t.Errorf("carrier has no %s", name)
		}
	}
	if full.Organisation != nil && *full.Organisation != `Example "Org"` {
		t.Errorf("organisation %q", *full.Organisation)
	}
	for name, p := range map[string]*int{"totalIpv4Prefixes": full.TotalIPv4Prefixes, "totalIpv4BogonPrefixes": full.TotalIPv4BogonPrefixes, "totalIpv6Prefixes": full.TotalIPv6Prefixes, "totalIpv6BogonPrefixes": full.TotalIPv6BogonPrefixes} {
		if p == nil {
			t.Errorf("carrier has no %s", name)
		}
	}
	if full.TotalIPv4Addresses == nil || *full.TotalIPv4Addresses != 256 {
		t.Errorf("totalIpv4Addresses %v, want 256", full.TotalIPv4Addresses)
	}

	var via client.ViaCarrier
	strict(netAppendCarrier(nil, db, v, 64500, "en", false), &via)
	if via.ASN != "AS64500" || via.Organisation == nil || via.RankText != "#1 out of 1" {
		t.Errorf("via carrier %+v", via)
	}
}
