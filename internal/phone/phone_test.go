package phone

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nyaruka/phonenumbers"
)

// TestAustralia is the issue's example: libphonenumber formats +61 2 9374 4000 this way, and
// its geocoding data knows no place finer than the country for the prefix 612937.
func TestAustralia(t *testing.T) {
	want := Result{
		IsValid:           true,
		E164:              "+61293744000",
		International:     "+61 2 9374 4000",
		National:          "(02) 9374 4000",
		Location:          "Australia",
		LocationIsCountry: true,
		LineType:          "FIXED_LINE",
		Region:            "AU",
	}
	for _, c := range []struct{ number, region string }{
		{"+61 2 9374 4000", "au"},
		{"+61 2 9374 4000", ""},
		{"(02) 9374 4000", "AU"},
		{"02 9374 4000", "au"},
		{"+61293744000", "US"},
	} {
		got, err := Validate(c.number, c.region, "en")
		if err != nil {
			t.Fatalf("Validate(%q, %q): %v", c.number, c.region, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Validate(%q, %q) (-want +got):\n%s", c.number, c.region, diff)
		}
	}
}

func TestErrors(t *testing.T) {
	// Spaces inside count against the length; spaces around it are not part of the number.
	longest := "+61" + strings.Repeat(" ", MaxInputLen-len("+612 9374 4000")) + "2 9374 4000"
	if _, err := Validate(longest, "", "en"); err != nil {
		t.Errorf("a number of exactly MaxInputLen bytes: %v", err)
	}
	if _, err := Validate(" "+longest+strings.Repeat(" ", 50), "", "en"); err != nil {
		t.Errorf("the longest number with spaces around it: %v", err)
	}
	for _, c := range []struct {
		name, number, region string
		want                 error
		msg                  string // part of the message
	}{
		{"empty", "", "US", ErrNotANumber, "empty"},
		{"blank", " \t ", "US", ErrNotANumber, "empty"},
		{"letters", "hello", "US", ErrNotANumber, `"hello"`},
		{"plus signs", "++", "", ErrNotANumber, `"++"`},
		{"one digit", "7", "DE", ErrNotANumber, `"7"`},
		{"too short", "+49 1", "", ErrNotANumber, "too short"},
		{"65 bytes", " " + longest[:3] + " " + longest[3:] + " ", "", ErrTooLong, "longer than 64 bytes"},
		{"65 digits", strings.Repeat("1", 65), "US", ErrTooLong, "longer than 64 bytes"},
		{"18 digits", "+49 123456789012345678", "", ErrTooLong, "more digits"},
		{"unknown region ZZ", "030 901820", "ZZ", ErrUnknownRegion, `country "ZZ"`},
		{"region without a plan", "030 901820", "aq", ErrUnknownRegion, `country "AQ"`},
		{"no region", "030 901820", "", ErrUnknownRegion, "national form"},
		{"unknown calling code", "+999 1234 5678", "", ErrUnknownRegion, "calling code"},
		{"unknown calling code after IDD", "00 999 1234 5678", "DE", ErrUnknownRegion, "calling code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Validate(c.number, c.region, "en")
			if !errors.Is(err, c.want) {
				t.Fatalf("Validate(%q, %q) = %+v, %v; want %v", c.number, c.region, r, err, c.want)
			}
			if !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), c.want.Error()+": ") {
				t.Errorf("message %q: want %q, then something containing %q", err, c.want.Error()+": ", c.msg)
			}
			if r != (Result{}) {
				t.Errorf("result with an error: %+v", r)
			}
		})
	}
}

// TestExamples checks Validate against phonenumbers' own answers for libphonenumber's example
// number of every type in every region, given in E.164 and in national form: it backs the
// claims that IsValid is IsValidNumber and that compact changes nothing.
func TestExamples(t *testing.T) {
	n := 0
	for region := range phonenumbers.GetSupportedRegions() {
		for typ := phonenumbers.FIXED_LINE; typ < phonenumbers.UNKNOWN; typ++ {
			pn := phonenumbers.GetExampleNumberForType(region, typ)
			if pn == nil {
				continue
			}
			n++
			e164 := phonenumbers.Format(pn, phonenumbers.E164)
			// Written as E.164 and in national form with the region. phonenumbers does not
			// always read its own national form back to the same number (Argentine mobiles:
			// "09 15-2345-6789"), so the reference is its parse of the same input.
			for _, in := range []struct{ number, region string }{
				{e164, ""},
				{phonenumbers.Format(pn, phonenumbers.NATIONAL), region},
			} {
				ref, err := phonenumbers.Parse(in.number, in.region)
				if err != nil {
					t.Errorf("phonenumbers.Parse(%q, %q): %v", in.number, in.region, err)
					continue
				}
				refType := phonenumbers.GetNumberType(ref)
				want := Result{
					IsValid:       phonenumbers.IsValidNumber(ref),
					E164:          phonenumbers.Format(ref, phonenumbers.E164),
					International: phonenumbers.Format(ref, phonenumbers.INTERNATIONAL),
					National:      referenceNational(ref),
					LineType:      typeName(refType),
				}
				if want.IsValid != (refType != phonenumbers.UNKNOWN) {
					t.Errorf("%q: IsValidNumber %v but type %s", in.number, want.IsValid, want.LineType)
				}
				if want.IsValid {
					want.Region = phonenumbers.GetRegionCodeForNumber(ref)
				}
				got, err := Validate(in.number, in.region, "en")
				if err != nil {
					t.Errorf("Validate(%q, %q): %v", in.number, in.region, err)
					continue
				}
				if got.IsValid && got.Location == "" {
					t.Errorf("Validate(%q, %q): valid but no location", in.number, in.region)
				}
				got.Location, got.LocationIsCountry = "", false
				if !want.IsValid {
					got.Region = "" // see TestRegion
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Validate(%q, %q) (-phonenumbers +Validate):\n%s", in.number, in.region, diff)
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d example numbers", n)
	}
}

// TestRegion covers Result.Region's rules for numbers that are not valid and for the
// non-geographic calling codes.
func TestRegion(t *testing.T) {
	for _, c := range []struct{ number, region, want string }{
		{"+49 1234", "", "DE"},          // invalid, calling code of one country
		{"+1 999 555 0100", "", ""},     // invalid, shared calling code
		{"+1 999 555 0100", "CA", "CA"}, // ... with a country that shares it
		{"+1 999 555 0100", "DE", ""},   // ... with a country that does not
		{"999 555 0100", "us", "US"},
		{"+1 650 253 0000", "CA", "US"}, // valid: the number decides
		{"+44 1624 756789", "", "IM"},   // valid, Isle of Man under +44
		{"+800 1234 5678", "", ""},      // International Freephone
		{"+800 1234 5678", "US", ""},
	} {
		r, err := Validate(c.number, c.region, "en")
		if err != nil {
			t.Errorf("Validate(%q, %q): %v", c.number, c.region, err)
			continue
		}
		if r.Region != c.want {
			t.Errorf("Validate(%q, %q).Region = %q, want %q", c.number, c.region, r.Region, c.want)
		}
	}
}

func TestLocation(t *testing.T) {
	for _, c := range []struct{ number, lang, want string }{
		{"+49 30 901820", "en", "Berlin"},
		{"+61 2 8000 0000", "EN", "Sydney"},
		{"+81 3-3224-5000", "ja", "東京"},
		{"+81 3-3224-5000", "ja-JP", "東京"},
		{"+81 3-3224-5000", "zz", "Tokyo"},          // unknown language: English
		{"+41 44 668 18 00", "de", "Zürich"},        // place name from the German data
		{"+41 44 668 18 00", "it", "Zurigo"},        // ... and from the Italian data
		{"+41 44 668 18 00", "cs", "Zurich"},        // no Czech data: English place name
		{"+61 2 9374 4000", "cs", "Austrálie"},      // no place at all: country in Czech
		{"+61 2 9374 4000", "default", "Australia"}, // not a language: English
		{"+49 1512 3456789", "de", "Deutschland"},   // mobile: the country
		{"+49 1512 3456789", "pt-BR", "Alemanha"},   // ... in any CLDR language
		{"+32 800 12345", "en", "Belgium"},          // toll-free: the country, not the data's "Stavelot"
		{"+55 11 96123-4567", "pt", "São Paulo"},    // Brazilian mobiles are geographic
		{"+886 2 2123 4567", "zh-TW", "臺北"},         // Traditional Chinese data
		{"+886 2 2123 4567", "zh_Hant_TW", "臺北"},    // ... under any spelling
		{"+86 10 1234 5678", "zh-Hans-CN", "北京市"},   // Simplified Chinese data
		{"+972 2-123-4567", "he", "ירושלים"},        // "he" is "iw" in the data
		{"+1 650-253-0000", strings.Repeat("x", 40), "Mountain View, CA"},
	} {
		r, err := Validate(c.number, "", c.lang)
		if err != nil {
			t.Errorf("Validate(%q, lang %q): %v", c.number, c.lang, err)
			continue
		}
		if r.Location != c.want {
			t.Errorf("Validate(%q, lang %q).Location = %q, want %q", c.number, c.lang, r.Location, c.want)
		}
	}
}

func TestGeoLanguage(t *testing.T) {
	for lang, want := range map[string]string{
		"": "en", "en": "en", "EN": "en", "en-US": "en", "de": "de", "DE-at": "de", "de_CH": "de",
		"pt-BR": "pt", "pt": "pt", "zh": "zh", "zh-CN": "zh", "zh-Hans": "zh", "zh-Hans-TW": "zh",
		"zh-Hant": "zh_Hant", "ZH-HANT": "zh_Hant", "zh_Hant": "zh_Hant", "zh-TW": "zh_Hant",
		"zh-HK": "zh_Hant", "zh-MO": "zh_Hant", "zh-Hant-CN": "zh_Hant", "he": "iw", "iw": "iw",
		"he-IL": "iw", "id": "id", "in": "id", "sr": "sr", "sr-Cyrl": "sr", "sr-Latn": "en",
		"sr-Latn-RS": "en", "cs": "en", "nb": "en", "default": "en", "e": "en", "-": "en",
		"english": "en", "de-": "de", "zh_Hant_TW_with_a_long_tail_of_subtags_x": "en",
	} {
		if got := geoLanguage(lang); got != want {
			t.Errorf("geoLanguage(%q) = %q, want %q", lang, got, want)
		}
	}
	// Every data language maps to itself, so Warm loads exactly what Validate asks for.
	for l := range strings.FieldsSeq(geoLanguages) {
		if got := geoLanguage(l); got != l {
			t.Errorf("geoLanguage(%q) = %q", l, got)
		}
	}
}

func TestCompact(t *testing.T) {
	for in, want := range map[string]string{
		"+61 2 9374 4000":     "+61293744000",
		"(02) 9374-4000":      "0293744000",
		" +1 (650) 253.0000 ": "+16502530000",
		"(+61) 2/9374 4000":   "+61293744000",
		"61 2 9374 4000+":     "61 2 9374 4000+", // "+" after a digit: left to phonenumbers
		"++61 2 9374 4000":    "++61 2 9374 4000",
		"1-800-FLOWERS":       "1-800-FLOWERS",
		"+1 650 253 0000 x12": "+1 650 253 0000 x12",
		"１２３":                 "１２３",
		"1 2":                 "1 2", // fewer than three digits
		"+61293744000":        "+61293744000",
	} {
		if got := compact(in); got != want {
			t.Errorf("compact(%q) = %q, want %q", in, got, want)
		}
	}
}

// parsed is what phonenumbers.Parse produces, for comparing two parses.
type parsed struct {
	CountryCode                         int32
	NationalNumber                      uint64
	Extension                           string
	ItalianLeadingZero                  bool
	NumberOfLeadingZeros                int32
	CountryCodeSource                   phonenumbers.PhoneNumber_CountryCodeSource
	PreferredDomesticCarrierCode, RawIn string
	Err                                 string
}

func parse(number, region string) parsed {
	pn, err := phonenumbers.Parse(number, region)
	p := parsed{
		CountryCode: pn.GetCountryCode(), NationalNumber: pn.GetNationalNumber(), Extension: pn.GetExtension(),
		ItalianLeadingZero: pn.GetItalianLeadingZero(), NumberOfLeadingZeros: pn.GetNumberOfLeadingZeros(),
		CountryCodeSource: pn.GetCountryCodeSource(), PreferredDomesticCarrierCode: pn.GetPreferredDomesticCarrierCode(),
		RawIn: pn.GetRawInput(),
	}
	if err != nil {
		p.Err = err.Error()
	}
	return p
}

// checkCompact fails t if phonenumbers parses number and compact(number) differently.
func checkCompact(t *testing.T, number, region string) {
	t.Helper()
	c := compact(number)
	if c == number {
		return
	}
	if diff := cmp.Diff(parse(number, region), parse(c, region)); diff != "" {
		t.Errorf("Parse(%q, %q) and Parse(%q) differ (-raw +compact):\n%s", number, region, c, diff)
	}
}

// TestCompactParsesAlike checks on numbers written in many ways that compact does not change
// what phonenumbers makes of them; FuzzCompact looks further.
func TestCompactParsesAlike(t *testing.T) {
	for region := range phonenumbers.GetSupportedRegions() {
		for typ := phonenumbers.FIXED_LINE; typ < phonenumbers.UNKNOWN; typ++ {
			pn := phonenumbers.GetExampleNumberForType(region, typ)
			if pn == nil {
				continue
			}
			nat := phonenumbers.Format(pn, phonenumbers.NATIONAL)
			intl := phonenumbers.Format(pn, phonenumbers.INTERNATIONAL)
			for _, s := range []string{nat, intl, " " + intl + " ", "(" + nat + ")", strings.ReplaceAll(intl, " ", ".")} {
				checkCompact(t, s, region)
				checkCompact(t, s, "")
			}
		}
	}
	for _, s := range []string{"1 2", "1 23", "12 3", "+1 2", "+12 3", "0 0 0", "(0)", "+(0)1 2", "1/2/3", "- 1 - 2 - 3 -"} {
		for _, region := range []string{"", "DE", "US", "AU", "IT"} {
			checkCompact(t, s, region)
		}
	}
}

// TestConcurrent runs Validate from several goroutines at once, for the race detector; the
// first calls also race with phonenumbers' lazy loading of its data.
func TestConcurrent(t *testing.T) {
	numbers := []struct{ number, region, lang string }{
		{"+61 2 9374 4000", "", "ru"}, {"030 901820", "DE", "de"}, {"+1 650-253-0000", "", "ko"},
		{"+44 7400 123456", "", "zh-TW"}, {"hello", "", "en"}, {"+55 11 96123-4567", "", "pt"},
	}
	want := make([]Result, len(numbers))
	for i, n := range numbers {
		want[i], _ = Validate(n.number, n.region, n.lang)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				n := numbers[(g+i)%len(numbers)]
				got, _ := Validate(n.number, n.region, n.lang)
				if got != want[(g+i)%len(numbers)] {
					t.Errorf("Validate(%q) = %+v, differs from the first answer", n.number, got)
				}
			}
		})
	}
	wg.Go(func() {
		if err := Warm(); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
}

func TestWarm(t *testing.T) {
	for range 2 {
		if err := Warm(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPackageDoc checks that exactly one file of the package carries the package doc comment.
func TestPackageDoc(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var withDoc []string
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil && f.Name.Name == "phone" {
			withDoc = append(withDoc, name)
		}
	}
	if len(withDoc) != 1 {
		t.Errorf("package doc comment in %v, want exactly one file", withDoc)
	}
}

func ExampleValidate() {
	r, err := Validate("(02) 9374 4000", "AU", "en")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.IsValid, r.E164, r.International, r.National, r.LineType, r.Region, r.Location)
	_, err = Validate("030 901820", "", "en")
	fmt.Println(errors.Is(err, ErrUnknownRegion))
	// Output:
	// true +61293744000 +61 2 9374 4000 (02) 9374 4000 FIXED_LINE AU Australia
	// true
}
