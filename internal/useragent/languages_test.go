package useragent

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLanguages(t *testing.T) {
	tests := []struct {
		header string
		want   []string
	}{
		{"", []string{}},
		{"en-US,en;q=0.9", []string{"en-US", "en"}},
		{"de;q=0.5, fr-CH, fr;q=0.9, en;q=0.8, *;q=0.1", []string{"fr-CH", "fr", "en", "de"}},
		{"en;q=0.5,de;q=0.5", []string{"en", "de"}},       // equals keep the header's order
		{"zh-Hant-TW, zh;q=0", []string{"zh-Hant-TW"}},    // q=0: not acceptable
		{"en, EN, en-us, en-US", []string{"en", "en-us"}}, // duplicates, case aside
		{" sr-Latn-RS ; q=1 ", []string{"sr-Latn-RS"}},
		{"en;Q=0.7, de", []string{"de", "en"}},
		{"1en, en-1, e_n, en--us, -en, en-, toolongsubtag, ", []string{"en-1"}},
		{"en;q=1.5, de;q=abc, fr;q=0x1, it;q=-0, es;q=0.1234, pt;q=0.123", []string{"pt"}},
		{"en;foo=bar;q=0.3, de", []string{"de", "en"}},
		{"*", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Languages(tt.header)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	var tags []string
	for c := 'a'; c < 'a'+MaxLanguages+5; c++ {
		tags = append(tags, "x"+string(c), "X"+string(c)) // each twice, case aside
	}
	got := Languages(strings.Join(tags, ","))
	if len(got) != MaxLanguages || got[0] != "xa" || got[MaxLanguages-1] != "x"+string(rune('a'+MaxLanguages-1)) {
		t.Errorf("%d distinct ranges, a cap of %d: %v", MaxLanguages+5, MaxLanguages, got)
	}
}

// FuzzLanguages: whatever the header, the answer is at most MaxLanguages well-formed,
// distinct ranges, each written in the header, and never nil.
func FuzzLanguages(f *testing.F) {
	for _, s := range []string{
		"en-US,en;q=0.9", // Chrome's
		"de;q=0.5, fr-CH, fr;q=0.9, en;q=0.8, *;q=0.1", // RFC 9110's example, reordered
		"zh-Hant-TW;q=0.000,zh;q=1.000",
		"en;q=,;q=1;;,",
		"\xff\x00;q=0.5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		got := Languages(header)
		if got == nil || len(got) > MaxLanguages {
			t.Fatalf("%q: %v", header, got)
		}
		seen := map[string]bool{}
		for _, tag := range got {
			k := strings.ToLower(tag)
			if !languageRange(tag) || seen[k] || !strings.Contains(header, tag) {
				t.Fatalf("%q: %q in %v", header, tag, got)
			}
			seen[k] = true
		}
	})
}
