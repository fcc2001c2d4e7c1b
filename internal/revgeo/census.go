package revgeo

import "strings"

// Census holds the codes by which the US and Canadian censuses number a populated place's
// area, as GeoNames codes the place: its admin-2 code is a US county's FIPS code and its
// admin-3 code a US county subdivision's, or a Canadian census subdivision's.
type Census struct {
	// Subdivision is the ISO 3166-2 code of the state or province that GeoNames puts the
	// place in ("US-MA", "CA-BC"): the code of the Natural Earth feature that carries the
	// place's GeoNames admin-1 code.
	Subdivision string
	// State, County and CountySubdivision are a US place's FIPS codes: its state's ("25",
	// that feature's FIPS), its county's ("017", the admin-2 code) and its county
	// subdivision's ("11000", the admin-3 code, which GeoNames has for about half of the
	// places, most of them in states whose towns or townships govern); "" where unknown.
	// The county codes are GeoNames': Connecticut's are its eight former counties, which
	// the Census Bureau replaced by nine planning regions in 2022.
	State, County, CountySubdivision string
	// CSD is a Canadian place's census subdivision code ("5941005"): its admin-3 code where
	// that is one, seven digits starting with the four of its census division, the admin-2
	// code. GeoNames codes only some places in British Columbia and Ontario so.
	CSD string
}

// Census returns the census codes of every US place with a state and a county, and every
// Canadian place with a census subdivision, by GeoNames id; a place whose state or province
// no Natural Earth feature with an ISO 3166-2 code carries is left out.
func (db *DB) Census() map[uint32]Census {
	byAdmin1 := map[string]Subdivision{} // "US.MA" → Massachusetts
	for _, s := range db.subs {
		if (s.CountryCode == "US" || s.CountryCode == "CA") && strings.HasPrefix(s.GeoNamesCode, s.CountryCode+".") && s.Code != "" {
			byAdmin1[s.GeoNamesCode] = s
		}
	}
	out := map[uint32]Census{}
	for ci, c := range db.countries {
		if c.Code != "US" && c.Code != "CA" {
			continue
		}
		for _, r := range db.places[db.placeStart[ci]:db.placeStart[ci+1]] {
			sub, ok := byAdmin1[c.Code+"."+db.strs[r.a1]]
			if !ok {
				continue
			}
			a2, a3 := db.strs[r.a2], db.strs[r.a3]
			k := Census{Subdivision: sub.Code}
			switch c.Code {
			case "US":
				k.State = sub.FIPS
				if isDigits(a2, 3) {
					k.County = a2
				}
				if isDigits(a3, 5) {
					k.CountySubdivision = a3
				}
				if k.State == "" || k.County == "" {
					continue
				}
			case "CA":
				if !isDigits(a2, 4) || !isDigits(a3, 7) || !strings.HasPrefix(a3, a2) {
					continue
				}
				k.CSD = a3
			}
			out[r.geonameID] = k
		}
	}
	return out
}

// IsFIPSState reports whether s has the form of a US state's FIPS code: two digits.
func IsFIPSState(s string) bool { return isDigits(s, 2) }

// isDigits reports whether s is n ASCII digits.
func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
