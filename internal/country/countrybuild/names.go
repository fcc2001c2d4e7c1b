package countrybuild

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/ipatlas/ipatlas/internal/locale"
)

// localisedNames computes every country's Names map from the CLDR territory names.
//
// CLDR resolves a locale's missing names through its parent, which is the truncation
// ("de-AT" → "de") unless parentLocales says otherwise ("en-GB" → "en-001", "zh-Hant" → root).
// The DB only knows truncation, and should not store what a parent already says. So each
// locale, shallowest first, stores a name exactly when the name CLDR resolves for it differs
// from what the truncation walk over the already stored names would give. Looking up any
// stored locale by truncation then yields CLDR's own resolution.
//
// Requests such as "zh-TW" name no CLDR locale but a region whose likely script differs from
// the language's default (likelySubtags: "zh-TW" → "zh-Hant-TW"). For those, an alias locale
// "zh-TW" is added with the names of the CLDR locale they resolve to ("zh-Hant"), so that the
// truncation walk does not end at Simplified Chinese.
//
// It returns alpha-2 → locale → name, and the number of locales that hold at least one name.
func localisedNames(codes []string, ln localeNames, parents, likely map[string]string) (map[string]map[string]string, int) {
	cldrParent := func(loc string) string {
		if p, ok := parents[loc]; ok {
			return p
		}
		if i := strings.LastIndexByte(loc, '-'); i > 0 {
			return loc[:i]
		}
		return "root"
	}
	resolved := func(loc, code string) string {
		for depth := 0; loc != "root" && loc != "" && depth < 10; depth++ {
			if n, ok := ln.Territories[loc][code]; ok {
				return n
			}
			loc = cldrParent(loc)
		}
		return ""
	}

	// target is the CLDR locale whose names a locale shows: itself, or an alias's target.
	target := map[string]string{}
	for loc := range ln.Territories {
		target[loc] = loc
	}
	for alias, t := range locale.ScriptAliases(likely, func(l string) bool { return ln.Territories[l] != nil }) {
		target[alias] = t
	}
	locales := slices.SortedFunc(maps.Keys(target), func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.Count(a, "-"), strings.Count(b, "-")), strings.Compare(a, b))
	})

	out := make(map[string]map[string]string, len(codes))
	used := map[string]bool{}
	for _, code := range codes {
		names := map[string]string{}
		for _, loc := range locales {
			v := resolved(target[loc], code)
			if v == "" {
				continue
			}
			inherited := ""
			for p := loc; inherited == ""; {
				i := strings.LastIndexByte(p, '-')
				if i <= 0 {
					break
				}
				p = p[:i]
				inherited = names[p]
			}
			if v != inherited {
				names[loc] = v
				used[loc] = true
			}
		}
		out[code] = names
	}
	return out, len(used)
}
