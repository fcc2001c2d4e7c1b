package phone

import (
	"fmt"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Warm pays phonenumbers' one-time costs up front, so that no request does: it loads the
// geocoding data of every language Validate may ask for (phonenumbers keeps each for the
// life of the process; English alone takes about 0.1 s and most of the memory) and validates
// libphonenumber's example number of every type in every region, which compiles and caches
// the regular expressions of every numbering plan, phonenumbers' and Validate's own (plan.go).
// It takes well under a second. The server
// calls it once at start-up; calling it again is harmless but pointless, and it is safe to
// call concurrently with Validate.
//
// An error means the geocoding data embedded in phonenumbers could not be read, which only a
// broken build can cause; Validate would then return numbers without locations.
func Warm() error {
	if planFor(1) == nil {
		return fmt.Errorf("phone: warm: no numbering plan for +1: metadata unreadable")
	}
	// A fixed line in Sydney: geographic, so the lookup reads the language's data.
	pn, err := phonenumbers.Parse("+61 2 8000 0000", "")
	if err != nil {
		return fmt.Errorf("phone: warm: %w", err)
	}
	for l := range strings.FieldsSeq(geoLanguages) {
		if _, err := phonenumbers.GetGeocodingForNumber(pn, l); err != nil {
			return fmt.Errorf("phone: warm: geocoding data for %q: %w", l, err)
		}
	}
	types := []phonenumbers.PhoneNumberType{
		phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE,
		phonenumbers.PREMIUM_RATE, phonenumbers.SHARED_COST, phonenumbers.VOIP,
		phonenumbers.PERSONAL_NUMBER, phonenumbers.PAGER, phonenumbers.UAN, phonenumbers.VOICEMAIL,
	}
	warm := func(ex *phonenumbers.PhoneNumber) {
		if ex != nil {
			e164 := phonenumbers.Format(ex, phonenumbers.E164)
			_, _ = Validate(e164, "", "en")
			_, _ = Validate(phonenumbers.Format(ex, phonenumbers.NATIONAL), phonenumbers.GetRegionCodeForNumber(ex), "en")
		}
	}
	for region := range phonenumbers.GetSupportedRegions() {
		for _, t := range types {
			warm(phonenumbers.GetExampleNumberForType(region, t))
		}
	}
	for cc := range phonenumbers.GetSupportedGlobalNetworkCallingCodes() {
		warm(phonenumbers.GetExampleNumberForNonGeoEntity(cc))
	}
	return nil
}
