package dataset_test

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// TestRealCensus checks the census join over every US and Canadian network of the real
// geolocation data: each state's FIPS code against the one a slow reference finds by the
// place's ISO 3166-2 code (the join goes by GeoNames codes), the codes' forms, how many
// cities get codes, and a few cities checked by hand against the Census Bureau's and
// Statistics Canada's numbers.
func TestRealCensus(t *testing.T) {
	s := datasettest.Real(t)
	byISO := map[string]string{} // the slow reference: ISO 3166-2 code → FIPS
	for _, sub := range s.Places.Subdivisions() {
		if sub.FIPS != "" {
			byISO[sub.Code] = sub.FIPS
		}
	}
	if len(byISO) != 51 {
		t.Errorf("%d US subdivisions with a FIPS code, want the 50 states and DC", len(byISO))
	}
	known := map[uint32]revgeo.Census{
		4931972: {Admin1: "MA", State: "25", County: "017", CountySubdivision: "11000"}, // Cambridge, Middlesex County
		5391811: {Admin1: "CA", State: "06", County: "073"},                             // San Diego, San Diego County
		4887398: {Admin1: "IL", State: "17", County: "031", CountySubdivision: "14000"}, // Chicago, Cook County
		6094817: {Admin1: "08", CSD: "3506008"},                                         // Ottawa
	}
	seen := map[uint32]bool{}
	var usCities, usCoded, caCities, caCoded int
	for _, p := range s.IPGeo.All() {
		if p.City.GeonameID == 0 || p.Country.Code != "US" && p.Country.Code != "CA" {
			continue
		}
		c, ok := s.Census(&p)
		if w, isKnown := known[p.City.GeonameID]; isKnown {
			seen[p.City.GeonameID] = true
			if !ok || c != w {
				t.Errorf("%v (city %d): %+v, %v; want %+v", p.Network, p.City.GeonameID, c, ok, w)
			}
		}
		if p.Country.Code == "CA" {
			caCities++
			if ok {
				caCoded++
			}
			continue
		}
		usCities++
		if !ok {
			continue
		}
		usCoded++
		if want := byISO[p.Subdivision(0).Code]; c.State != want {
			t.Fatalf("%v in %s: state %q, the reference %q", p.Network, p.Subdivision(0).Code, c.State, want)
		}
		if len(c.County) != 3 || c.CountySubdivision != "" && len(c.CountySubdivision) != 5 || c.CSD != "" {
			t.Fatalf("%v: %+v", p.Network, c)
		}
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("no network of the data is placed in city %d any more", id)
		}
	}
	t.Logf("US networks with a city: %d, with FIPS codes %d (%.1f%%); Canadian: %d, with a CSD code %d",
		usCities, usCoded, 100*float64(usCoded)/float64(usCities), caCities, caCoded)
	if usCoded < usCities*8/10 {
		t.Errorf("only %d of %d US networks with a city have FIPS codes", usCoded, usCities)
	}
	if caCoded == 0 {
		t.Error("no Canadian network has a census subdivision code")
	}
}
