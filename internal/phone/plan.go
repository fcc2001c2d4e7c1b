package phone

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/nyaruka/phonenumbers"
)

// This file holds Validate's own copy of the parts of phonenumbers' metadata it consults after
// parsing (number types, the region of a number under a shared calling code, formatting
// patterns), with every regular expression compiled once, up front.
//
// phonenumbers keeps the metadata's patterns as strings: each time it tests a number against a
// pattern it builds "^(?:" + pattern + ")$" (patterns run to a few kB), hashes that string to
// find the compiled expression in a mutex-guarded cache, and does so twice per test. That
// bookkeeping, not the matching, was most of GetNumberType, GetRegionCodeForNumber and Format.
// The functions here follow phonenumbers v1.8.1 step by step (getNumberTypeHelper,
// getRegionCodeForNumberFromRegionList, formatNsn and its helpers), on the same metadata
// objects (phonenumbers.MetadataCollection returns the collection the library itself uses)
// and the same pattern strings compiled by the same regexp package, so they give the same
// answers; TestValidateMatchesReference compares Validate with phonenumbers' own functions on
// thousands of numbers.

// descPlan is a PhoneNumberDesc ready for matching.
type descPlan struct {
	lengths []int32        // PossibleLength; empty means any length
	re      *regexp.Regexp // "^(?:" + NationalNumberPattern + ")$"
}

// match is phonenumbers' isNumberMatchingDesc: the length is possible and the pattern
// matches the whole number.
func (d *descPlan) match(nsn string) bool {
	if len(d.lengths) > 0 && !slices.Contains(d.lengths, int32(len(nsn))) {
		return false
	}
	return d.re.MatchString(nsn)
}

// formatPlan is a NumberFormat ready for formatting.
type formatPlan struct {
	whole    *regexp.Regexp // "^(?:" + Pattern + ")$"
	leading  *regexp.Regexp // "^(?:" + the last LeadingDigitsPattern + ")", or nil
	pattern  *regexp.Regexp // Pattern as it is, for the replacement
	intl     string         // Format
	national string         // Format with its first group written by NationalPrefixFormattingRule
}

// metaPlan is one region's (or non-geographic calling code's) PhoneMetadata ready for use.
type metaPlan struct {
	general, premiumRate, tollFree, sharedCost, voip, personalNumber,
	pager, uan, voicemail, fixedLine, mobile descPlan
	sameMobileAndFixedLine bool

	leadingDigits *regexp.Regexp // "^(?:" + LeadingDigits + ")", or nil

	nationalFormats, intlFormats []formatPlan
	extnPrefix                   string // PreferredExtnPrefix, or phonenumbers.DEFAULT_EXTN_PREFIX
}

// callingCodePlan is what Validate needs to know about a country calling code.
type callingCodePlan struct {
	code    string      // the calling code in decimal
	regions []string    // phonenumbers.GetRegionCodesForCountryCode, main region first
	metas   []*metaPlan // the metadata of each of regions, nil where phonenumbers has none
	format  *metaPlan   // the metadata phonenumbers formats numbers with (the main region's)
}

// maxCallingCode bounds country calling codes, which have at most three digits.
const maxCallingCode = 999

var (
	planOnce sync.Once
	plans    *[maxCallingCode + 1]*callingCodePlan
)

// planFor returns the plan of calling code cc, or nil if phonenumbers does not know cc (or
// its metadata could not be read, which only a broken build can cause).
func planFor(cc int32) *callingCodePlan {
	planOnce.Do(func() { plans = buildPlans() })
	if plans == nil || cc < 0 || cc > maxCallingCode {
		return nil
	}
	return plans[cc]
}

// buildPlans compiles the plans of every calling code phonenumbers supports.
func buildPlans() *[maxCallingCode + 1]*callingCodePlan {
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		return nil
	}
	// As phonenumbers' metadata container: regions by ID, non-geographic entities by calling
	// code, later entries replacing earlier ones.
	byRegion := map[string]*phonenumbers.PhoneMetadata{}
	nonGeo := map[int]*phonenumbers.PhoneMetadata{}
	for _, m := range coll.GetMetadata() {
		if id := m.GetId(); id == phonenumbers.REGION_CODE_FOR_NON_GEO_ENTITY {
			nonGeo[int(m.GetCountryCode())] = m
		} else {
			byRegion[id] = m
		}
	}
	supported := phonenumbers.GetSupportedRegions()
	compiled := map[*phonenumbers.PhoneMetadata]*metaPlan{}
	plan := func(m *phonenumbers.PhoneMetadata) *metaPlan {
		if m == nil {
			return nil
		}
		if p, ok := compiled[m]; ok {
			return p
		}
		p := newMetaPlan(m)
		compiled[m] = p
		return p
	}
	// metadataFor is phonenumbers' getMetadataForRegionOrCallingCode.
	metadataFor := func(cc int, region string) *phonenumbers.PhoneMetadata {
		if region == phonenumbers.REGION_CODE_FOR_NON_GEO_ENTITY {
			return nonGeo[cc]
		}
		if !supported[region] {
			return nil
		}
		return byRegion[region]
	}
	var out [maxCallingCode + 1]*callingCodePlan
	for cc := range phonenumbers.GetSupportedCallingCodes() {
		regions := phonenumbers.GetRegionCodesForCountryCode(cc)
		if cc < 0 || cc > maxCallingCode || len(regions) == 0 {
			continue
		}
		p := &callingCodePlan{code: strconv.Itoa(cc), regions: regions, metas: make([]*metaPlan, len(regions))}
		for i, r := range regions {
			p.metas[i] = plan(metadataFor(cc, r))
		}
		p.format = plan(metadataFor(cc, regions[0]))
		if p.format == nil {
			continue // phonenumbers could not format these numbers either; leave them to it
		}
		out[cc] = p
	}
	return &out
}

func newMetaPlan(m *phonenumbers.PhoneMetadata) *metaPlan {
	desc := func(d *phonenumbers.PhoneNumberDesc) descPlan {
		return descPlan{
			lengths: d.GetPossibleLength(),
			re:      regexp.MustCompile("^(?:" + d.GetNationalNumberPattern() + ")$"),
		}
	}
	p := &metaPlan{
		general:                desc(m.GetGeneralDesc()),
		premiumRate:            desc(m.GetPremiumRate()),
		tollFree:               desc(m.GetTollFree()),
		sharedCost:             desc(m.GetSharedCost()),
		voip:                   desc(m.GetVoip()),
		personalNumber:         desc(m.GetPersonalNumber()),
		pager:                  desc(m.GetPager()),
		uan:                    desc(m.GetUan()),
		voicemail:              desc(m.GetVoicemail()),
		fixedLine:              desc(m.GetFixedLine()),
		mobile:                 desc(m.GetMobile()),
		sameMobileAndFixedLine: m.GetSameMobileAndFixedLinePattern(),
		extnPrefix:             m.GetPreferredExtnPrefix(),
	}
	if ld := m.GetLeadingDigits(); ld != "" {
		p.leadingDigits = regexp.MustCompile("^(?:" + ld + ")")
	}
	if p.extnPrefix == "" {
		p.extnPrefix = phonenumbers.DEFAULT_EXTN_PREFIX
	}
	formats := func(nfs []*phonenumbers.NumberFormat) []formatPlan {
		out := make([]formatPlan, 0, len(nfs))
		for _, nf := range nfs {
			f := formatPlan{
				whole:    regexp.MustCompile("^(?:" + nf.GetPattern() + ")$"),
				pattern:  regexp.MustCompile(nf.GetPattern()),
				intl:     nf.GetFormat(),
				national: nf.GetFormat(),
			}
			if ldp := nf.GetLeadingDigitsPattern(); len(ldp) > 0 {
				// phonenumbers looks for the last (most detailed) pattern anywhere in the
				// number and accepts a match at the start: the same as matching it there.
				f.leading = regexp.MustCompile("^(?:" + ldp[len(ldp)-1] + ")")
			}
			if rule := nf.GetNationalPrefixFormattingRule(); rule != "" {
				// As libphonenumber's formatNsnUsingPatternWithCarrier: the rule replaces the
				// format's first group reference, and the rule's own $1 stands for that
				// reference, so "0$1" turns Argentina's mobile format "$2 15-$3-$4" into
				// "0$2 15-$3-$4" (011 15-2345-6789). phonenumbers v1.8.1 pastes the rule in
				// literally, naming the pattern's first group instead (09 15-2345-6789).
				first := true
				f.national = phonenumbers.FIRST_GROUP_PATTERN.ReplaceAllStringFunc(f.national, func(s string) string {
					if first {
						first = false
						return strings.ReplaceAll(rule, "$1", s)
					}
					return s
				})
			}
			out = append(out, f)
		}
		return out
	}
	p.nationalFormats = formats(m.GetNumberFormat())
	p.intlFormats = p.nationalFormats
	if len(m.GetIntlNumberFormat()) > 0 {
		p.intlFormats = formats(m.GetIntlNumberFormat())
	}
	return p
}

// numberType is phonenumbers' getNumberTypeHelper.
func (m *metaPlan) numberType(nsn string) phonenumbers.PhoneNumberType {
	switch {
	case !m.general.match(nsn):
		return phonenumbers.UNKNOWN
	case m.premiumRate.match(nsn):
		return phonenumbers.PREMIUM_RATE
	case m.tollFree.match(nsn):
		return phonenumbers.TOLL_FREE
	case m.sharedCost.match(nsn):
		return phonenumbers.SHARED_COST
	case m.voip.match(nsn):
		return phonenumbers.VOIP
	case m.personalNumber.match(nsn):
		return phonenumbers.PERSONAL_NUMBER
	case m.pager.match(nsn):
		return phonenumbers.PAGER
	case m.uan.match(nsn):
		return phonenumbers.UAN
	case m.voicemail.match(nsn):
		return phonenumbers.VOICEMAIL
	case m.fixedLine.match(nsn):
		if m.sameMobileAndFixedLine || m.mobile.match(nsn) {
			return phonenumbers.FIXED_LINE_OR_MOBILE
		}
		return phonenumbers.FIXED_LINE
	case !m.sameMobileAndFixedLine && m.mobile.match(nsn):
		return phonenumbers.MOBILE
	}
	return phonenumbers.UNKNOWN
}

// regionAndType returns what phonenumbers' GetRegionCodeForNumber and GetNumberType return
// for a number of this calling code with national significant number nsn, each region's
// patterns tried at most once.
func (p *callingCodePlan) regionAndType(nsn string) (string, phonenumbers.PhoneNumberType) {
	if len(p.regions) == 1 {
		if m := p.metas[0]; m != nil {
			return p.regions[0], m.numberType(nsn)
		}
		return p.regions[0], phonenumbers.UNKNOWN
	}
	// getRegionCodeForNumberFromRegionList; metadata cannot be nil for these regions.
	for i, r := range p.regions {
		m := p.metas[i]
		if m == nil {
			continue // phonenumbers would fail here; it cannot happen with its own metadata
		}
		if m.leadingDigits != nil {
			if m.leadingDigits.MatchString(nsn) {
				return r, m.numberType(nsn)
			}
		} else if t := m.numberType(nsn); t != phonenumbers.UNKNOWN {
			return r, t
		}
	}
	// No region: GetNumberType finds no metadata for "" and answers UNKNOWN.
	return "", phonenumbers.UNKNOWN
}

// formatNsn is phonenumbers' formatNsn (without a carrier code) for format NATIONAL when
// national is true, else INTERNATIONAL.
func (m *metaPlan) formatNsn(nsn string, national bool) string {
	formats := m.intlFormats
	if national {
		formats = m.nationalFormats
	}
	for i := range formats {
		f := &formats[i]
		if f.leading != nil && !f.leading.MatchString(nsn) || !f.whole.MatchString(nsn) {
			continue
		}
		if national {
			return f.pattern.ReplaceAllString(nsn, f.national)
		}
		return f.pattern.ReplaceAllString(nsn, f.intl)
	}
	return nsn
}

// nationalSignificantNumber is phonenumbers' GetNationalSignificantNumber.
func nationalSignificantNumber(pn *phonenumbers.PhoneNumber) string {
	var buf [phonenumbers.MAX_LENGTH_FOR_NSN + 20]byte
	b := buf[:0]
	if pn.GetItalianLeadingZero() && pn.GetNumberOfLeadingZeros() > 0 {
		for range min(int(pn.GetNumberOfLeadingZeros()), phonenumbers.MAX_LENGTH_FOR_NSN) {
			b = append(b, '0')
		}
	}
	return string(strconv.AppendUint(b, pn.GetNationalNumber(), 10))
}
