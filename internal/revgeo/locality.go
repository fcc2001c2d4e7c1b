package revgeo

import "strings"

// Area is one entry of the spec's localityInfo: an administrative area the point lies in, or
// an informative (non-administrative) one.
type Area struct {
	Names       Names  // Name(lang) gives the localised name
	Description string // what the area is, in English: "country", "state", "time zone", ...
	ISOName     string // ISO 3166 name, where known
	ISOCode     string // ISO 3166-1 alpha-2 or ISO 3166-2 code, where known
	// AdminLevel is the area's OpenStreetMap admin_level: 2 for a country, 4 for a principal
	// subdivision, 6 for a GeoNames second-order division (the level OpenStreetMap gives
	// counties, districts and départements in most countries). 0 for informative areas.
	AdminLevel int
	// Order ranks all areas of one Place, administrative and informative together, from the
	// largest (1) to the smallest.
	Order      int
	WikidataID string
	GeonameID  int
}

// LocalityInfo is the spec's locality hierarchy: administrative areas and informative ones,
// each ordered from the largest to the smallest.
type LocalityInfo struct {
	Administrative []Area
	Informative    []Area
}

// LocalityInfo returns the place's locality hierarchy, as far as the data supports it:
//
//	order  array           area
//	1      informative     continent
//	2      administrative  country (adminLevel 2)
//	3      informative     time zone
//	4      administrative  principal subdivision (adminLevel 4)
//	5      administrative  GeoNames second-order division (adminLevel 6)
//	6      informative     city (a GeoNames populated place)
//	7      informative     locality, when it is not the city
//
// Areas the place lacks are left out and the orders close up. Country names here are the
// English ones; localised country names belong to the country registry (package country),
// which the API layer uses for them.
func (p Place) LocalityInfo() LocalityInfo {
	var li LocalityInfo
	order := 0
	next := func() int { order++; return order }
	if name := p.Continent(); name != "" {
		li.Informative = append(li.Informative, Area{
			Names: Names{ByLang: []LangName{{Lang: "en", Name: name}}}, Description: "continent", Order: next(),
		})
	}
	if !p.Country.IsZero() {
		li.Administrative = append(li.Administrative, Area{
			Names:       Names{ByLang: []LangName{{Lang: "en", Name: p.Country.Name}}},
			Description: "country", ISOCode: p.Country.Code, AdminLevel: 2, Order: next(),
			GeonameID: p.Country.GeonameID,
		})
	}
	if p.TimeZone != "" {
		li.Informative = append(li.Informative, Area{
			Names: Names{Native: p.TimeZone}, Description: "time zone", Order: next(),
		})
	}
	if s := p.Subdivision; !s.IsZero() {
		a := Area{
			Names: s.Names, Description: strings.ToLower(s.Type), ISOCode: s.Code, AdminLevel: 4,
			Order: next(), WikidataID: s.WikidataID, GeonameID: s.GeonameID,
		}
		if a.Description == "" {
			a.Description = "principal subdivision"
		}
		if s.Code != "" {
			a.ISOName = s.ISOName
		}
		li.Administrative = append(li.Administrative, a)
	}
	if a := p.Admin2; !a.IsZero() {
		li.Administrative = append(li.Administrative, Area{
			Names: Names{Native: a.Name}, Description: "second-order administrative division",
			AdminLevel: 6, Order: next(), GeonameID: a.GeonameID,
		})
	}
	if c := p.City; !c.IsZero() {
		li.Informative = append(li.Informative, Area{
			Names: Names{Native: c.Name}, Description: FeatureDescription(c.FeatureCode), Order: next(), GeonameID: c.GeonameID,
		})
	}
	if l := p.Locality; !l.IsZero() && l.GeonameID != p.City.GeonameID {
		li.Informative = append(li.Informative, Area{
			Names: Names{Native: l.Name}, Description: FeatureDescription(l.FeatureCode), Order: next(), GeonameID: l.GeonameID,
		})
	}
	return li
}
