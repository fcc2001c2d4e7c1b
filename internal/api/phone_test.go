package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/phone"
)

// phoneTestSnapshot is the real snapshot when there is one (every country), else the
// fixture (six countries): phone validation needs only the country registry.
func phoneTestSnapshot(t testing.TB) *dataset.Snapshot {
	if os.Getenv(datasettest.RealEnv) != "" {
		return datasettest.Real(t)
	}
	return datasettest.Snapshot(t)
}

type phoneBody struct {
	IsValid             bool         `json:"isValid"`
	E164Format          string       `json:"e164Format"`
	InternationalFormat string       `json:"internationalFormat"`
	NationalFormat      string       `json:"nationalFormat"`
	Location            string       `json:"location"`
	LineType            string       `json:"lineType"`
	Country             *countryJSON `json:"country"`
}

// TestPhoneGolden runs the phone engine's golden cases (47 regions, valid and invalid
// numbers, and input that is not a number) through the API: same fields, the country
// object of the number's region in the request's language, 400 where the engine refuses.
func TestPhoneGolden(t *testing.T) {
	snap := phoneTestSnapshot(t)
	s := placesServer(t, snap)
	raw, err := os.ReadFile(filepath.Join("..", "phone", "testdata", "validate.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Source, Number, CountryCode, LocalityLanguage string
		IsValid                                       bool
		E164Format, InternationalFormat               string
		NationalFormat, Location, LineType, Region    string
		LocationIsCountry                             bool
		Error                                         string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	regions := map[string]bool{}
	for _, c := range cases {
		t.Run(c.Source, func(t *testing.T) {
			q := url.Values{"key": {"good"}, "number": {c.Number}, "localityLanguage": {c.LocalityLanguage}}
			if c.CountryCode != "" {
				q.Set("countryCode", c.CountryCode)
			}
			rec := placesGet(t, s, "/data/phone-number-validate?"+q.Encode(), "")
			if c.Error != "" {
				placesWantError(t, rec, http.StatusBadRequest, "")
				return
			}
			if _, known := snap.Countries.Lookup(c.CountryCode); c.CountryCode != "" && !known && !phone.HasPlan(c.CountryCode) {
				// A country the fixture's registry lacks (AQ): the API refuses what
				// the engine would have ignored for an international number.
				placesWantError(t, rec, http.StatusBadRequest, "not a known country")
				return
			}
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got phoneBody
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			known, inRegistry := snap.Countries.Lookup(c.Region)
			if c.LocationIsCountry && inRegistry {
				// The country's name from the country data, as in the country object.
				lang := c.LocalityLanguage
				if lang == "default" {
					lang = snap.Countries.LocalLanguage(known)
				}
				c.Location = snap.Countries.Name(known, lang)
			}
			if got.IsValid != c.IsValid || got.E164Format != c.E164Format || got.InternationalFormat != c.InternationalFormat ||
				got.NationalFormat != c.NationalFormat || got.Location != c.Location || got.LineType != c.LineType {
				t.Errorf("got %+v\nwant %+v", got, c)
			}
			regions[c.Region] = true
			switch {
			case c.Region == "" || !inRegistry:
				if got.Country != nil {
					t.Errorf("country %s for a number of no (known) country", got.Country.ISOAlpha2)
				}
			case got.Country == nil:
				t.Errorf("no country object, want %s", c.Region)
			default:
				lang := c.LocalityLanguage
				if lang == "default" {
					lang = snap.Countries.LocalLanguage(known)
				}
				want := toCountryJSON(known, snap.Countries.Name(known, lang))
				if got.Country.ISOAlpha2 != want.ISOAlpha2 || got.Country.Name != want.Name || got.Country.CallingCode != want.CallingCode || got.Country.ISOAlpha3 != want.ISOAlpha3 {
					t.Errorf("country %+v, want %+v", got.Country, want)
				}
			}
		})
	}
	if len(regions) < 30 {
		t.Errorf("golden cases cover %d regions, want at least 30", len(regions))
	}
}

func TestPhoneValidate(t *testing.T) {
	s := placesServer(t, phoneTestSnapshot(t))
	sydney := phoneBody{IsValid: true, E164Format: "+61293744000", InternationalFormat: "+61 2 9374 4000", NationalFormat: "(02) 9374 4000", LineType: "FIXED_LINE"}
	tests := []struct {
		name, query string
		want        phoneBody
		country     string // alpha-2 of the country object, "" for none
		countryName string
	}{
		{"au lower case", "number=%2B61%202%209374%204000&countryCode=au", sydney, "AU", "Australia"},
		{"alpha-3", "number=%2B61%202%209374%204000&countryCode=AUS", sydney, "AU", "Australia"},
		{"numeric", "number=(02)%209374%204000&countryCode=036", sydney, "AU", "Australia"},
		{"numeric without zero", "number=02%209374%204000&countryCode=36", sydney, "AU", "Australia"},
		{"international, no country", "number=%2B61293744000", sydney, "AU", "Australia"},
		{"international wins over countryCode", "number=%2B61293744000&countryCode=DE", sydney, "AU", "Australia"},
		{"tel URI", "number=tel:%2B61-2-9374-4000", sydney, "AU", "Australia"},
		{"german names", "number=%2B61293744000&localityLanguage=de", phoneBody{IsValid: true, E164Format: "+61293744000", InternationalFormat: "+61 2 9374 4000", NationalFormat: "(02) 9374 4000", LineType: "FIXED_LINE"}, "AU", "Australien"},
		{"default language", "number=030%20901820&countryCode=de&localityLanguage=default", phoneBody{IsValid: true, E164Format: "+4930901820", InternationalFormat: "+49 30 901820", NationalFormat: "030 901820", LineType: "FIXED_LINE"}, "DE", "Deutschland"},
		{"parses but invalid", "number=%2B1%20999%20555%200100", phoneBody{E164Format: "+19995550100", InternationalFormat: "+1 999-555-0100", NationalFormat: "(999) 555-0100", LineType: "UNKNOWN"}, "", ""},
		{"freephone, no country", "number=%2B800%201234%205678", phoneBody{IsValid: true, E164Format: "+80012345678", InternationalFormat: "+800 1234 5678", NationalFormat: "1234 5678", LineType: "TOLL_FREE"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := placesGet(t, s, "/data/phone-number-validate?key=good&"+tt.query, "")
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got phoneBody
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			c := got.Country
			got.Country, got.Location = nil, ""
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			switch {
			case tt.country == "" && c != nil:
				t.Errorf("country %s, want none", c.ISOAlpha2)
			case tt.country != "" && (c == nil || c.ISOAlpha2 != tt.country || c.Name != tt.countryName):
				t.Errorf("country %+v, want %s %s", c, tt.country, tt.countryName)
			}
			if tt.country == "" && strings.Contains(rec.Body.String(), `"country"`) {
				t.Errorf("country key present: %s", rec.Body)
			}
		})
	}
}

// TestPhoneAscensionReal: Ascension and Tristan da Cunha have numbering plans of their own
// (AC, TA), and are part of ISO's SH, whose country object they get.
func TestPhoneAscensionReal(t *testing.T) {
	s := placesServer(t, datasettest.Real(t))
	for number, place := range map[string]string{"+247 40123": "Ascension Island", "+290 8999": "Tristan da Cunha"} {
		rec := placesGet(t, s, "/data/phone-number-validate?key=good&number="+url.QueryEscape(number), "")
		var got phoneBody
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 {
			t.Fatalf("%s: status %d, %v: %s", number, rec.Code, err, rec.Body)
		}
		if !got.IsValid || got.Location != place || got.Country == nil || got.Country.ISOAlpha2 != "SH" {
			t.Errorf("%s: valid %v, location %q, country %+v; want %s in SH", number, got.IsValid, got.Location, got.Country, place)
		}
	}
}

// TestPhoneUnknownCountryCode: a countryCode that names no country and no numbering plan is
// a 400 whether or not the number needs it, so a typo is never silently ignored; Kosovo's
// XK, which has a plan but no ISO entry, is accepted.
func TestPhoneUnknownCountryCode(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	for _, tt := range []struct {
		query string
		want  int
	}{
		{"number=%2B61293744000&countryCode=XX", 400},
		{"number=%2B61293744000&countryCode=UK", 400},
		{"number=%2B61293744000&countryCode=ZZZ", 400},
		{"number=%2B61293744000&countryCode=999", 400},
		{"number=02%209374%204000&countryCode=QQ", 400},
		{"number=%2B61293744000&countryCode=gb", 200},
		{"number=044%20123%20456&countryCode=XK", 200},
	} {
		rec := placesGet(t, s, "/data/phone-number-validate?key=good&"+tt.query, "")
		if rec.Code != tt.want {
			t.Errorf("%s: status %d, want %d: %s", tt.query, rec.Code, tt.want, rec.Body)
		}
		if tt.want == 400 && !strings.Contains(rec.Body.String(), "not a known country") {
			t.Errorf("%s: %s does not say the country is unknown", tt.query, rec.Body)
		}
	}
}

func FuzzPhoneValidateHandler(f *testing.F) {
	s := placesServer(f, datasettest.Snapshot(f))
	for _, seed := range [][3]string{
		{"+61 2 9374 4000", "au", "en"}, {"(02) 9374 4000", "036", "default"}, {"abc", "", ""},
		{"+999 1", "ZZ", "xx"}, {"1-800-FLOWERS", "US", "pt-BR"}, {"０３−１２３４−５６７８", "JPN", "ja"},
		{"+49 30 901820;ext=12", "", "de"}, {"%", "%zz", "\x00"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, number, code, lang string) {
		q := url.Values{"key": {"good"}, "number": {number}, "countryCode": {code}, "localityLanguage": {lang}}
		rec := placesGet(t, s, "/data/phone-number-validate?"+q.Encode(), "")
		if rec.Code != 200 && rec.Code != 400 {
			t.Fatalf("status %d for %q %q %q: %s", rec.Code, number, code, lang, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON: %s", rec.Body)
		}
	})
}

// TestPhonePlusAsSpace: only a number whose raw query value begins with a literal + gets
// the hint that the + arrived as a space.
func TestPhonePlusAsSpace(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{"number=+442070313000", true},
		{"key=k&number=+44+20+7031+3000&countryCode=", true},
		{"number=%2B442070313000", false},
		{"number=0293744000", false},
		{"number=%20442070313000", false},
		{"xnumber=+44&number=0293744000", false},
		{"n%75mber=+44", true},                  // an escaped key, as QueryValue matches it
		{"number=%zz&number=+44", true},         // the pair QueryValue reads, past a bad escape
		{"number=0293744000&number=+44", false}, // the first number, as QueryValue reads it
		{"", false},
	} {
		if got := phonePlusAsSpace(tc.raw); got != tc.want {
			t.Errorf("phonePlusAsSpace(%q) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}
