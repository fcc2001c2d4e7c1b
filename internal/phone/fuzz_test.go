package phone

import (
	"errors"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// fuzzSeeds are inputs of every shape Validate meets, for both fuzz targets.
func fuzzSeeds(f *testing.F) {
	for _, s := range []struct{ number, region, lang string }{
		{"+61 2 9374 4000", "au", "en"},
		{"(02) 9374 4000", "AU", "de"},
		{"0151 23456789", "DE", "pt-BR"},
		{"+1 650-253-0000 ext. 1234", "", "zh-Hant"},
		{"tel:+1-650-253-0000;ext=1234", "", "he"},
		{"1-800-FLOWERS", "US", "EN"},
		{"＋４１ ４４ ６６８ １８ ００", "", "ja"},
		{"00 61 2 9374 4000", "DE", "cs"},
		{"+41 (0)44 668 18 00", "", "it"},
		{"+800 1234 5678", "", "default"},
		{"+1 999 555 0100", "CA", "sr-Latn"},
		{"112", "DE", ""},
		{"", "", ""},
		{"hello", "", "en"},
		{"++", "", "en"},
		{"030 901820", "ZZ", "en"},
		{"+999 1234 5678", "", "en"},
		{"+49 123456789012345678", "", "en"},
		{strings.Repeat("9", 65), "US", "en"},
		{"09 15-2345-6789", "AR", "es"},
		{"8 (301) 123-45-67", "RU", "ru"},
	} {
		f.Add(s.number, s.region, s.lang)
	}
}

// FuzzValidate checks that Validate never panics, returns only its own errors and no result
// with them, and that a valid result's E.164 form starts with "+" and validates again to the
// same number, type, region and location.
func FuzzValidate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, number, region, lang string) {
		r, err := Validate(number, region, lang)
		if err != nil {
			if !errors.Is(err, ErrNotANumber) && !errors.Is(err, ErrUnknownRegion) && !errors.Is(err, ErrTooLong) {
				t.Fatalf("Validate(%q, %q): error of no kind: %v", number, region, err)
			}
			if r != (Result{}) {
				t.Fatalf("Validate(%q, %q): result %+v with error %v", number, region, r, err)
			}
			return
		}
		if !r.IsValid {
			if r.LineType != "UNKNOWN" || r.Location != "" {
				t.Fatalf("Validate(%q, %q): invalid, yet %+v", number, region, r)
			}
			return
		}
		if !strings.HasPrefix(r.E164, "+") || r.LineType == "UNKNOWN" || r.International == "" || r.National == "" {
			t.Fatalf("Validate(%q, %q) = %+v", number, region, r)
		}
		again, err := Validate(r.E164, "", lang)
		if err != nil || !again.IsValid || again.E164 != r.E164 || again.LineType != r.LineType ||
			again.Region != r.Region || again.Location != r.Location {
			t.Fatalf("Validate(%q, %q) = %+v, but its E.164 form validates to %+v, %v", number, region, r, again, err)
		}
	})
}

// FuzzCompact checks that phonenumbers parses a number and its compact form alike, which is
// what makes compact a pure speed-up.
func FuzzCompact(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, number, region, _ string) {
		if len(number) > MaxInputLen {
			return
		}
		region = strings.ToUpper(region)
		if !knownRegion(region) {
			region = ""
		}
		checkCompact(t, number, region)
		if r, err := Validate(number, region, "en"); err == nil {
			// IsValid is phonenumbers' IsValidNumber of the same parse.
			pn, err := phonenumbers.Parse(number, region)
			if err != nil || phonenumbers.IsValidNumber(pn) != r.IsValid {
				t.Fatalf("Validate(%q, %q).IsValid = %v, phonenumbers disagrees (%v)", number, region, r.IsValid, err)
			}
		}
	})
}
