package dataset

import (
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// censusJoin is revgeo.DB.Census packed for the geolocation answer's path, which reads
// one entry per US or Canadian answer, mostly from memory no cache holds: each value is one
// string of the codes side by side, so that an entry is the map's slot and one line of
// text, where the five strings of a revgeo.Census lie all over the section's string table.
type censusJoin map[uint32]string

// Each packed entry is the ISO 3166-2 code of the place's state or province (five
// characters, as every US state's and Canadian province's is), then "U" and a US place's
// state, county and (where known) county subdivision codes, or "C" and a Canadian place's
// census subdivision code: "US-MAU2501711000", "CA-BCC5915025".
const censusSubLen = len("US-MA")

func newCensusJoin(codes map[uint32]revgeo.Census) censusJoin {
	j := make(censusJoin, len(codes))
	for id, c := range codes {
		if len(c.Subdivision) != censusSubLen {
			continue
		}
		if c.CSD != "" {
			j[id] = c.Subdivision + "C" + c.CSD
		} else {
			j[id] = c.Subdivision + "U" + c.State + c.County + c.CountySubdivision
		}
	}
	return j
}

// unpackCensus returns a packed entry as a revgeo.Census, its strings slices of the entry's.
func unpackCensus(e string) revgeo.Census {
	c := revgeo.Census{Subdivision: e[:censusSubLen]}
	codes := e[censusSubLen+1:]
	if e[censusSubLen] == 'C' {
		c.CSD = codes
		return c
	}
	c.State, c.County, c.CountySubdivision = codes[:2], codes[2:5], codes[5:]
	return c
}

// Census returns the census codes of p's city (revgeo.Census): a US city's FIPS codes, a
// Canadian one's census subdivision. The geolocation data names its cities by GeoNames id,
// and GeoNames codes the same places with the censuses' numbers, so the two sections join
// by that id.
//
// It reports false where the city has none, and where the two disagree about where it is:
// in another country, or in another state or province than the geolocation data's first
// subdivision, so that an answer never names a state's FIPS code, or a census subdivision
// of one province, beside another.
func (s *Snapshot) Census(p *ipgeo.Place) (revgeo.Census, bool) {
	// Only US and Canadian cities have any, and every geolocation answer asks.
	if p.City.GeonameID == 0 || p.Country.Code != "US" && p.Country.Code != "CA" || len(s.census) == 0 {
		return revgeo.Census{}, false
	}
	e, ok := s.census[p.City.GeonameID]
	// A subdivision's code starts with its country's, so one comparison checks both.
	if !ok || e[:censusSubLen] != p.Subdivision(0).Code {
		return revgeo.Census{}, false
	}
	return unpackCensus(e), true
}
