package phone

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nyaruka/phonenumbers"
	"google.golang.org/protobuf/proto"
)

// referenceValidate is Validate done the plain way, with phonenumbers' public functions only:
// Parse, GetNumberType, IsValidNumber, Format three times, GetRegionCodeForNumber and the
// geocoder. Validate must answer exactly as it does (TestValidateMatchesReference).
func referenceValidate(number, region, lang string) (Result, error) {
	number = strings.TrimSpace(number)
	if len(number) > MaxInputLen {
		return Result{}, fmt.Errorf("%w: it is longer than %d bytes", ErrTooLong, MaxInputLen)
	}
	if strings.TrimSpace(number) == "" {
		return Result{}, fmt.Errorf("%w: the number is empty", ErrNotANumber)
	}
	given := strings.ToUpper(strings.TrimSpace(region))
	known := knownRegion(given)
	parseRegion := ""
	if known {
		parseRegion = given
	}
	pn, err := phonenumbers.Parse(number, parseRegion)
	if err != nil {
		return Result{}, parseError(err, number, given, known)
	}
	typ := phonenumbers.GetNumberType(pn)
	r := Result{
		IsValid:       phonenumbers.IsValidNumber(pn),
		E164:          phonenumbers.Format(pn, phonenumbers.E164),
		International: phonenumbers.Format(pn, phonenumbers.INTERNATIONAL),
		National:      referenceNational(pn),
		LineType:      typeName(typ),
	}
	if r.IsValid != (typ != phonenumbers.UNKNOWN) {
		panic(fmt.Sprintf("%q: IsValidNumber %v but type %s", number, r.IsValid, r.LineType))
	}
	regions := phonenumbers.GetRegionCodesForCountryCode(int(pn.GetCountryCode()))
	switch {
	case len(regions) == 1:
		if len(regions[0]) == 2 {
			r.Region = regions[0]
		}
	case r.IsValid:
		r.Region = phonenumbers.GetRegionCodeForNumber(pn)
	case slices.Contains(regions, parseRegion) && parseRegion != "":
		r.Region = parseRegion
	}
	if r.IsValid && r.Region != "" {
		r.Location, r.LocationIsCountry = location(pn, typ, r.Region, lang)
	}
	return r, nil
}

// differentialInputs builds a few thousand inputs deterministically from libphonenumber's
// example numbers: every type of every region and every non-geographic calling code, written
// in several ways, plus mutations that make most of them invalid (a digit more, a digit less,
// a digit changed), with extensions, with IDD prefixes, with the wrong region or none.
func differentialInputs(t testing.TB) []struct{ number, region, lang string } {
	langs := []string{"en", "de", "cs", "zh-TW", "pt-BR", "ja", "fr", "he", "ru", "default"}
	var in []struct{ number, region, lang string }
	i := 0
	add := func(number, region string) {
		in = append(in, struct{ number, region, lang string }{number, region, langs[i%len(langs)]})
		i++
	}
	variants := func(pn *phonenumbers.PhoneNumber, region string) {
		e164 := phonenumbers.Format(pn, phonenumbers.E164)
		intl := phonenumbers.Format(pn, phonenumbers.INTERNATIONAL)
		nat := phonenumbers.Format(pn, phonenumbers.NATIONAL)
		nsn := phonenumbers.GetNationalSignificantNumber(pn)
		cc := strconv.Itoa(int(pn.GetCountryCode()))
		add(e164, "")
		add(intl, region)
		add(nat, region)
		add(nat, "")
		add(intl+" ext. 12", "")
		add("tel:"+e164+";ext=7", "")
		add("00 "+cc+" "+nsn, "DE")
		add("011 "+cc+" "+nsn, "US")
		add(e164+"5", "")             // a digit more
		add(e164[:len(e164)-1], "")   // a digit less
		add(nsn[:len(nsn)-1], region) // national, a digit less
		add(nat+"0", region)          // national, a digit more
		last := (e164[len(e164)-1]-'0'+3)%10 + '0'
		add(e164[:len(e164)-1]+string(rune(last)), "") // last digit changed
		first := (nsn[0]-'0'+1)%10 + '0'               // first national digit changed
		add("+"+cc+string(rune(first))+nsn[1:], region)
		add("+"+cc+" 0"+nsn, "") // national prefix kept after the calling code
		if region != "" {
			// The same number given with every other region sharing its calling code.
			for _, r := range phonenumbers.GetRegionCodesForCountryCode(int(pn.GetCountryCode())) {
				if r != region {
					add(nsn, r)
					add(nsn[:len(nsn)-1], r)
				}
			}
		}
	}
	regions := make([]string, 0, 256)
	for r := range phonenumbers.GetSupportedRegions() {
		regions = append(regions, r)
	}
	slices.Sort(regions)
	for _, region := range regions {
		for typ := phonenumbers.FIXED_LINE; typ < phonenumbers.UNKNOWN; typ++ {
			if pn := phonenumbers.GetExampleNumberForType(region, typ); pn != nil {
				variants(pn, region)
			}
		}
	}
	codes := make([]int, 0, 16)
	for cc := range phonenumbers.GetSupportedGlobalNetworkCallingCodes() {
		codes = append(codes, cc)
	}
	slices.Sort(codes)
	for _, cc := range codes {
		if pn := phonenumbers.GetExampleNumberForNonGeoEntity(cc); pn != nil {
			variants(pn, "")
		}
	}
	for _, s := range []string{"112", "110", "+1 999 555 0100", "+7 999 123 4567", "+44 7400 123456",
		"1-800-FLOWERS", "+1 650 253 0000 x12", "+39 06 1234 5678", "+39 0612345678", "+225 01 23 45 67 89",
		"+54 9 11 2345 6789", "+52 1 55 1234 5678", "+0 123 456", "+800 0000 0000", "(0)44 668 18 00"} {
		for _, r := range []string{"", "US", "GB", "IT", "AR"} {
			add(s, r)
		}
	}
	if len(in) < 5000 {
		t.Fatalf("only %d inputs", len(in))
	}
	return in
}

// TestValidateMatchesReference compares Validate with referenceValidate, field by field and
// error by error, on differentialInputs: it backs the claim that plan.go answers as
// phonenumbers' own functions do.
func TestValidateMatchesReference(t *testing.T) {
	inputs := differentialInputs(t)
	valid, invalid, failed := 0, 0, 0
	for _, c := range inputs {
		want, wantErr := referenceValidate(c.number, c.region, c.lang)
		got, gotErr := Validate(c.number, c.region, c.lang)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Errorf("Validate(%q, %q, %q): error %v, reference %v", c.number, c.region, c.lang, gotErr, wantErr)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Validate(%q, %q, %q) (-reference +Validate):\n%s", c.number, c.region, c.lang, diff)
		}
		switch {
		case gotErr != nil:
			failed++
		case got.IsValid:
			valid++
		default:
			invalid++
		}
	}
	t.Logf("%d inputs: %d valid, %d invalid, %d errors", len(inputs), valid, invalid, failed)
	// The mix must exercise every path.
	if valid < 1000 || invalid < 1000 || failed < 100 {
		t.Errorf("too few of some kind: %d valid, %d invalid, %d errors", valid, invalid, failed)
	}
}

// TestPlanDescs checks an assumption of plan.go: every metadata entry has every number
// description it matches against, as phonenumbers (which would panic on a missing one)
// relies on too.
func TestPlanDescs(t *testing.T) {
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range coll.GetMetadata() {
		for name, d := range map[string]*phonenumbers.PhoneNumberDesc{
			"general": m.GetGeneralDesc(), "premiumRate": m.GetPremiumRate(), "tollFree": m.GetTollFree(),
			"sharedCost": m.GetSharedCost(), "voip": m.GetVoip(), "personalNumber": m.GetPersonalNumber(),
			"pager": m.GetPager(), "uan": m.GetUan(), "voicemail": m.GetVoicemail(),
			"fixedLine": m.GetFixedLine(), "mobile": m.GetMobile(),
		} {
			if d == nil {
				t.Errorf("%s (+%d): no %s description", m.GetId(), m.GetCountryCode(), name)
			}
		}
	}
	for cc := range phonenumbers.GetSupportedCallingCodes() {
		if planFor(int32(cc)) == nil {
			t.Errorf("no plan for +%d", cc)
		}
	}
}

// referenceNational is phonenumbers.Format(pn, NATIONAL) as libphonenumber formats it. A
// format's national-prefix formatting rule stands in for the format's first group, and the
// rule's $1 means that group; phonenumbers v1.8.1 pastes the rule in literally, which is
// the same wherever the first group is $1 and wrong where it is not (Argentina's mobile
// formats "$2 15-$3-$4": libphonenumber 011 15-2345-6789, phonenumbers 09 15-2345-6789).
// For calling codes with such a format, the reference formats by phonenumbers'
// FormatByPattern with the rules' $1 spelt out.
func referenceNational(pn *phonenumbers.PhoneNumber) string {
	national := phonenumbers.Format(pn, phonenumbers.NATIONAL)
	md := referenceMetadata(pn.GetCountryCode())
	if md == nil {
		return national
	}
	formats := make([]*phonenumbers.NumberFormat, 0, len(md.GetNumberFormat()))
	spelt := false
	for _, nf := range md.GetNumberFormat() {
		nf = proto.Clone(nf).(*phonenumbers.NumberFormat)
		fg := phonenumbers.FIRST_GROUP_PATTERN.FindString(nf.GetFormat())
		if rule := nf.GetNationalPrefixFormattingRule(); rule != "" && fg != "" && fg != "$1" {
			rule = strings.ReplaceAll(rule, "$1", fg)
			nf.NationalPrefixFormattingRule, spelt = &rule, true
		}
		formats = append(formats, nf)
	}
	if !spelt {
		return national
	}
	return phonenumbers.FormatByPattern(pn, phonenumbers.NATIONAL, formats)
}

// referenceMetadata is the metadata phonenumbers formats numbers of calling code cc by: that
// of the calling code's main region.
func referenceMetadata(cc int32) *phonenumbers.PhoneMetadata {
	region := phonenumbers.GetRegionCodeForCountryCode(int(cc))
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		panic(err)
	}
	for _, m := range coll.GetMetadata() {
		if m.GetCountryCode() == cc && m.GetId() == region {
			return m
		}
	}
	return nil
}
