package phone

import (
	"strings"

	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/ipatlas/ipatlas/internal/locale"
)

// geoLanguages lists the languages phonenumbers v1.8.1 has geocoding data for, under the
// names of its data files (data/prefix_to_geocodings/<name>.txt.gz): "iw" is Hebrew and
// "zh_Hant" Traditional Chinese. geoLanguage maps a request's language onto this set.
const geoLanguages = "ar be bg bs de el en es fa fi fr hr hu hy id it iw ja kk ko nl pl pt ro ru sq sr sv th tr uk vi zh zh_Hant"

// geoLanguage maps a request's language (ISO 639-1, any case, possibly with script or region
// subtags separated by "-" or "_") to the name of a geocoding data language, or "en":
//   - "he" and "iw" → "iw"; "id" and "in" → "id";
//   - "zh" with the Hant script, or with region TW, HK or MO and no Hans script → "zh_Hant",
//     other "zh" → "zh";
//   - "sr" with the Latn script → "en" (the Serbian data is in Cyrillic);
//   - any other language with data → itself, lower case; anything else → "en".
func geoLanguage(lang string) string {
	if len(lang) > locale.MaxTagLen {
		return "en"
	}
	primary, rest := lang, ""
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		primary, rest = lang[:i], lang[i+1:]
	}
	switch {
	case strings.EqualFold(primary, "zh"):
		if locale.TraditionalChinese(rest) {
			return "zh_Hant"
		}
		return "zh"
	case strings.EqualFold(primary, "he"), strings.EqualFold(primary, "iw"):
		return "iw"
	case strings.EqualFold(primary, "in"):
		return "id"
	case strings.EqualFold(primary, "sr") && locale.HasSubtag(rest, "latn"):
		return "en"
	}
	for l := range strings.FieldsSeq(geoLanguages) {
		if len(l) == 2 && strings.EqualFold(primary, l) {
			return l
		}
	}
	return "en"
}

// geographical reports whether numbers of type t with this calling code are tied to a place,
// as libphonenumber's PhoneNumberUtil.isNumberGeographical decides: fixed lines everywhere,
// mobile numbers only in the few countries that assign them by area.
func geographical(t phonenumbers.PhoneNumberType, callingCode int32) bool {
	switch t {
	case phonenumbers.FIXED_LINE, phonenumbers.FIXED_LINE_OR_MOBILE:
		return true
	case phonenumbers.MOBILE:
		switch callingCode {
		case 52, 54, 55, 62, 86: // phonenumbers.GEO_MOBILE_COUNTRIES: MX, AR, BR, ID, CN
			return true
		}
	}
	return false
}

// location returns Result.Location and Result.LocationIsCountry for a valid number of type t
// in region, following libphonenumber's PhoneNumberOfflineGeocoder.getDescriptionForNumber:
// geographic numbers get the geocoding data's description of their prefix (in the data
// language for lang, else in English), other numbers and numbers whose prefix the data lacks
// get the country's name in lang.
func location(pn *phonenumbers.PhoneNumber, t phonenumbers.PhoneNumberType, region, lang string) (string, bool) {
	if !geographical(t, pn.GetCountryCode()) {
		return countryName(region, lang), true
	}
	geoLang := geoLanguage(lang)
	desc, err := phonenumbers.GetGeocodingForNumber(pn, geoLang)
	// When the data has no description for the prefix, phonenumbers falls back to the
	// country's name in geoLang, which is English for the languages without geocoding data
	// but with country names ("cs", "da", ...): name the country in lang instead.
	if err != nil || desc == "" || desc == countryName(region, geoLang) {
		return countryName(region, lang), true
	}
	return desc, false
}

// countryName returns the CLDR name of region in lang, else in English, else "".
func countryName(region, lang string) string {
	r, err := language.ParseRegion(region)
	if err != nil {
		return ""
	}
	if len(lang) <= locale.MaxTagLen && !strings.EqualFold(lang, "en") {
		if tag, _ := language.Parse(lang); tag != language.Und {
			if n := display.Regions(tag); n != nil {
				if name := n.Name(r); name != "" {
					return name
				}
			}
		}
	}
	return display.Regions(language.English).Name(r)
}
