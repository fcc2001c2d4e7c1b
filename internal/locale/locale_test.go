package locale

import (
	"maps"
	"testing"
)

func TestScriptAliases(t *testing.T) {
	likely := map[string]string{
		"zh":     "zh-Hans-CN",
		"zh-TW":  "zh-Hant-TW", // Traditional: an alias
		"zh-HK":  "zh-Hant-HK", // a locale of its own in has below
		"zh-MO":  "zh-Hant-MO", // no zh-Hant-MO: falls back to zh-Hant
		"zh-SG":  "zh-Hans-SG", // the default script: no alias
		"sr":     "sr-Cyrl-RS",
		"sr-ME":  "sr-Latn-ME", // Latin: an alias to sr-Latn
		"pa-PK":  "pa-Arab-PK", // no pa entry: the default script is unknown, no alias
		"und-TW": "zh-Hant-TW",
		"uz-AF":  "uz-Arab-AF", // no locale for it at all
		"uz":     "uz-Latn-UZ",
		"en-001": "en-Latn-001", // a numeric region with the default script (en)
		"en":     "en-Latn-US",
	}
	locales := map[string]bool{"zh": true, "zh-Hant": true, "zh-HK": true, "zh-Hant-TW": true, "sr": true, "sr-Latn": true, "pa": true, "pa-Arab": true, "uz": true, "en": true}
	got := ScriptAliases(likely, func(l string) bool { return locales[l] })
	want := map[string]string{"zh-TW": "zh-Hant-TW", "zh-MO": "zh-Hant", "sr-ME": "sr-Latn"}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestIsRegion(t *testing.T) {
	for s, want := range map[string]bool{"TW": true, "419": true, "tw": false, "T": false, "TWN": false, "4x9": false, "": false} {
		if isRegion(s) != want {
			t.Errorf("isRegion(%q) = %v", s, !want)
		}
	}
}

func TestTraditionalChinese(t *testing.T) {
	for subtags, want := range map[string]bool{
		"": false, "-CN": false, "-Hans": false, "-SG": false, "_Hans_CN": false,
		"-Hant": true, "_hant": true, "-TW": true, "-hk": true, "_MO": true, "-Hant-CN": true,
		"-Hans-TW": false, "-Hans-HK": false, // the script asked for wins over the region
		"-Latn": false, "-twx": false, "-x-tw": false, "-u-hant": false, "-TW-x-hans": true,
	} {
		if got := TraditionalChinese(subtags); got != want {
			t.Errorf("TraditionalChinese(%q) = %v, want %v", subtags, got, want)
		}
	}
}

func TestHasSubtag(t *testing.T) {
	for _, tc := range []struct {
		s, want string
		has     bool
	}{
		{"Hant-TW", "tw", true}, {"-Hant-TW", "hant", true}, {"hant_tw", "tw", true},
		{"Hant-TW", "han", false}, {"", "tw", false}, {"TWN", "tw", false},
		{"x-tw", "tw", false}, {"Hant-u-tw", "hant", true}, {"Hant-u-tw", "tw", false},
	} {
		if got := HasSubtag(tc.s, tc.want); got != tc.has {
			t.Errorf("HasSubtag(%q, %q) = %v, want %v", tc.s, tc.want, got, tc.has)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"iw": "he", "IW-il": "he-il", "iw_IL": "he_IL", "in": "id", "ji": "yi", "jw": "jv", "mo-MD": "ro-MD",
		"he": "he", "en-US": "en-US", "": "", "iwa": "iwa", "i": "i", "in-": "id-", "default": "default",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
