package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/ipatlas/ipatlas/internal/phone"
	"github.com/ipatlas/ipatlas/internal/web"
)

// phoneValidate answers /data/phone-number-validate.
//
// Parameters: number (required, any format libphonenumber reads), countryCode (ISO 3166-1
// alpha-2, alpha-3 or numeric, any case; optional when the number is in international form,
// ignored when it carries its own calling code), localityLanguage (the language of
// location; "default" is the language of the number's country).
//
// Body: isValid, e164Format, internationalFormat, nationalFormat, location, lineType (a
// libphonenumber PhoneNumberType name) and country (the full Country object of the number's
// country; omitted when the number belongs to no country, such as +800 freephone, or when
// an invalid number's calling code is shared by several countries). A number that parses
// but is not valid is a 200 with isValid false (phone.Result says what the other fields
// hold then). Input that is not a phone number, an unknown countryCode and over-long input
// are 400.
func (s *Server) phoneValidate(w http.ResponseWriter, r *http.Request) error {
	number, ok := paramOK(r, "number")
	if !ok || strings.TrimSpace(number) == "" {
		return badRequest("The number parameter is required: the phone number to validate, in any format (+61 2 9374 4000, or (02) 9374 4000 with countryCode=AU).")
	}
	v, err := s.countryView()
	if err != nil {
		return err
	}
	region := ""
	if code := strings.TrimSpace(param(r, "countryCode")); code != "" {
		c, ok := v.snap.Countries.Lookup(code)
		switch {
		case ok:
			region = c.Alpha2
		case len(code) == 2 && phone.HasPlan(code):
			// A two-letter code the country registry lacks but a numbering plan has
			// (XK, Kosovo's user-assigned code).
			region = code
		default:
			return badRequest("The countryCode parameter %s is not a known country: use an ISO 3166-1 alpha-2 (AU), alpha-3 (AUS) or numeric (036) code, or omit it for a number in international form (+61 ...).", quoteInput(code))
		}
	}
	return s.phoneAnswer(w, r, v, number, region, phoneAdvice)
}

// phoneAdvice is what phone-number-validate tells a caller whose number's country cannot be
// told.
const phoneAdvice = "Pass countryCode as an ISO 3166-1 alpha-2, alpha-3 or numeric code, or write the number with + and its country calling code."

// phoneAnswer validates number in region ("" for none: the number must then be in
// international form) and writes the phone-number-validate answer. advice is what the 400
// of a number whose country cannot be told asks the caller to do.
func (s *Server) phoneAnswer(w http.ResponseWriter, r *http.Request, v *countryView, number, region, advice string) error {
	lang := v.resolvedLang(r) // for the country object
	// phone maps any language tag to its data itself; only "default" needs resolving.
	phoneLang := param(r, "localityLanguage")
	if lang == "default" {
		phoneLang = "en"
		if c, ok := v.snap.Countries.Lookup(region); ok && region != "" {
			phoneLang = v.snap.Countries.LocalLanguage(c)
		}
	}
	res, err := phone.Validate(number, region, phoneLang)
	if err != nil {
		if region == "" && phonePlusAsSpace(r.URL.RawQuery) {
			advice += " The number's + arrived as a space: in a URL query a + stands for a space, so send it as %2B (number=%2B44...)."
		}
		return phoneError(err, advice)
	}
	if lang == "default" && region == "" && res.Region != "" {
		// The number said where it belongs: name its place in that country's language.
		if c, ok := v.snap.Countries.Lookup(res.Region); ok {
			if again, err := phone.Validate(number, res.Region, v.snap.Countries.LocalLanguage(c)); err == nil {
				res = again
			}
		}
	}

	if res.LocationIsCountry {
		// The country data's names are newer than the phone library's (North Macedonia,
		// Eswatini, Türkiye), and the country object beside the location uses them.
		if name := netLangName(v, res.Region, lang); name != "" {
			res.Location = name
		}
	}

	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], '{')
	b = placesAppendBool(b, true, "isValid", res.IsValid)
	b = placesAppendField(b, false, "e164Format", res.E164)
	b = placesAppendField(b, false, "internationalFormat", res.International)
	b = placesAppendField(b, false, "nationalFormat", res.National)
	b = placesAppendField(b, false, "location", res.Location)
	b = placesAppendField(b, false, "lineType", res.LineType)
	if i, ok := v.lookup(isoCountryOf(res.Region)); ok && res.Region != "" {
		b = placesAppendKey(b, false, "country")
		b = v.appendCountry(b, i, lang)
	}
	b = append(b, '}')
	writeJSONPooled(w, bp, b)
	return nil
}

// isoCountryOf is the ISO 3166-1 country of a numbering plan's region: Ascension (AC) and
// Tristan da Cunha (TA) have plans of their own but are part of Saint Helena, Ascension and
// Tristan da Cunha (SH), whose codes ISO only reserves for them. Other regions are their own.
func isoCountryOf(region string) string {
	switch region {
	case "AC", "TA":
		return "SH"
	}
	return region
}

// phoneError turns phone's input errors into 400s; their messages are written for the
// caller and name the problem. advice follows an unknown country's message.
func phoneError(err error, advice string) error {
	// The messages quote the input, which may be a key sent in the wrong parameter; answers
	// pass through proxies and client logs, so keys go (as quoteInput does for the others).
	msg := web.RedactText(err.Error())
	switch {
	case errors.Is(err, phone.ErrTooLong):
		return badRequest("The number parameter is too long: %s. A phone number has at most 17 digits after its country calling code.", msg)
	case errors.Is(err, phone.ErrUnknownRegion):
		return badRequest("The phone number's country is unknown (%s). %s", msg, advice)
	case errors.Is(err, phone.ErrNotANumber):
		return badRequest("The number parameter is not a phone number (%s).", msg)
	}
	return err
}

// phonePlusAsSpace reports whether the number was sent beginning with a literal +, which
// URL query decoding turns into a space: the caller meant an international number.
func phonePlusAsSpace(rawQuery string) bool {
	raw, ok := web.RawQueryValue(rawQuery, "number")
	return ok && strings.HasPrefix(raw, "+")
}
