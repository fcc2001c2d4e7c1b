package ipgeo

import (
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/locale"
)

// languageIndexRef is LanguageIndex as first written, without the two-letter fast path:
// trim, cut at the first separator, match the primary subtag.
func languageIndexRef(lang string) int {
	lang = strings.TrimSpace(lang)
	primary := lang
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		primary = lang[:i]
	}
	if len(primary) != 2 {
		return -1
	}
	for i := range NumLanguages {
		if strings.EqualFold(primary, strings.SplitN(Language(i), "-", 2)[0]) {
			if i == 7 && locale.TraditionalChinese(lang[len(primary):]) {
				return -1
			}
			return i
		}
	}
	return -1
}

func TestLanguageIndex(t *testing.T) {
	for _, tc := range []struct {
		lang string
		want int
	}{
		{"de", 0}, {"EN", 1}, {" es ", 2}, {"fr-CA", 3}, {"ja_JP", 4}, {"pt", 5}, {"pt-PT", 5},
		{"ru", 6}, {"zh", 7}, {"zh-Hans-TW", 7}, {"zh-Hant", -1}, {"zh_TW", -1}, {"zh-hk", -1},
		{"", -1}, {"d", -1}, {" d", -1}, {"d ", -1}, {"deu", -1}, {"de-", 0}, {"-de", -1},
		{"it", -1}, {"default", -1}, {"\x00\x00", -1}, {"D\xc3", -1},
	} {
		if got := LanguageIndex(tc.lang); got != tc.want {
			t.Errorf("LanguageIndex(%q) = %d, want %d", tc.lang, got, tc.want)
		}
	}
}

// FuzzLanguageIndex checks the fast path against languageIndexRef.
func FuzzLanguageIndex(f *testing.F) {
	for _, s := range []string{"de", "zh-Hant", " en-GB", "pt_BR", "ZH", "x", "\t\tja", "zh-x-hant"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lang string) {
		if got, want := LanguageIndex(lang), languageIndexRef(lang); got != want {
			t.Fatalf("LanguageIndex(%q) = %d, the reference %d", lang, got, want)
		}
	})
}
