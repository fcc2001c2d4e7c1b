// Package locale owns what the service decides about locale identifiers in one place: which
// CLDR locale a language-region tag that names none should show (for the data builders),
// which script of Chinese a request's tag asks for (for every engine that keeps Simplified
// and Traditional names apart), and which language a withdrawn ISO 639 code ("iw") means.
package locale

import "strings"

// ScriptAliases returns, for every language-region tag to which CLDR's likelySubtags gives a
// script other than its language's default ("zh-TW" → "zh-Hant-TW", where "zh" →
// "zh-Hans-CN"), the CLDR locale whose data the tag should show: the likely locale itself
// when has reports it, else language-script ("zh-Hant"). Without the alias a lookup that
// truncates "zh-TW" to "zh" would answer in Simplified Chinese. Tags that are locales of
// their own (has reports them) and tags whose locale has no data are left out.
func ScriptAliases(likely map[string]string, has func(locale string) bool) map[string]string {
	out := map[string]string{}
	for from, to := range likely {
		lang, region, ok := strings.Cut(from, "-")
		if !ok || strings.Contains(region, "-") || lang == "und" || !isRegion(region) || has(from) {
			continue
		}
		parts := strings.Split(to, "-")
		if len(parts) != 3 || parts[0] != lang || parts[2] != region {
			continue
		}
		script := parts[1]
		if def := strings.Split(likely[lang], "-"); len(def) < 2 || def[1] == script {
			continue
		}
		switch {
		case has(to):
			out[from] = to
		case has(lang + "-" + script):
			out[from] = lang + "-" + script
		}
	}
	return out
}

// isRegion reports whether s is a region subtag: two upper-case letters or three digits.
func isRegion(s string) bool {
	switch len(s) {
	case 2:
		return 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
	case 3:
		for i := range 3 {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// MaxTagLen bounds the language tags the service looks at: a BCP 47 tag with language,
// script and region is at most 11 bytes, and 35 leaves room for variants. Longer is no tag.
const MaxTagLen = 35

// TraditionalChinese reports whether the subtags after a "zh" language subtag ("-Hant",
// "-TW", "_Hant_HK"; any case, "-" or "_") ask for Traditional Chinese: the Hant script,
// or, without the Hans script, the region TW, HK or MO, to which CLDR's likelySubtags give
// Hant (the aliases of ScriptAliases say the same at build time). It does not allocate.
func TraditionalChinese(subtags string) bool {
	switch {
	case HasSubtag(subtags, "hant"):
		return true
	case HasSubtag(subtags, "hans"):
		return false
	}
	return HasSubtag(subtags, "tw") || HasSubtag(subtags, "hk") || HasSubtag(subtags, "mo")
}

// HasSubtag reports whether want (lower case) is one of the subtags of s, separated by "-"
// or "_" and compared in any case, before any extension or private use: a one-letter
// subtag ("-u-", "-x-") starts those, whose subtags are no script or region. It does not
// allocate.
func HasSubtag(s, want string) bool {
	for s != "" {
		sub := s
		if i := strings.IndexAny(s, "-_"); i >= 0 {
			sub, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if len(sub) == 1 {
			return false
		}
		if strings.EqualFold(sub, want) {
			return true
		}
	}
	return false
}

// deprecatedLanguages maps the ISO 639 codes that were withdrawn and replaced to their
// replacements (CLDR's languageAlias): clients still send "iw" for Hebrew, as Java's
// Locale did until 2023.
var deprecatedLanguages = map[string]string{"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}

// Canonical returns tag with a withdrawn ISO 639 language code replaced by its successor
// ("iw-IL" → "he-IL"), matched case-insensitively; any other tag is returned as it is.
func Canonical(tag string) string {
	n := strings.IndexAny(tag, "-_")
	if n < 0 {
		n = len(tag)
	}
	if n != 2 {
		return tag
	}
	if to, ok := deprecatedLanguages[strings.ToLower(tag[:2])]; ok {
		return to + tag[2:]
	}
	return tag
}
