package ipgeo

import "strings"

// subParents is the data's subdivision hierarchy: for each subdivision that the records name
// only second, below one other (Barnet below England, the province of Barcelona below
// Catalonia), that other, by the second one's GeoNames id and by its ISO 3166-2 code; and
// every subdivision the records name, by either.
type subParents struct {
	first  map[uint32]bool // GeoNames ids of subdivisions some record names first
	byID   map[uint32]Area
	byCode map[string]Area // "ES-B"
	subs   map[uint32]Area // every subdivision with a GeoNames id, by it
	codes  map[string]Area // every subdivision whose code no other subdivision has, by it
}

// indexSubdivisionParents fills db.parents from the records. A subdivision that some record
// names first is a first-level one and has no parent; one that records place below two
// different subdivisions has none either.
func (db *DB) indexSubdivisionParents() {
	type link struct {
		child  uint32
		parent Area
	}
	first := map[uint32]bool{}
	byID := map[uint32]Area{}
	byCode := map[string]link{}
	ambiguous := map[uint32]bool{}
	all := map[uint32]Area{}
	codes := map[string]Area{}
	sharedCode := map[string]bool{}
	for i := range db.records {
		r := &db.records[i]
		if r.nSub == 0 {
			continue
		}
		subs := db.subdivs[r.sub : r.sub+uint32(r.nSub)]
		for _, a := range subs {
			if a.GeonameID != 0 {
				all[a.GeonameID] = a
			}
			if c, ok := codes[a.Code]; ok && c.GeonameID != a.GeonameID {
				sharedCode[a.Code] = true
			}
			codes[a.Code] = a
		}
		first[subs[0].GeonameID] = true
		if len(subs) < 2 || subs[0].GeonameID == 0 || subs[1].GeonameID == 0 {
			continue
		}
		child, parent := subs[1], subs[0]
		if p, ok := byID[child.GeonameID]; ok && p.GeonameID != parent.GeonameID {
			ambiguous[child.GeonameID] = true
		}
		byID[child.GeonameID] = parent
		if child.Code != "" { // ISO 3166-2, with the country: "GB-BNE"
			byCode[child.Code] = link{child.GeonameID, parent}
		}
	}
	for code := range sharedCode {
		delete(codes, code)
	}
	delete(codes, "")
	p := subParents{first: first, byID: map[uint32]Area{}, byCode: map[string]Area{}, subs: all, codes: codes}
	for id, a := range byID {
		if !first[id] && !ambiguous[id] {
			p.byID[id] = a
		}
	}
	for code, l := range byCode {
		if _, ok := p.byID[l.child]; ok {
			p.byCode[code] = l.parent
		}
	}
	db.parents = p
}

// ParentSubdivision returns the first-level subdivision above a second-level one, given by
// its GeoNames id or, where the id is unknown to the data, its ISO 3166-2 code ("GB-BNE"),
// as the data's records nest them: England above the London Borough of Barnet, Catalonia
// above the province of Barcelona. It reports false for a first-level subdivision and for
// one the data does not place below exactly one other. Other data whose first level is finer
// than ISO's (Natural Earth's admin-1 in Britain, France, Spain, Italy) can so name the
// principal subdivision as geolocation does.
func (db *DB) ParentSubdivision(geonameID uint32, isoCode string) (Area, bool) {
	if db == nil || db.parents.first[geonameID] && geonameID != 0 {
		return Area{}, false
	}
	if p, ok := db.parents.byID[geonameID]; ok {
		return p, true
	}
	p, ok := db.parents.byCode[strings.ToUpper(isoCode)]
	return p, ok
}

// SubdivisionByID returns the subdivision that the data's records name with the GeoNames id
// id, first- or second-level, and reports whether there is one. Cities and countries, which
// AreaByGeonameID finds too, are not subdivisions.
func (db *DB) SubdivisionByID(id uint32) (Area, bool) {
	if db == nil || id == 0 {
		return Area{}, false
	}
	a, ok := db.parents.subs[id]
	return a, ok
}

// SubdivisionByCode returns the subdivision that the data's records name with the ISO 3166-2
// code ("IE-L", matched case-insensitively), first- or second-level, and reports whether
// there is exactly one: a code the records give two GeoNames ids is no one's.
func (db *DB) SubdivisionByCode(code string) (Area, bool) {
	if db == nil || code == "" {
		return Area{}, false
	}
	a, ok := db.parents.codes[strings.ToUpper(code)]
	return a, ok
}

// IsFirstLevel reports whether some record of the data names the subdivision with GeoNames
// id id first, as its principal subdivision (England, Leinster; not Barnet or Meath).
func (db *DB) IsFirstLevel(id uint32) bool {
	return db != nil && id != 0 && db.parents.first[id]
}
