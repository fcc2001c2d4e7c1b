package api

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Reverse geocoding's principal subdivision, presented as geolocation presents it.
//
// The point's subdivision is a Natural Earth admin-1 feature: its polygons are what places
// the point. Its codes and names date from Natural Earth's last edition, and its level is
// not ISO's first in every country (London boroughs, French départements, Irish counties).
// The geolocation data names subdivisions with current codes, in its eight languages, and
// nests the second level below the first. So the feature is matched to the geolocation
// data's subdivision (revgeoMatch), and the answer gives:
//
//   - the matched subdivision's code, and where that is not Natural Earth's own (withdrawn,
//     as MX-DIF, or another subdivision's, as Natural Earth's Iranian codes, which ISO has
//     renumbered since), the geolocation data's names and GeoNames id as well: names as
//     old as the code (Nur-Sultan, Distrito Federal) go with it;
//   - above it, the first level that the geolocation data nests it below (England above
//     Barnet, Munster above Cork); for a feature it does not know, the subdivision that ISO
//     nests its code in (Subdivision.ISOParent), where the geolocation data names that
//     first: Leinster above Dublin City, Fingal and South Dublin, which it never names;
//   - an unmatched feature as Natural Earth has it, with its code only if ISO still has it;
//   - the ISO name of the code (isoName) only where the entry is the whole of that
//     subdivision with Natural Earth's own current code: the feature alone carries the code
//     (Subdivision.ISOName), or it is the one of several whose names agree with the
//     geolocation data's for the code. Fingal is not "Dublin", nor Lord Howe Island
//     "New South Wales".

// revgeoJoin is what the geolocation data says of one Natural Earth feature: the
// subdivision that is the feature (match), the one it nests below (parent), and whether the
// feature is the whole of the subdivision its code names (whole: its names agree with the
// match's). It depends only on the snapshot; see subdivisionJoins.
type revgeoJoin struct {
	match, parent   ipgeo.Area
	matched, nested bool
	whole           bool
}

// sameAs reports whether s, the feature j joins, is the geolocation data's subdivision it
// matches, not a part of it: their names agree (Gauteng, whose code Natural Earth gives as
// the withdrawn ZA-GT, is ZA-GP; Lord Howe Island, which carries AU-NSW, is not New South
// Wales). Its Wikidata id is then the subdivision's.
func (j revgeoJoin) sameAs(s revgeo.Subdivision) bool {
	return j.matched && revgeoNamesAgree(s.Names, j.match)
}

// joinSubdivision finds the revgeoJoin of Natural Earth's feature s in the geolocation data.
func joinSubdivision(geo *ipgeo.DB, s revgeo.Subdivision) revgeoJoin {
	var j revgeoJoin
	j.match, j.matched = revgeoMatch(geo, s)
	switch {
	case j.matched:
		j.parent, j.nested = geo.ParentSubdivision(j.match.GeonameID, j.match.Code)
		// Of the features that share a code (New South Wales and Lord Howe Island are both
		// AU-NSW), the one the geolocation data names as the code's subdivision is the whole
		// of it, and its name the code's ISO name.
		j.whole = j.match.Code == s.Code && s.ISOName == "" && revgeoNamesAgree(s.Names, j.match)
	case s.ISOParent != "":
		j.parent, j.nested = geo.SubdivisionByCode(s.ISOParent)
		j.nested = j.nested && geo.IsFirstLevel(j.parent.GeonameID)
	}
	j.nested = j.nested && strings.HasPrefix(j.parent.Code, s.CountryCode+"-")
	return j
}

// subdivisionJoins holds, for one snapshot (a countryView's), the revgeoJoin of every
// Natural Earth feature, and the Wikidata id that each of the geolocation data's
// subdivisions gets from the feature that is it (sameAs). The joins look at
// every name of every feature, which no request should pay for; all 4 596 take about 7 ms
// when the view is built, and are then only read.
type subdivisionJoins struct {
	joins    map[revgeoJoinKey]revgeoJoin
	wikidata map[uint32]string // the geolocation data's subdivision GeoNames id → Wikidata id
}

// revgeoJoinKey tells Natural Earth's features apart: every other field the join reads
// follows from these.
type revgeoJoinKey struct {
	country, code, native string
	geonameID             int
}

func joinKey(s revgeo.Subdivision) revgeoJoinKey {
	return revgeoJoinKey{s.CountryCode, s.SourceCode, s.Names.Native, s.GeonameID}
}

// newSubdivisionJoins joins every feature of places to geo. A subdivision that several
// features with different Wikidata ids are (Dublin City and South Dublin both name Dublin)
// gets none.
func newSubdivisionJoins(geo *ipgeo.DB, places *revgeo.DB) subdivisionJoins {
	c := subdivisionJoins{joins: map[revgeoJoinKey]revgeoJoin{}, wikidata: map[uint32]string{}}
	if places == nil {
		return c
	}
	ambiguous := map[uint32]bool{}
	for _, s := range places.Subdivisions() {
		j := joinSubdivision(geo, s)
		c.joins[joinKey(s)] = j
		if !j.sameAs(s) || s.WikidataID == "" || j.match.GeonameID == 0 {
			continue
		}
		if w, seen := c.wikidata[j.match.GeonameID]; seen && w != s.WikidataID {
			ambiguous[j.match.GeonameID] = true
		}
		c.wikidata[j.match.GeonameID] = s.WikidataID
	}
	for id := range ambiguous {
		delete(c.wikidata, id)
	}
	return c
}

// of returns the revgeoJoin of s; the zero join, which places s nowhere, for a feature the
// snapshot does not have (the zero Subdivision of a point in none).
func (c subdivisionJoins) of(s revgeo.Subdivision) revgeoJoin { return c.joins[joinKey(s)] }

// wikidataID returns the Wikidata id of the geolocation data's subdivision sub: that of the
// Natural Earth feature that is it. Natural
// Earth's GeoNames ids alone would give wrong ones where they are wrong (Guyana's regions,
// Eritrea's, which revgeoMatch's names check catches).
func (c subdivisionJoins) wikidataID(sub ipgeo.Area) (string, bool) {
	if sub.GeonameID == 0 {
		return "", false
	}
	w, ok := c.wikidata[sub.GeonameID]
	return w, ok
}

// revgeoPrincipal presents Natural Earth's feature s, the principal subdivision (adminLevel 4)
// of li, as described above, given its join j, in lang. It returns li so changed and the
// principal subdivision's name and code, "" for a point in no subdivision.
func revgeoPrincipal(j revgeoJoin, s revgeo.Subdivision, li revgeo.LocalityInfo, lang string) (revgeo.LocalityInfo, string, string) {
	i := slices.IndexFunc(li.Administrative, func(a revgeo.Area) bool { return a.AdminLevel == 4 })
	if i < 0 || s.IsZero() {
		return li, "", ""
	}
	sub := &li.Administrative[i] // LocalityInfo's slices are the caller's own
	if m := j.match; j.matched {
		sub.ISOCode = m.Code
		switch {
		case m.Code != s.Code && m.Code != s.SourceCode:
			sub.ISOName, sub.GeonameID = "", int(m.GeonameID)
			if name, ok := m.Names.Name(lang); ok {
				sub.Names, sub.Description = revgeo.NewNames(name, nil), "principal subdivision"
			}
		case j.whole:
			sub.ISOName = s.Names.Native
		}
	}
	if j.nested {
		if name, ok := j.parent.Names.Name(lang); ok {
			li = revgeoNest(li, revgeoArea{name: name, description: "principal subdivision", isoCode: j.parent.Code, adminLevel: 4, geonameID: int(j.parent.GeonameID)})
			return li, name, j.parent.Code
		}
	}
	return li, sub.Names.Name(lang), sub.ISOCode
}

// revgeoMatch returns the geolocation data's subdivision that is Natural Earth's feature s,
// and reports whether there is one:
//
//   - the one that s's GeoNames id and ISO code both find;
//   - where they find two, the one whose names agree with s's (revgeoNamesAgree), the code's
//     where both or neither do: Natural Earth gives Tehran IR-07, Fars's code since ISO
//     renumbered Iran's provinces, and Cornwall the Isles of Scilly's id;
//   - the one s's code finds: its current code, else its code as Natural Earth gives it
//     (the geolocation data still names Paris FR-75);
//   - the one s's id finds, if its names agree with s's: Natural Earth's ids are wrong now
//     and then (Chitipa carries Karonga's, Northern Red Sea Anseba's), and where no code
//     confirms an id, the names must.
func revgeoMatch(geo *ipgeo.DB, s revgeo.Subdivision) (ipgeo.Area, bool) {
	var byID ipgeo.Area
	idOK := false
	if s.GeonameID > 0 && s.GeonameID <= math.MaxUint32 {
		byID, idOK = geo.SubdivisionByID(uint32(s.GeonameID))
		idOK = idOK && strings.HasPrefix(byID.Code, s.CountryCode+"-")
	}
	byCode, codeOK := geo.SubdivisionByCode(s.Code)
	if !codeOK && s.SourceCode != s.Code {
		byCode, codeOK = geo.SubdivisionByCode(s.SourceCode)
	}
	switch {
	case idOK && codeOK && byID.GeonameID != byCode.GeonameID:
		if revgeoNamesAgree(s.Names, byID) && !revgeoNamesAgree(s.Names, byCode) {
			return byID, true
		}
		return byCode, true
	case codeOK:
		return byCode, true
	case idOK && revgeoNamesAgree(s.Names, byID):
		return byID, true
	}
	return ipgeo.Area{}, false
}

// revgeoNamesAgree reports whether one of Natural Earth's names of a feature (its native name
// and those in its 26 languages) and one of the geolocation data's names of a subdivision
// (in its eight) are the same words, or the words of one run within the other's, letters
// compared without case or accents: "West Azerbaijan" and "West Azerbaijan Province",
// "Bogotá" and "Bogota D.C.", "Astana" and "Astana"; not "Chitipa" and "Karonga District".
func revgeoNamesAgree(n revgeo.Names, a ipgeo.Area) bool {
	var theirs [ipgeo.NumLanguages][]string
	for i := range theirs {
		theirs[i] = foldWords(a.Names.Get(i))
	}
	agrees := func(name string) bool {
		ours := foldWords(name)
		for _, t := range theirs {
			if len(ours) > 0 && len(t) > 0 && (containsRun(t, ours) || containsRun(ours, t)) {
				return true
			}
		}
		return false
	}
	if agrees(n.Native) {
		return true
	}
	return slices.ContainsFunc(n.ByLang, func(ln revgeo.LangName) bool { return agrees(ln.Name) })
}

// foldWords splits s into its words of letters and digits, lower-cased, accents removed:
// "Bogotá D.C." → [bogota d c].
func foldWords(s string) []string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return words
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
