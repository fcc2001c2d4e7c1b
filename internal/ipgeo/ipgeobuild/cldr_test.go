package ipgeobuild

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestParseZoneAliases(t *testing.T) {
	// The shape of cldr-bcp47's bcp47/timezone.json: the key's own description and alias
	// are strings among the zones; deprecated zones have no _alias.
	const doc = `{"version":{"_number":"$Revision$"},"keyword":{"u":{"tz":{
		"_description": "Time zone key",
		"_alias": "timezone",
		"usnyc": {"_description": "New York, United States", "_alias": "America/New_York US/Eastern EST5EDT"},
		"inccu": {"_description": "Kolkata, India", "_alias": "Asia/Calcutta Asia/Kolkata", "_iana": "Asia/Kolkata"},
		"deber": {"_description": "Berlin, Germany", "_alias": "Europe/Berlin"},
		"camtr": {"_deprecated": true, "_description": "Montreal, Canada", "_preferred": "cator"},
		"xxone": {"_alias": "Zone/B Shared/Id"},
		"xxtwo": {"_alias": "Zone/A Shared/Id"}
	}}}}`
	got, err := parseZoneAliases(fstest.MapFS{"bcp47/timezone.json": {Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"US/Eastern":   "America/New_York",
		"EST5EDT":      "America/New_York",
		"Asia/Kolkata": "Asia/Calcutta",
		"Shared/Id":    "Zone/A", // listed twice: the smaller id, whatever the map's order
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	for name, doc := range map[string]string{
		"no aliases": `{"keyword":{"u":{"tz":{"deber": {"_alias": "Europe/Berlin"}}}}}`,
		"not JSON":   `{"keyword":`,
	} {
		if _, err := parseZoneAliases(fstest.MapFS{"bcp47/timezone.json": {Data: []byte(doc)}}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := parseZoneAliases(fstest.MapFS{}); err == nil {
		t.Error("missing file: no error")
	}
}
