package dataset

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

func TestSubdivisionWikidataID(t *testing.T) {
	s := &Snapshot{wikidata: newSubdivisionWikidata([]revgeo.Subdivision{
		{CountryCode: "US", Code: "US-IL", GeonameID: 4896861, WikidataID: "Q1204"},
		{CountryCode: "GB", Code: "GB-CON", GeonameID: 2637000, WikidataID: "Q23148"}, // Cornwall, with the Isles of Scilly's id
		{CountryCode: "GB", Code: "GB-IOS", GeonameID: 2637000, WikidataID: "Q180209"},
		{CountryCode: "DE", Code: "DE-BE", GeonameID: 2950157},                // no Wikidata id
		{CountryCode: "FR", Code: "FR-75", WikidataID: "Q90"},                 // no GeoNames id
		{CountryCode: "XK", Code: "", GeonameID: 831053, WikidataID: "Q1246"}, // no ISO code: the id still joins
		{CountryCode: "", Code: "", GeonameID: 1, WikidataID: "Q2"},           // no country
		{CountryCode: "ZA", Code: "ZA-GP", GeonameID: 1085594, WikidataID: "Q133083"},
	})}
	for _, tc := range []struct {
		name, cc string
		id       uint32
		want     string
	}{
		{"joined", "US", 4896861, "Q1204"},
		{"joined without a code", "XK", 831053, "Q1246"},
		{"another country's subdivision", "CA", 4896861, ""},
		{"an id two features carry", "GB", 2637000, ""},
		{"a feature without Wikidata id", "DE", 2950157, ""},
		{"a feature without country", "", 1, ""},
		{"no GeoNames id", "FR", 0, ""},
		{"an id no feature carries", "ZA", 1085595, ""},
	} {
		got, ok := s.SubdivisionWikidataID(tc.cc, ipgeo.Area{GeonameID: tc.id})
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}
