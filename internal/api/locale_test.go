package api

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWithdrawnLanguageCodes: a withdrawn ISO 639 code names what its successor names
// (iw is Hebrew, in Indonesian), in country names as in phone validation.
func TestWithdrawnLanguageCodes(t *testing.T) {
	s := ipRealServer(t)
	for old, cur := range map[string]string{"iw": "he", "iw-IL": "he-IL", "in": "id"} {
		got := ipGetJSON(t, s, "/data/country-info?code=IL&key=good&localityLanguage="+old, 200)
		want := ipGetJSON(t, s, "/data/country-info?code=IL&key=good&localityLanguage="+cur, 200)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s against %s (-%s +%s):\n%s", old, cur, cur, old, diff)
		}
	}
	if name := ipGetJSON(t, s, "/data/country-info?code=IL&key=good&localityLanguage=iw", 200)["name"]; name != "ישראל" {
		t.Errorf("Israel in iw: %v, want its Hebrew name", name)
	}
}
