package dataset_test

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// fipsStates is FIPS 5-2 (INCITS 38), typed in from the Census Bureau's table: the
// reference for the state codes, which the snapshot has from Natural Earth.
var fipsStates = map[string]string{
	"US-AL": "01", "US-AK": "02", "US-AZ": "04", "US-AR": "05", "US-CA": "06", "US-CO": "08",
	"US-CT": "09", "US-DE": "10", "US-DC": "11", "US-FL": "12", "US-GA": "13", "US-HI": "15",
	"US-ID": "16", "US-IL": "17", "US-IN": "18", "US-IA": "19", "US-KS": "20", "US-KY": "21",
	"US-LA": "22", "US-ME": "23", "US-MD": "24", "US-MA": "25", "US-MI": "26", "US-MN": "27",
	"US-MS": "28", "US-MO": "29", "US-MT": "30", "US-NE": "31", "US-NV": "32", "US-NH": "33",
	"US-NJ": "34", "US-NM": "35", "US-NY": "36", "US-NC": "37", "US-ND": "38", "US-OH": "39",
	"US-OK": "40", "US-OR": "41", "US-PA": "42", "US-RI": "44", "US-SC": "45", "US-SD": "46",
	"US-TN": "47", "US-TX": "48", "US-UT": "49", "US-VT": "50", "US-VA": "51", "US-WA": "53",
	"US-WV": "54", "US-WI": "55", "US-WY": "56",
}

// sgcProvinces are Statistics Canada's province and territory codes, with which every
// census subdivision code of the province starts.
var sgcProvinces = map[string]string{
	"CA-NL": "10", "CA-PE": "11", "CA-NS": "12", "CA-NB": "13", "CA-QC": "24", "CA-ON": "35",
	"CA-MB": "46", "CA-SK": "47", "CA-AB": "48", "CA-BC": "59", "CA-YT": "60", "CA-NT": "61",
	"CA-NU": "62",
}

// TestRealCensus checks the census join over every US and Canadian network of the real
// geolocation data: each state's FIPS code against FIPS 5-2 for the place's ISO 3166-2
// code, each census subdivision code against its province's number, the codes' forms, how
// many cities get codes, and a few cities checked by hand against the Census Bureau's and
// Statistics Canada's numbers.
func TestRealCensus(t *testing.T) {
	s := datasettest.Real(t)
	stateFIPS := 0
	for _, sub := range s.Places.Subdivisions() {
		if sub.FIPS == "" {
			continue
		}
		stateFIPS++
		if want := fipsStates[sub.Code]; sub.FIPS != want {
			t.Errorf("%s: FIPS %q, want %q", sub.Code, sub.FIPS, want)
		}
	}
	if stateFIPS != len(fipsStates) {
		t.Errorf("%d US subdivisions with a FIPS code, want the 50 states and DC", stateFIPS)
	}
	known := map[uint32]revgeo.Census{
		4931972: {Subdivision: "US-MA", State: "25", County: "017", CountySubdivision: "11000"}, // Cambridge, Middlesex County
		5391811: {Subdivision: "US-CA", State: "06", County: "073"},                             // San Diego, San Diego County
		4887398: {Subdivision: "US-IL", State: "17", County: "031", CountySubdivision: "14000"}, // Chicago, Cook County
		6094817: {Subdivision: "CA-ON", CSD: "3506008"},                                         // Ottawa
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
				if sgc := sgcProvinces[p.Subdivision(0).Code]; c.CSD[:2] != sgc || c.State != "" {
					t.Fatalf("%v in %s: %+v, want a census subdivision of province %s", p.Network, p.Subdivision(0).Code, c, sgc)
				}
			}
			continue
		}
		usCities++
		if !ok {
			continue
		}
		usCoded++
		if want := fipsStates[p.Subdivision(0).Code]; c.State != want || c.Subdivision != p.Subdivision(0).Code {
			t.Fatalf("%v in %s: %+v, want state %q", p.Network, p.Subdivision(0).Code, c, want)
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
