package phone

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nyaruka/phonenumbers"
)

var update = flag.Bool("update", false, "rewrite testdata/validate.golden.json from the current output")

// goldenInput is one call of Validate in the golden file. Source says where the number comes
// from (see testdata/README.md).
type goldenInput struct {
	Source string `json:"source"`
	Number string `json:"number"`
	Region string `json:"countryCode"`
	Lang   string `json:"localityLanguage"`
}

// goldenCase is goldenInput with Validate's answer, named as the API names the fields.
type goldenCase struct {
	goldenInput
	IsValid       bool   `json:"isValid"`
	E164          string `json:"e164Format"`
	International string `json:"internationalFormat"`
	National      string `json:"nationalFormat"`
	Location      string `json:"location"`
	// LocationIsCountry: Location is the country's name, which the API takes from its
	// country data instead.
	LocationIsCountry bool   `json:"locationIsCountry,omitempty"`
	LineType          string `json:"lineType"`
	Region            string `json:"region"`
	Error             string `json:"error,omitempty"` // "ErrX: message"; the result fields are then zero
}

// goldenInputs returns the inputs of the golden file: libphonenumber's example numbers
// (taken from the metadata at test time, so that a metadata update shows up as a diff), then
// public numbers and edge cases written out.
func goldenInputs(t *testing.T) []goldenInput {
	t.Helper()
	example := func(region string, typ phonenumbers.PhoneNumberType) *phonenumbers.PhoneNumber {
		t.Helper()
		pn := phonenumbers.GetExampleNumberForType(region, typ)
		if pn == nil {
			t.Fatalf("no %s example for %s", typeName(typ), region)
		}
		return pn
	}
	// The countries whose example numbers the file holds, with the language their fixed-line
	// example is geocoded in (one of the country's languages where phonenumbers has
	// geocoding data in it, else English).
	exampleRegions := []struct{ region, lang string }{
		{"AE", "ar"}, {"AR", "es"}, {"AT", "de"}, {"AU", "en"}, {"BE", "nl"}, {"BR", "pt"},
		{"CA", "fr"}, {"CH", "de"}, {"CL", "es"}, {"CN", "zh"}, {"CO", "es"}, {"CZ", "en"},
		{"DE", "de"}, {"EG", "ar"}, {"ES", "es"}, {"FI", "fi"}, {"FR", "fr"}, {"GB", "en"},
		{"GR", "el"}, {"HK", "zh-Hant"}, {"ID", "id"}, {"IE", "en"}, {"IL", "he"}, {"IN", "en"},
		{"IT", "it"}, {"JP", "ja"}, {"KE", "en"}, {"KR", "ko"}, {"MX", "es"}, {"NG", "en"},
		{"NL", "nl"}, {"NO", "en"}, {"NZ", "en"}, {"PL", "pl"}, {"PT", "pt"}, {"RU", "ru"},
		{"SA", "ar"}, {"SE", "sv"}, {"SG", "en"}, {"TH", "th"}, {"TR", "tr"}, {"TW", "zh-TW"},
		{"UA", "uk"}, {"US", "en"}, {"VN", "vi"}, {"ZA", "en"},
	}
	var in []goldenInput
	// Fixed line in national form with the country, geocoded in a language of the country.
	for _, c := range exampleRegions {
		pn := example(c.region, phonenumbers.FIXED_LINE)
		in = append(in, goldenInput{"libphonenumber example FIXED_LINE " + c.region + ", national form",
			phonenumbers.Format(pn, phonenumbers.NATIONAL), c.region, c.lang})
	}
	// Mobile in international form without a country.
	for _, c := range exampleRegions {
		pn := example(c.region, phonenumbers.MOBILE)
		in = append(in, goldenInput{"libphonenumber example MOBILE " + c.region + ", international form",
			phonenumbers.Format(pn, phonenumbers.INTERNATIONAL), "", "en"})
	}
	// Toll-free in E.164 form with the country given too.
	for _, r := range []string{"AU", "BR", "DE", "FR", "GB", "IN", "JP", "US"} {
		pn := example(r, phonenumbers.TOLL_FREE)
		in = append(in, goldenInput{"libphonenumber example TOLL_FREE " + r + ", E.164 form",
			phonenumbers.Format(pn, phonenumbers.E164), r, "en"})
	}
	// Other line types.
	for _, c := range []struct {
		region string
		typ    phonenumbers.PhoneNumberType
	}{
		{"GB", phonenumbers.PREMIUM_RATE}, {"GB", phonenumbers.VOIP}, {"GB", phonenumbers.PERSONAL_NUMBER},
		{"GB", phonenumbers.PAGER}, {"GB", phonenumbers.UAN}, {"FR", phonenumbers.SHARED_COST},
		{"DE", phonenumbers.VOICEMAIL},
	} {
		pn := example(c.region, c.typ)
		in = append(in, goldenInput{"libphonenumber example " + typeName(c.typ) + " " + c.region + ", international form",
			phonenumbers.Format(pn, phonenumbers.INTERNATIONAL), "", "en"})
	}
	// Invalid: fixed-line examples cut by two digits (national form, with the country).
	for _, r := range []string{"AU", "BR", "FR", "GB", "IN", "JP", "NL", "US"} {
		pn := example(r, phonenumbers.FIXED_LINE)
		nsn := phonenumbers.GetNationalSignificantNumber(pn)
		in = append(in, goldenInput{"libphonenumber example FIXED_LINE " + r + ": national significant number without its last two digits",
			nsn[:len(nsn)-2], r, "en"})
	}
	// Non-geographic calling codes.
	for _, cc := range []int{800, 882} {
		pn := phonenumbers.GetExampleNumberForNonGeoEntity(cc)
		in = append(in, goldenInput{fmt.Sprintf("libphonenumber example for the non-geographic calling code +%d", cc),
			phonenumbers.Format(pn, phonenumbers.INTERNATIONAL), "", "en"})
	}

	const (
		au  = "the brief's example: Google Australia, Sydney (public switchboard)"
		gg  = "Google headquarters, Mountain View (public switchboard, libphonenumber's documentation example)"
		gz  = "Google Zurich (public switchboard, libphonenumber's documentation example)"
		wh  = "The White House comment line, Washington (public)"
		uk  = "UK Parliament switchboard, London (public)"
		be  = "data-sources.md §6 example: Berlin, +49 30 9018 20"
		fl  = "1-800-FLOWERS, a company's public vanity number"
		inv = "invented: "
	)
	return append(in, []goldenInput{
		{au, "+61 2 9374 4000", "au", "en"},
		{au, "(02) 9374 4000", "AU", "en"},
		{au + ", country name in Czech (no Czech geocoding data)", "+61 2 9374 4000", "", "cs"},
		{au + ", with an unrelated country given", "+61 2 9374 4000", "DE", "de"},
		{au + ", with a country phonenumbers has no plan for", "+61 2 9374 4000", "AQ", "en"},
		{au + ", international prefix 00 dialled from Germany", "00 61 2 9374 4000", "DE", "en"},
		{au + ", international prefix 0011 dialled from Australia", "0011 61 2 9374 4000", "AU", "en"},
		{au + ", RFC 3966", "tel:+61-2-9374-4000", "", "en"},
		{gg, "+1 650-253-0000", "", "en"},
		{gg, "650.253.0000", "US", "en"},
		{gg + ", with an extension", "+1 650-253-0000 ext. 1234", "", "en"},
		{gg + ", with an extension, RFC 3966", "tel:+1-650-253-0000;ext=1234", "", "en"},
		{gg + ", in Hebrew (place names in Hebrew are missing, English is used)", "+1 650-253-0000", "", "he"},
		{gz, "044 668 18 00", "CH", "de"},
		{gz, "+41 44 668 18 00", "", "fr"},
		{gz + ", with the national prefix in parentheses", "+41 (0)44 668 18 00", "", "it"},
		{gz + ", full-width digits", "＋４１ ４４ ６６８ １８ ００", "", "en"},
		{wh, "+1 202-456-1111", "", "en"},
		{wh + ", dialled from the UK", "00 1 202 456 1111", "GB", "en"},
		{uk, "020 7219 3000", "GB", "en"},
		{uk + ", alpha-2 in lower case", "020 7219 3000", "gb", "en"},
		{be, "+49 30 901820", "", "de"},
		{be + ", Chinese", "+49 30 901820", "", "zh"},
		{be + ", Traditional Chinese", "+49 30 901820", "", "zh-Hant"},
		{be + ", Brazilian Portuguese", "+49 30 901820", "", "pt-BR"},
		{be + ", 'default' is treated as English here", "+49 30 901820", "", "default"},
		{fl, "1-800-FLOWERS", "US", "en"},
		{inv + "unassigned North American area code 999", "+1 999 555 0100", "", "en"},
		{inv + "unassigned North American area code 999, country given", "999 555 0100", "CA", "en"},
		{inv + "too short for the UK", "+44 20 1234", "", "en"},
		{inv + "the European emergency short code", "112", "DE", "en"},
		{inv + "only letters", "hello", "US", "en"},
		{inv + "national form without a country", "030 901820", "", "en"},
		{inv + "national form with a country that has no numbering plan", "030 901820", "ZZ", "en"},
		{inv + "unknown calling code", "+999 1234 5678", "", "en"},
		{inv + "too many digits", "+49 123456789012345678", "", "en"},
	}...)
}

// TestGolden pins Validate's answers for the inputs of goldenInputs. A change of phonenumbers'
// metadata or of Validate shows up as a diff to review; accept it with
//
//	go test ./internal/phone -run Golden -update
func TestGolden(t *testing.T) {
	var cases []goldenCase
	for _, in := range goldenInputs(t) {
		c := goldenCase{goldenInput: in}
		r, err := Validate(in.Number, in.Region, in.Lang)
		if err != nil {
			c.Error = sentinelName(err) + ": " + err.Error()
		}
		c.IsValid, c.E164, c.International, c.National = r.IsValid, r.E164, r.International, r.National
		c.Location, c.LocationIsCountry, c.LineType, c.Region = r.Location, r.LocationIsCountry, r.LineType, r.Region
		cases = append(cases, c)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cases); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	path := filepath.Join("testdata", "validate.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Validate differs from %s (-want +got):\n%s", path,
			cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
}

// sentinelName names the package error err wraps, or "unexpected error".
func sentinelName(err error) string {
	switch {
	case errors.Is(err, ErrNotANumber):
		return "ErrNotANumber"
	case errors.Is(err, ErrUnknownRegion):
		return "ErrUnknownRegion"
	case errors.Is(err, ErrTooLong):
		return "ErrTooLong"
	}
	return "unexpected error"
}
