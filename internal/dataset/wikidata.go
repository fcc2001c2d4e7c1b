package dataset

import (
	"math"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// subdivisionWikidata holds the Wikidata id of each Natural Earth admin-1 feature by its
// GeoNames id, after its country's code: "USQ99" for California. The geolocation data names
// its subdivisions by GeoNames id and has no Wikidata ids; the reverse-geocoding section's
// features have both.
type subdivisionWikidata map[uint32]string

// newSubdivisionWikidata joins the features with a GeoNames id that no other feature
// carries: an id that several carry is a Natural Earth error (Cornwall has the Isles of
// Scilly's), as revgeo's own join by id has it.
func newSubdivisionWikidata(subs []revgeo.Subdivision) subdivisionWikidata {
	carriers := map[int]int{}
	for _, s := range subs {
		carriers[s.GeonameID]++
	}
	w := subdivisionWikidata{}
	for _, s := range subs {
		if s.GeonameID > 0 && s.GeonameID <= math.MaxUint32 && carriers[s.GeonameID] == 1 && s.WikidataID != "" && len(s.CountryCode) == 2 {
			w[uint32(s.GeonameID)] = s.CountryCode + s.WikidataID
		}
	}
	return w
}

// SubdivisionWikidataID returns the Wikidata id of sub, a subdivision of the geolocation
// data in the country with code cc, from the Natural Earth feature of the same GeoNames id
// and country; false where there is none.
func (s *Snapshot) SubdivisionWikidataID(cc string, sub ipgeo.Area) (string, bool) {
	if sub.GeonameID == 0 || len(cc) != 2 {
		return "", false
	}
	e, ok := s.wikidata[sub.GeonameID]
	if !ok || e[:2] != cc {
		return "", false
	}
	return e[2:], true
}
