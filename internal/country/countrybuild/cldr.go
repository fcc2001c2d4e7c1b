package countrybuild

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// This file parses cldr-core: the supplemental data files (territoryInfo, aliases,
// codeMappings, currencyData; parentLocales and likelySubtags are read by package locale).
// Each parser reads one file.

// readJSON decodes the JSON file name of fsys into v.
func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// langShare is one language spoken in a territory, from territoryInfo.json.
type langShare struct {
	Code    string  // CLDR language code, possibly with a script: "en", "zh_Hant", "fil"
	Percent float64 // share of the population that speaks it
	Status  string  // _officialStatus: "", "official", "de_facto_official", "official_regional", ...
}

// administrative reports whether the language has national official status in the
// territory: "official" or "de_facto_official" (see languageResolver.admin).
func (s langShare) administrative() bool {
	return s.Status == "official" || s.Status == "de_facto_official"
}

// cldrTerritoryInfo is what Build takes from territoryInfo.json.
type cldrTerritoryInfo struct {
	Version   string                 // CLDR version, e.g. "48"
	Languages map[string][]langShare // by territory code, in file order
}

// parseTerritoryInfo reads supplemental/territoryInfo.json.
func parseTerritoryInfo(fsys fs.FS) (cldrTerritoryInfo, error) {
	var raw struct {
		Supplemental struct {
			Version struct {
				CLDR string `json:"_cldrVersion"`
			} `json:"version"`
			TerritoryInfo map[string]struct {
				LanguagePopulation map[string]struct {
					Percent string `json:"_populationPercent"`
					Status  string `json:"_officialStatus"`
				} `json:"languagePopulation"`
			} `json:"territoryInfo"`
		} `json:"supplemental"`
	}
	const name = "supplemental/territoryInfo.json"
	if err := readJSON(fsys, name, &raw); err != nil {
		return cldrTerritoryInfo{}, err
	}
	out := cldrTerritoryInfo{Version: raw.Supplemental.Version.CLDR, Languages: map[string][]langShare{}}
	for terr, info := range raw.Supplemental.TerritoryInfo {
		for code, lp := range info.LanguagePopulation {
			p, err := strconv.ParseFloat(lp.Percent, 64)
			if err != nil {
				return cldrTerritoryInfo{}, fmt.Errorf("%s: %s/%s: population percent %q", name, terr, code, lp.Percent)
			}
			out.Languages[terr] = append(out.Languages[terr], langShare{Code: code, Percent: p, Status: lp.Status})
		}
	}
	if len(out.Languages) == 0 {
		return cldrTerritoryInfo{}, fmt.Errorf("%s: no territories", name)
	}
	return out, nil
}

// parseAlpha3Languages reads supplemental/aliases.json and returns, for each ISO 639-1 code,
// its ISO 639-2/T (terminology) code. CLDR lists every three-letter code that has a two-letter
// equivalent as a languageAlias with reason "overlong" (the terminology codes, "deu" → "de")
// or "bibliographic" ("ger" → "de"); only the former are ISO 639-2/T. Where two overlong codes
// share a replacement (CLDR also maps the retired "mol" to "ro", and "twi" to "ak"), the one
// that starts like the two-letter code wins, then the alphabetically first.
func parseAlpha3Languages(fsys fs.FS) (map[string]string, error) {
	var raw struct {
		Supplemental struct {
			Metadata struct {
				Alias struct {
					LanguageAlias map[string]struct {
						Reason      string `json:"_reason"`
						Replacement string `json:"_replacement"`
					} `json:"languageAlias"`
				} `json:"alias"`
			} `json:"metadata"`
		} `json:"supplemental"`
	}
	const name = "supplemental/aliases.json"
	if err := readJSON(fsys, name, &raw); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for code, a := range raw.Supplemental.Metadata.Alias.LanguageAlias {
		if a.Reason != "overlong" || !isLower(code, 3) || !isLower(a.Replacement, 2) {
			continue
		}
		if prev, ok := out[a.Replacement]; ok && alpha3Better(prev, code, a.Replacement) {
			continue
		}
		out[a.Replacement] = code
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no overlong language aliases", name)
	}
	return out, nil
}

// alpha3Better reports whether a is preferred over b as the alpha-3 code of alpha2.
func alpha3Better(a, b, alpha2 string) bool {
	if (a[0] == alpha2[0]) != (b[0] == alpha2[0]) {
		return a[0] == alpha2[0]
	}
	return a < b
}

// codeMapping is a territory's alpha-3 and numeric code from codeMappings.json.
type codeMapping struct {
	Alpha3  string
	Numeric int // 0 if CLDR has none
}

// parseCodeMappings reads supplemental/codeMappings.json, keyed by two-letter territory code.
func parseCodeMappings(fsys fs.FS) (map[string]codeMapping, error) {
	var raw struct {
		Supplemental struct {
			CodeMappings map[string]struct {
				Numeric string `json:"_numeric"`
				Alpha3  string `json:"_alpha3"`
			} `json:"codeMappings"`
		} `json:"supplemental"`
	}
	const name = "supplemental/codeMappings.json"
	if err := readJSON(fsys, name, &raw); err != nil {
		return nil, err
	}
	out := map[string]codeMapping{}
	for code, m := range raw.Supplemental.CodeMappings {
		if !isUpper(code, 2) {
			continue // numeric region codes such as "001"
		}
		cm := codeMapping{Alpha3: m.Alpha3}
		if m.Numeric != "" {
			n, err := strconv.Atoi(m.Numeric)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: numeric %q", name, code, m.Numeric)
			}
			cm.Numeric = n
		}
		out[code] = cm
	}
	return out, nil
}

// parseRegionCurrencies reads supplemental/currencyData.json and returns each territory's
// current legal tenders: the entries without an end date ("_to") that are not marked
// "_tender": "false", in CLDR's order, whose first entry is the territory's default currency.
func parseRegionCurrencies(fsys fs.FS) (map[string][]string, error) {
	var raw struct {
		Supplemental struct {
			CurrencyData struct {
				Region map[string][]map[string]struct {
					To     string `json:"_to"`
					Tender string `json:"_tender"`
				} `json:"region"`
			} `json:"currencyData"`
		} `json:"supplemental"`
	}
	const name = "supplemental/currencyData.json"
	if err := readJSON(fsys, name, &raw); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for terr, entries := range raw.Supplemental.CurrencyData.Region {
		for _, e := range entries {
			for code, c := range e { // each entry is a one-key object
				if c.To == "" && c.Tender != "false" {
					out[terr] = append(out[terr], code)
				}
			}
		}
	}
	if len(raw.Supplemental.CurrencyData.Region) == 0 {
		return nil, fmt.Errorf("%s: no regions", name)
	}
	return out, nil
}

// localeNames is what Build takes from cldr-localenames-full.
type localeNames struct {
	// Territories maps locale → territory code → name, for the plain (non-"alt") names.
	Territories map[string]map[string]string
	// Alt holds the English alternative names ("CD-alt-variant" → "Congo (DRC)"), which help
	// match ISO names to codes.
	Alt map[string][]string
}

// parseLocaleTerritories reads main/<locale>/territories.json for every locale that has one.
func parseLocaleTerritories(fsys fs.FS) (localeNames, error) {
	dirs, err := fs.ReadDir(fsys, "main")
	if err != nil {
		return localeNames{}, err
	}
	out := localeNames{Territories: map[string]map[string]string{}, Alt: map[string][]string{}}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		loc := d.Name()
		var raw struct {
			Main map[string]struct {
				LocaleDisplayNames struct {
					Territories map[string]string `json:"territories"`
				} `json:"localeDisplayNames"`
			} `json:"main"`
		}
		err := readJSON(fsys, path.Join("main", loc, "territories.json"), &raw)
		if errors.Is(err, fs.ErrNotExist) {
			continue // some locales carry no display names at all
		}
		if err != nil {
			return localeNames{}, err
		}
		names := map[string]string{}
		for key, name := range raw.Main[loc].LocaleDisplayNames.Territories {
			code, alt, isAlt := strings.Cut(key, "-alt-")
			switch {
			case !isUpper(code, 2) || name == "" || name == code:
				// region codes ("001"), and empty or code-as-name placeholders
			case isAlt:
				if loc == "en" && alt != "" {
					out.Alt[code] = append(out.Alt[code], name)
				}
			default:
				names[code] = name
			}
		}
		out.Territories[loc] = names
	}
	for _, v := range out.Alt {
		slices.Sort(v)
	}
	if len(out.Territories["en"]) == 0 {
		return localeNames{}, errors.New("main/en/territories.json: no names")
	}
	return out, nil
}

// parseLanguageNames reads main/<locale>/languages.json and returns its language names, or
// nil if the locale has none.
func parseLanguageNames(fsys fs.FS, locale string) (map[string]string, error) {
	var raw struct {
		Main map[string]struct {
			LocaleDisplayNames struct {
				Languages map[string]string `json:"languages"`
			} `json:"localeDisplayNames"`
		} `json:"main"`
	}
	err := readJSON(fsys, path.Join("main", locale, "languages.json"), &raw)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return raw.Main[locale].LocaleDisplayNames.Languages, nil
}

func isUpper(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func isLower(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
