// Package revgeo owns reverse geocoding: it turns coordinates into the country, the
// principal subdivision, the locality and city, a postcode-free locality hierarchy and the
// time zone at that point, for the reverse-geocode endpoints and for "which country is this
// point in" (am-i-roaming).
//
// The build side (package revgeobuild) gathers polygons and populated places from upstream
// sources and hands them to Encode, which computes the point-in-polygon and nearest-place
// indexes and produces the deterministic payload of the snapshot's revgeo section. The serving
// side calls Decode once per snapshot and answers Lookup from the immutable DB.
//
// # How a point is resolved
//
//   - Country: the country polygon that contains the point. Country polygons include
//     territorial waters, so a point just off a coast has that coast's country; a point on the
//     high seas has none. Where no country polygon contains a point on land (a sliver at a
//     border), the subdivision polygon's country is used.
//   - Principal subdivision: the admin-1 polygon of that country that contains the point.
//     Failing that (coastal waters, gaps at a simplified coast), the subdivision of the
//     locality: the polygon that contains the locality, else the one its GeoNames codes name
//     (the subdivision that is its admin-2, by GeoNames id: French départements, Italian
//     provinces; else the one with its admin-1 code); Place.SubdivisionInferred says so.
//   - Locality: the nearest populated place of the point's country within LocalityRadiusKm,
//     preferring one in the point's own subdivision: when the nearest lies in another
//     (Neuilly-sur-Seine, 3 km from the Eiffel Tower but outside Paris), the nearest of the
//     localityCandidates nearest places that lies in it (Paris) is taken. A place's
//     subdivision is the one its GeoNames codes name (its admin-2 is the subdivision, or its
//     admin-1 is the subdivision's code), else the polygon that holds it: the codes come
//     first because the polygons are simplified, and Paris's holds Neuilly.
//   - City: the most populous "city-class" place (see IsCityClass) of the point's country whose
//     urban radius (see UrbanRadiusKm) reaches the point; when there is none, the locality.
//   - Second-order division (Admin2): the GeoNames admin-2 of the locality, when the locality
//     lies in the same principal subdivision as the point and that subdivision is the
//     locality's GeoNames admin-1 (its GeoNames code matches). GeoNames has no admin-2 shapes,
//     so this is an inference, given only when consistent.
//   - Time zone: the IANA time zone polygon that contains the point; over the oceans these are
//     the Etc/GMT±n zones, so every point has one. A point on the border of two zones (a
//     nautical zone's meridian, a land border's vertex) is in the one east of it, or north of
//     an east-west edge, as in every layer (see crosses); one in a sliver that simplifying
//     the shared borders left between zones, in the zone a grid unit away (see zoneAt).
//   - Continent: the country's continent; for a country on several continents, the one its
//     time zone's area names (Europe/…, Asia/…) when that is one of them.
//
// # Values and sharing
//
// Place and everything in it are plain values. Their strings and slices are shared with the DB
// and must be treated as read-only. A DB is immutable and safe for concurrent use; Lookup does
// not allocate.
package revgeo

import (
	"errors"
	"math"
	"strings"

	"github.com/ipatlas/ipatlas/internal/pluscode"
)

// ErrBadCoordinates is returned by Lookup for a latitude outside [-90, 90], a longitude
// outside [-180, 180], or a coordinate that is not a finite number.
var ErrBadCoordinates = errors.New("revgeo: latitude must be a number in [-90, 90] and longitude a number in [-180, 180]")

// ErrFormat reports a revgeo section that Decode cannot accept: truncated, inconsistent, or
// holding values outside their domain. Errors from Decode wrap it; compare with errors.Is.
var ErrFormat = errors.New("revgeo: malformed section")

// Radii of the nearest-place rules, in kilometres.
const (
	// LocalityRadiusKm bounds the locality search: a point farther than this from every
	// populated place of its country has no locality (open sea, deserts, ice).
	LocalityRadiusKm = 30.0

	// localityCandidates is how many of the nearest places are tried for one inside the
	// point's subdivision before the nearest of all is taken.
	localityCandidates = 32

	// A place in the point's subdivision is taken over the nearest place only within
	// localityDetour times the nearest's distance plus localityDetourKm. The subdivision
	// polygons are simplified, so near a border the point's own subdivision is uncertain
	// too: the Eiffel Tower's locality is Paris (4.0 km) rather than Neuilly-sur-Seine
	// (3.4 km), but a point at Gwangmyeong, which Seoul's simplified polygon takes in, is
	// in Gwangmyeong (0 km), not in Seoul's Paripark (6.5 km).
	localityDetour   = 3.0
	localityDetourKm = 1.0

	// CityMinPopulation is the population from which any populated place counts as a city
	// (GeoNames' own "cities15000" threshold).
	CityMinPopulation = 15000

	// cityDensity is the population density, per square kilometre, that UrbanRadiusKm assumes.
	cityDensity = 4000.0

	minUrbanRadiusKm = 2.0
	maxUrbanRadiusKm = 30.0
)

// Country is the country a point lies in.
type Country struct {
	Code       string   // ISO 3166-1 alpha-2, e.g. "AU"
	Name       string   // English short name, e.g. "Australia"
	GeonameID  int      // GeoNames id of the country, 0 if unknown
	Continents []string // continent codes (AF, AN, AS, EU, NA, OC, SA), the main one first
}

// IsZero reports whether c is the zero Country: the point is in no country.
func (c Country) IsZero() bool { return c.Code == "" }

// Subdivision is a first-level subdivision: a Natural Earth admin-1 feature.
type Subdivision struct {
	CountryCode string // ISO 3166-1 alpha-2 of its country
	// Code is the feature's current ISO 3166-2 code, e.g. "AU-NSW": "" where Natural Earth
	// has none, or has one that ISO has withdrawn without a single successor (IS-0, MX-DIF).
	Code string
	// SourceCode is the code as Natural Earth gives it, current or not: other data may use
	// the same withdrawn code (the geolocation data names Paris FR-75, which ISO replaced by
	// FR-75C), so it still joins them. The same as Code where the build had no registry of
	// current codes.
	SourceCode string
	// ISOParent is the ISO 3166-2 code of the subdivision that Code lies in, as ISO nests
	// them ("IE-L", Leinster, above "IE-D", Dublin): "" for a top-level code or where unknown.
	ISOParent string
	// ISOName is the ISO 3166-2 name of Code where the feature is the whole of that
	// subdivision (its native name); "" where several features share the code (Dublin City,
	// Fingal and South Dublin are all IE-D) or there is no code.
	ISOName      string
	Names        Names  // local name and names in Natural Earth's 26 languages
	Type         string // what kind of subdivision, in English, as Natural Earth says: "State"
	WikidataID   string // e.g. "Q3224"; may be empty
	GeonameID    int    // GeoNames id, 0 if unknown
	GeoNamesCode string // GeoNames admin-1 code with its country, e.g. "AU.02"; may be empty
	// FIPS is a US state's FIPS 5-2 code ("06" for California): Natural Earth's FIPS 10-4
	// code of the state (US06) without its country. "" outside the US.
	FIPS string
}

// IsZero reports whether s is the zero Subdivision.
func (s Subdivision) IsZero() bool { return s.CountryCode == "" && s.Names.IsZero() }

// Admin2 is a GeoNames second-order administrative division (a county, district or
// département, depending on the country).
type Admin2 struct {
	CountryCode string // ISO 3166-1 alpha-2
	Admin1      string // GeoNames admin-1 code within the country, e.g. "02"
	Code        string // GeoNames admin-2 code within the admin-1, e.g. "1234"
	Name        string
	GeonameID   int
}

// IsZero reports whether a is the zero Admin2.
func (a Admin2) IsZero() bool { return a.Name == "" && a.GeonameID == 0 }

// Populated is a GeoNames populated place.
type Populated struct {
	GeonameID   int
	Name        string // GeoNames' name, in the local language or its usual English form
	FeatureCode string // GeoNames feature code of class P, e.g. "PPLA"; see FeatureDescription
	CountryCode string // ISO 3166-1 alpha-2
	Admin1      string // GeoNames admin-1 code, e.g. "02"
	Admin2      string
	Admin3      string
	Admin4      string
	Population  int
	Latitude    float64
	Longitude   float64
	DistanceKm  float64 // great-circle distance from the looked-up point; 0 outside a Place
}

// IsZero reports whether p is the zero Populated place: none was found.
func (p Populated) IsZero() bool { return p.GeonameID == 0 && p.Name == "" }

// IsCityClass reports whether p can be a Place's city: a capital (PPLC), a seat of government
// (PPLG), the seat of a first- or second-order division (PPLA, PPLA2), or any place of at least
// CityMinPopulation inhabitants, but never a section of another place (PPLX).
func (p Populated) IsCityClass() bool {
	switch p.FeatureCode {
	case "PPLX":
		return false
	case "PPLC", "PPLG", "PPLA", "PPLA2":
		return true
	}
	return p.Population >= CityMinPopulation
}

// UrbanRadiusKm is how far from its point a city-class place is taken to extend: the radius of
// a disc holding its population at 4,000 inhabitants per km², kept between 2 and 30 km. London
// (8.9 million) reaches 26 km, Bochum (365,000) 5 km, a seat of 5,000 people 2 km.
func (p Populated) UrbanRadiusKm() float64 {
	r := math.Sqrt(float64(p.Population) / (math.Pi * cityDensity))
	return min(max(r, minUrbanRadiusKm), maxUrbanRadiusKm)
}

// Place is what Lookup knows about a point. Fields are zero where the data has nothing: a
// point at sea has no country, subdivision, locality or city, but still a time zone.
type Place struct {
	Latitude, Longitude float64 // the point looked up

	Country     Country
	Subdivision Subdivision
	// SubdivisionInferred is true when no admin-1 polygon of the country contains the point
	// and Subdivision is the locality's (see the package documentation).
	SubdivisionInferred bool
	Admin2              Admin2
	Locality            Populated // the nearest populated place
	City                Populated // the most significant populated place; the locality if none
	TimeZone            string    // IANA time zone, e.g. "Australia/Sydney"
	ContinentCode       string    // AF, AN, AS, EU, NA, OC or SA; "" outside any country
}

// PlusCode returns the point's Open Location Code with 10 digits (a 14 m × 14 m area), e.g.
// "4RRH46J8+PG".
func (p Place) PlusCode() string { return pluscode.Encode(p.Latitude, p.Longitude) }

// Continent returns the English name of the place's continent, "" if none.
func (p Place) Continent() string {
	name, _ := ContinentName(p.ContinentCode)
	return name
}

// ContinentName returns the English name of a two-letter continent code (AF, AN, AS, EU, NA,
// OC, SA) and whether the code is one of them.
func ContinentName(code string) (string, bool) {
	switch code {
	case "AF":
		return "Africa", true
	case "AN":
		return "Antarctica", true
	case "AS":
		return "Asia", true
	case "EU":
		return "Europe", true
	case "NA":
		return "North America", true
	case "OC":
		return "Oceania", true
	case "SA":
		return "South America", true
	}
	return "", false
}

// continentOfZone returns the continent code that an IANA time zone's area names, or "" for
// areas that do not name one (America covers two; Atlantic, Indian and Etc none).
func continentOfZone(tz string) string {
	area, _, ok := strings.Cut(tz, "/")
	if !ok {
		return ""
	}
	switch area {
	case "Africa":
		return "AF"
	case "Antarctica":
		return "AN"
	case "Asia":
		return "AS"
	case "Europe":
		return "EU"
	case "Australia", "Pacific":
		return "OC"
	}
	return ""
}

// FeatureDescription returns GeoNames' English description of a populated-place feature code,
// e.g. "seat of a first-order administrative division" for PPLA, and "populated place" for a
// code it does not know.
func FeatureDescription(code string) string {
	switch code {
	case "PPLA":
		return "seat of a first-order administrative division"
	case "PPLA2":
		return "seat of a second-order administrative division"
	case "PPLA3":
		return "seat of a third-order administrative division"
	case "PPLA4":
		return "seat of a fourth-order administrative division"
	case "PPLA5":
		return "seat of a fifth-order administrative division"
	case "PPLC":
		return "capital of a political entity"
	case "PPLF":
		return "farm village"
	case "PPLG":
		return "seat of government of a political entity"
	case "PPLL":
		return "populated locality"
	case "PPLR":
		return "religious populated place"
	case "PPLS":
		return "populated places"
	case "PPLX":
		return "section of populated place"
	case "STLMT":
		return "israeli settlement"
	}
	return "populated place"
}

// validCoordinates reports whether lat and lon are finite and on the globe.
func validCoordinates(lat, lon float64) bool {
	// NaN fails every comparison, and ±Inf fails the range, so this also checks finiteness.
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}
