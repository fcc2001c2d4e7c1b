package phone

import (
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// benchCases are the shapes of input the API sees most.
var benchCases = []struct{ name, number, region, lang string }{
	{"AU-fixed-international", "+61 2 9374 4000", "", "en"},
	{"AU-fixed-national", "(02) 9374 4000", "AU", "en"},
	{"DE-fixed-de", "+49 30 901820", "", "de"},
	{"DE-mobile-national", "0151 23456789", "DE", "en"},
	{"US-fixed-or-mobile", "+1 650-253-0000", "", "en"},
	{"US-toll-free-letters", "1-800-FLOWERS", "US", "en"},
	{"GB-mobile-cs", "+44 7400 123456", "", "cs"},
	{"BR-mobile-pt", "+55 11 96123-4567", "", "pt-BR"},
	{"invalid", "+1 999 555 0100", "", "en"},
	{"not-a-number", "hello", "", "en"},
}

// BenchmarkValidate measures one Validate call after Warm, for benchCases. The budget is
// 20 µs per call (see the package documentation).
func BenchmarkValidate(b *testing.B) {
	benchValidate(b, Validate)
}

// BenchmarkValidateReference measures referenceValidate, the same answer from phonenumbers'
// own functions one by one (as Validate worked before plan.go), on the same cases, for
// comparison in the same run:
//
//	go test -run '^$' -bench 'Validate(Reference)?$' -benchmem ./internal/phone/
func BenchmarkValidateReference(b *testing.B) {
	benchValidate(b, referenceValidate)
}

func benchValidate(b *testing.B, validate func(number, region, lang string) (Result, error)) {
	if err := Warm(); err != nil {
		b.Fatal(err)
	}
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			if _, err := validate(c.number, c.region, c.lang); err != nil && c.name != "not-a-number" {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = validate(c.number, c.region, c.lang)
			}
		})
	}
}

// BenchmarkPhonenumbers measures the phonenumbers calls Validate makes, one by one, for
// +61 2 9374 4000 (a calling code shared by three regions, and a prefix the geocoding data
// does not know, so the slow paths of GetRegionCodeForNumber and of the geocoder's fallback).
func BenchmarkPhonenumbers(b *testing.B) {
	if err := Warm(); err != nil {
		b.Fatal(err)
	}
	const raw = "+61 2 9374 4000"
	pn, err := phonenumbers.Parse(raw, "")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Parse-raw", func() { _, _ = phonenumbers.Parse(raw, "") }},
		{"Parse-compact", func() { _, _ = phonenumbers.Parse(compact(raw), "") }},
		{"GetNumberType", func() { phonenumbers.GetNumberType(pn) }},
		{"GetRegionCodeForNumber", func() { phonenumbers.GetRegionCodeForNumber(pn) }},
		{"Format-E164", func() { phonenumbers.Format(pn, phonenumbers.E164) }},
		{"Format-INTERNATIONAL", func() { phonenumbers.Format(pn, phonenumbers.INTERNATIONAL) }},
		{"Format-NATIONAL", func() { phonenumbers.Format(pn, phonenumbers.NATIONAL) }},
		{"GetGeocodingForNumber", func() { _, _ = phonenumbers.GetGeocodingForNumber(pn, "en") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.f()
			}
		})
	}
}
