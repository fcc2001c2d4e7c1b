package revgeo

import (
	"cmp"
	"slices"
	"strings"
)

// Names is a feature's name in several languages.
//
// Native is the name the data gives without a language: the local name of a Natural Earth
// subdivision ("Bayern"), the GeoNames name of a populated place. ByLang holds the translated
// names, sorted by language tag, with tags in BCP 47 form as the data has them ("de", "zh",
// "zh-Hant"). The slice is shared by every copy and must not be modified.
type Names struct {
	Native string
	ByLang []LangName
}

// LangName is a name in one language.
type LangName struct {
	Lang string // BCP 47 tag, e.g. "de" or "zh-Hant"
	Name string
}

// NewNames returns Names with the given native name and translations; empty names are
// dropped. It copies byLang.
func NewNames(native string, byLang map[string]string) Names {
	n := Names{Native: native}
	for tag, name := range byLang {
		if name != "" && tag != "" {
			n.ByLang = append(n.ByLang, LangName{Lang: tag, Name: name})
		}
	}
	slices.SortFunc(n.ByLang, func(a, b LangName) int { return cmp.Compare(a.Lang, b.Lang) })
	return n
}

// IsZero reports whether n holds no name at all.
func (n Names) IsZero() bool { return n.Native == "" && len(n.ByLang) == 0 }

// Name returns the name in the requested language, following the spec's fallback: the
// requested language, else English, else the native name. lang is matched case-insensitively,
// "_" is accepted for "-", and a tag the data lacks falls back to its truncations ("pt-BR"
// gives "pt", "zh-Hant-TW" gives "zh-Hant" then "zh"). The Chinese region tags "zh-TW",
// "zh-HK" and "zh-MO" are read as "zh-Hant", and "zh-CN", "zh-SG" and "zh-Hans" as "zh", whose
// names Natural Earth writes in simplified characters. Name does not allocate.
func (n Names) Name(lang string) string {
	if name, ok := n.Lookup(lang); ok {
		return name
	}
	if name, ok := n.exact("en"); ok {
		return name
	}
	if n.Native != "" {
		return n.Native
	}
	if len(n.ByLang) > 0 {
		return n.ByLang[0].Name
	}
	return ""
}

// Lookup returns the name in the requested language or one of its truncations, without the
// English and native fallback, and reports whether there was one.
func (n Names) Lookup(lang string) (string, bool) {
	lang = strings.TrimSpace(lang)
	if len(n.ByLang) == 0 || lang == "" {
		return "", false
	}
	switch {
	case prefixFold(lang, "zh-tw"), prefixFold(lang, "zh-hk"), prefixFold(lang, "zh-mo"):
		if name, ok := n.exact("zh-Hant"); ok {
			return name, true
		}
	case prefixFold(lang, "zh-cn"), prefixFold(lang, "zh-sg"), prefixFold(lang, "zh-hans"):
		lang = "zh"
	}
	for lang != "" {
		if name, ok := n.exact(lang); ok {
			return name, true
		}
		i := strings.LastIndexAny(lang, "-_")
		if i < 0 {
			break
		}
		lang = lang[:i]
	}
	return "", false
}

// exact returns the name filed under tag, compared case-insensitively with "_" equal to "-".
func (n Names) exact(tag string) (string, bool) {
	for _, ln := range n.ByLang {
		if tagEqual(ln.Lang, tag) {
			return ln.Name, true
		}
	}
	return "", false
}

func tagEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if x == '_' {
			x = '-'
		}
		if y == '_' {
			y = '-'
		}
		if x != y && x|0x20 != y|0x20 {
			return false
		}
	}
	return true
}

// prefixFold reports whether s is tag or starts with tag followed by "-" or "_", ignoring case.
func prefixFold(s, tag string) bool {
	if len(s) < len(tag) || !tagEqual(s[:len(tag)], tag) {
		return false
	}
	return len(s) == len(tag) || s[len(tag)] == '-' || s[len(tag)] == '_'
}
