package dataset

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

func TestCensusJoin(t *testing.T) {
	cambridge := revgeo.Census{Subdivision: "US-MA", State: "25", County: "017", CountySubdivision: "11000"}
	mountainView := revgeo.Census{Subdivision: "US-CA", State: "06", County: "085"}
	burnaby := revgeo.Census{Subdivision: "CA-BC", CSD: "5915025"}
	s := &Snapshot{census: newCensusJoin(map[uint32]revgeo.Census{4931972: cambridge, 5375480: mountainView, 5911606: burnaby})}
	place := func(country, sub string, city uint32) *ipgeo.Place {
		p := &ipgeo.Place{Country: ipgeo.Area{Code: country}, City: ipgeo.Area{GeonameID: city}}
		if sub != "" {
			p.Subdivisions = []ipgeo.Area{{Code: sub}}
		}
		return p
	}
	for _, tc := range []struct {
		name string
		p    *ipgeo.Place
		want revgeo.Census
		ok   bool
	}{
		{"a US city", place("US", "US-MA", 4931972), cambridge, true},
		{"a US city without a county subdivision", place("US", "US-CA", 5375480), mountainView, true},
		{"a Canadian city", place("CA", "CA-BC", 5911606), burnaby, true},
		{"a Canadian city without a subdivision", place("CA", "", 5911606), revgeo.Census{}, false},
		{"another province than GeoNames'", place("CA", "CA-AB", 5911606), revgeo.Census{}, false},
		{"another state than GeoNames'", place("US", "US-NH", 4931972), revgeo.Census{}, false},
		{"no state", place("US", "", 4931972), revgeo.Census{}, false},
		{"a state code that only starts alike", place("US", "US-MAX", 4931972), revgeo.Census{}, false},
		{"another country", place("GB", "GB-CAM", 4931972), revgeo.Census{}, false},
		{"a CSD outside Canada", place("US", "US-WA", 5911606), revgeo.Census{}, false},
		{"a city the censuses do not number", place("US", "US-MA", 1), revgeo.Census{}, false},
		{"no city", place("US", "US-MA", 0), revgeo.Census{}, false},
	} {
		got, ok := s.Census(tc.p)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (&Snapshot{}).Census(place("US", "US-MA", 4931972)); ok {
		t.Error("a snapshot without the join found census codes")
	}
}
