// Package phone owns phone number parsing, validation and formatting: the body of the
// phone-number-validate endpoint, minus the country object, which the API layer attaches from
// Result.Region with the country registry.
//
// All the numbering knowledge comes from libphonenumber's metadata and geocoding data as
// packaged by github.com/nyaruka/phonenumbers. Validate adds the input bounds, the mapping of
// the request's language to the geocoding data, the choice of what to report for numbers that
// parse but are not valid, and typed errors for input that is not a number at all.
//
// # Results
//
// A number that parses yields a Result, valid or not; Result documents what each field holds
// in either case. Input that is not a phone number yields one of the sentinel errors
// ErrNotANumber, ErrUnknownRegion and ErrTooLong (compare with errors.Is); the API answers
// them with 400. Their messages are written for the person who sent the request.
//
// # Cost
//
// phonenumbers loads its geocoding data lazily, one language at a time, on the first lookup
// in that language (English, the fallback of every language, takes about 0.1 s and a few MB),
// and compiles each region's regular expressions on first use; Validate also compiles its own
// copy of the numbering plans' patterns (plan.go: about 60 ms and 15 MB, once). Warm pays all
// of that at once; the server calls it at start-up so that no request does. After that a
// Validate call takes 10 to 20 microseconds, most of it in phonenumbers' parser (its
// extension pattern above all) and, for fixed lines, its geocoder.
//
// Validate only ever hands phonenumbers a geocoding language from the fixed set it has data
// for: phonenumbers caches one entry per language string it is asked about, so passing the
// request's language through would let clients grow that cache without bound.
package phone

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// MaxInputLen is the longest number Validate accepts, in bytes of its UTF-8 form. The longest
// national significant number libphonenumber allows is 17 digits; 64 bytes leaves room for a
// "+", the calling code, separators, an extension or a "tel:" prefix, and for 15 or so digits
// written in full-width or other non-ASCII digits (3 bytes each). Longer input is refused with
// ErrTooLong before any parsing.
const MaxInputLen = 64

// The errors Validate returns for input that is not a phone number. Validate wraps them with
// a message that names the problem (errors.Is finds the sentinel); each sentinel's own text is
// the summary.
var (
	// ErrNotANumber means the input is empty, is not made of digits and the characters
	// that go with them, or has too few digits to be a phone number.
	ErrNotANumber = errors.New("not a phone number")

	// ErrUnknownRegion means the number's country cannot be determined: the number is in
	// national form and no region was given, or the region given has no numbering plan, or
	// the number starts with a country calling code that does not exist.
	ErrUnknownRegion = errors.New("cannot tell the phone number's country")

	// ErrTooLong means the input is longer than MaxInputLen bytes, or has more digits than
	// any phone number can have (a national number of more than 17 digits).
	ErrTooLong = errors.New("phone number too long")
)

// Result is the validation body of one number, minus the country object.
//
// For a valid number every field is filled, except that Region and Location are empty for
// numbers of the non-geographic calling codes (+800 International Freephone, +808, +870,
// +881, +882, +883, +888, +979), which belong to no country.
//
// For a number that parses but is not valid (no numbering plan pattern matches it: an
// unassigned range, a wrong length, a short code such as 112):
//   - IsValid is false and LineType is "UNKNOWN";
//   - E164 is "+", the calling code and the national digits as given (a national prefix such
//     as a leading 0 removed where the region's rules say so), so not a valid E.164 number;
//   - International and National are formatted by the region's rules where one of its
//     formatting patterns matches the digits, else they are the digits unformatted (with the
//     "+" and calling code for International);
//   - Location is empty;
//   - Region is the country that owns the calling code when only one does; for calling codes
//     shared by several countries (+1, +7, +44, ...) it is the region given to Validate if
//     that region shares the calling code, else empty.
//
// An extension given with the number (such as "ext. 12" or ";ext=12") is kept in
// International and National (as " ext. 12") and dropped from E164.
type Result struct {
	IsValid bool

	E164          string // "+61293744000"
	International string // "+61 2 9374 4000"
	National      string // "(02) 9374 4000"

	// Location is the place libphonenumber's geocoding data ties the number to: a city or
	// area for geographic numbers ("Sydney", "Mountain View, CA"), the country's name for
	// numbers that are not geographic (most mobile numbers, toll-free, premium rate ...) or
	// whose area the data does not know. Place names are in the requested language where
	// the data has that language, else in English; country names are in the requested
	// language where CLDR has it, else in English.
	Location string
	// LocationIsCountry reports that Location is the name of the number's country (Region)
	// rather than of a place in it. The names come from golang.org/x/text's CLDR, which is
	// old (CLDR 32: "Macedonia", "Swaziland"): a caller with newer names should use its own.
	LocationIsCountry bool

	// LineType is a libphonenumber PhoneNumberType name: FIXED_LINE, MOBILE,
	// FIXED_LINE_OR_MOBILE, TOLL_FREE, PREMIUM_RATE, SHARED_COST, VOIP, PERSONAL_NUMBER,
	// PAGER, UAN, VOICEMAIL, or UNKNOWN (exactly when IsValid is false).
	LineType string

	// Region is the region of the number's numbering plan, as libphonenumber names it: the
	// ISO 3166-1 alpha-2 code (upper case) of its country, except for the plans of places
	// ISO gives no code of their own (XK Kosovo; AC Ascension and TA Tristan da Cunha, parts
	// of SH); see above for when it is empty.
	Region string
}

// Validate parses number, validates it and formats it.
//
// number may be in any format libphonenumber reads: international ("+61 2 9374 4000",
// "0061 2 9374 4000" when the region's international prefix is 00), national ("(02) 9374 4000")
// with a region, RFC 3966 ("tel:+61-2-9374-4000"), with letters ("1-800-FLOWERS"), with an
// extension, in full-width digits. region is the ISO 3166-1 alpha-2 code of the country the
// number is dialled in, in any case; it may be empty when number is in international form,
// and it is ignored when number carries its own calling code. (The API resolves alpha-3 and
// numeric codes to alpha-2 before calling Validate.)
//
// lang is the request's localityLanguage, an ISO 639-1 code in any case, possibly with script
// or region subtags ("pt-BR", "zh-Hant", "zh_TW"); anything else is treated as English. It
// only affects Location.
//
// Validate is safe for concurrent use.
func Validate(number, region, lang string) (Result, error) {
	var pn phonenumbers.PhoneNumber
	parseRegion, err := parseInput(number, region, &pn)
	if err != nil {
		return Result{}, err
	}
	cp := planFor(pn.GetCountryCode())
	if cp == nil {
		// phonenumbers parsed a calling code whose metadata plan.go did not compile: a bug
		// of plan.go (TestPlanDescs checks every calling code), not a caller's mistake.
		return Result{}, fmt.Errorf("phone: no numbering plan for calling code +%d", pn.GetCountryCode())
	}
	// One pass over the regions sharing the calling code gives the region and the type
	// (IsValidNumber is GetNumberType(n) != UNKNOWN: both resolve the region from the calling
	// code and match the same patterns).
	nsn := nationalSignificantNumber(&pn)
	numRegion, typ := cp.regionAndType(nsn)
	r := Result{
		IsValid:  typ != phonenumbers.UNKNOWN,
		E164:     "+" + cp.code + nsn,
		LineType: typeName(typ),
	}
	intl, national := cp.format.formatNsn(nsn, false), cp.format.formatNsn(nsn, true)
	if ext := pn.GetExtension(); ext != "" {
		intl += cp.format.extnPrefix + ext
		national += cp.format.extnPrefix + ext
	}
	r.International = "+" + cp.code + " " + intl
	r.National = national
	switch {
	case len(cp.regions) == 1:
		if len(numRegion) == 2 {
			r.Region = numRegion
		} // else "001": a non-geographic calling code
	case r.IsValid:
		r.Region = numRegion
	case parseRegion != "" && slices.Contains(cp.regions, parseRegion):
		r.Region = parseRegion
	}
	if r.IsValid && r.Region != "" {
		r.Location, r.LocationIsCountry = location(&pn, typ, r.Region, lang)
	}
	return r, nil
}

// parseInput applies the input bounds, resolves region (upper case; "" when phonenumbers has
// no plan for it) and parses number into pn. It returns the region parsed with.
func parseInput(number, region string, pn *phonenumbers.PhoneNumber) (string, error) {
	// Spaces around the number are not part of it (a form's trailing blanks), and so do not
	// count against its length.
	number = strings.TrimSpace(number)
	if len(number) > MaxInputLen {
		return "", fmt.Errorf("%w: it is longer than %d bytes", ErrTooLong, MaxInputLen)
	}
	if number == "" {
		return "", fmt.Errorf("%w: the number is empty", ErrNotANumber)
	}
	given := strings.ToUpper(strings.TrimSpace(region))
	known := knownRegion(given)
	parseRegion := ""
	if known {
		parseRegion = given
	}
	if err := phonenumbers.ParseToNumber(compact(number), parseRegion, pn); err != nil {
		return "", parseError(err, number, given, known)
	}
	return parseRegion, nil
}

// HasPlan reports whether region, an ISO 3166-1 alpha-2 code in any case, has a telephone
// numbering plan in the data (XK does, though ISO has not assigned it; ZZ does not).
func HasPlan(region string) bool { return knownRegion(strings.ToUpper(region)) }

// knownRegion reports whether region (upper case) is a region phonenumbers has a numbering
// plan for. It excludes "001", the pseudo-region of the non-geographic calling codes.
func knownRegion(region string) bool {
	return len(region) == 2 && phonenumbers.GetCountryCodeForRegion(region) != 0
}

// parseError turns a phonenumbers parse error into one of the package's errors, with a
// message for the person who sent the number.
func parseError(err error, number, region string, known bool) error {
	switch {
	case errors.Is(err, phonenumbers.ErrNumTooLong):
		return fmt.Errorf("%w: %q has more digits than any phone number", ErrTooLong, number)
	case errors.Is(err, phonenumbers.ErrTooShortNSN), errors.Is(err, phonenumbers.ErrTooShortAfterIDD):
		return fmt.Errorf("%w: %q is too short to be a phone number", ErrNotANumber, number)
	case errors.Is(err, phonenumbers.ErrInvalidCountryCode):
		switch {
		case known || international(number):
			return fmt.Errorf("%w: %q does not start with a known country calling code", ErrUnknownRegion, number)
		case region == "":
			return fmt.Errorf("%w: %q is in national form; give the country, or write the number in international form (+ and the country calling code)", ErrUnknownRegion, number)
		default:
			return fmt.Errorf("%w: no telephone numbering plan is known for country %q", ErrUnknownRegion, region)
		}
	}
	// phonenumbers.ErrNotANumber and anything phonenumbers may add later.
	return fmt.Errorf("%w: %q", ErrNotANumber, number)
}

// international reports whether number's first character that can start a phone number is a
// plus sign (ASCII or full-width), which is how phonenumbers decides the same.
func international(number string) bool {
	for _, c := range number {
		switch {
		case c == '+' || c == '＋':
			return true
		case c >= '0' && c <= '9' || c >= '０' && c <= '９':
			return false
		}
	}
	return false
}

// compact returns number without its separators when it consists only of ASCII digits, the
// separators " -.()/" and at most one "+" before the first digit, and has at least three
// digits; otherwise it returns number unchanged.
//
// phonenumbers parses both forms to the same PhoneNumber (it drops these separators itself,
// and none of them can start an extension), but its case-insensitive extension pattern is
// matched from every position of the input, so the shorter string parses about a third
// faster. TestCompactParsesAlike and FuzzCompact check the equivalence. (With fewer than three
// digits the separators matter: "1 2" is not a number to phonenumbers, "12" is.)
func compact(number string) string {
	var buf [MaxInputLen]byte
	n, digits := 0, 0
	for i := 0; i < len(number); i++ {
		switch c := number[i]; {
		case c >= '0' && c <= '9':
			buf[n] = c
			n++
			digits++
		case c == '+' && n == 0:
			buf[n] = c
			n++
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')' || c == '/':
		default:
			return number
		}
	}
	if digits < 3 || n == len(number) {
		return number
	}
	return string(buf[:n])
}

// typeName returns the libphonenumber name of t.
func typeName(t phonenumbers.PhoneNumberType) string {
	switch t {
	case phonenumbers.FIXED_LINE:
		return "FIXED_LINE"
	case phonenumbers.MOBILE:
		return "MOBILE"
	case phonenumbers.FIXED_LINE_OR_MOBILE:
		return "FIXED_LINE_OR_MOBILE"
	case phonenumbers.TOLL_FREE:
		return "TOLL_FREE"
	case phonenumbers.PREMIUM_RATE:
		return "PREMIUM_RATE"
	case phonenumbers.SHARED_COST:
		return "SHARED_COST"
	case phonenumbers.VOIP:
		return "VOIP"
	case phonenumbers.PERSONAL_NUMBER:
		return "PERSONAL_NUMBER"
	case phonenumbers.PAGER:
		return "PAGER"
	case phonenumbers.UAN:
		return "UAN"
	case phonenumbers.VOICEMAIL:
		return "VOICEMAIL"
	}
	return "UNKNOWN"
}
