package api

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTimeZoneEndpoints: each time zone endpoint answers the timeZone object that the
// geolocation answer of an address in that zone holds, for the same instant and language;
// what none of them knows is a 404, and bad input the usual 400, 401 or 405.
func TestTimeZoneEndpoints(t *testing.T) {
	s := ipRealServer(t)
	const ref = "&utcReference=1781000000&key=good"
	for _, tc := range []struct {
		ip, lang string
		lat, lon float64 // a point in the address's zone
	}{
		{"81.2.69.160", "en", 51.5074, -0.1278},       // Europe/London, summer time at the instant
		{"185.220.101.1", "de", 52.52, 13.405},        // Europe/Berlin
		{"2001:4860:4860::8888", "ja", 41.88, -87.63}, // America/Chicago
	} {
		geo := ipGetJSON(t, s, fmt.Sprintf("/data/ip-geolocation-with-confidence?ip=%s&localityLanguage=%s%s", tc.ip, tc.lang, ref), 200)
		want := ipPath(geo, "location", "timeZone").(map[string]any)
		for _, target := range []string{
			fmt.Sprintf("/data/timezone-by-ip?ip=%s&localityLanguage=%s%s", tc.ip, tc.lang, ref),
			fmt.Sprintf("/data/timezone-info?timeZoneId=%s&localityLanguage=%s%s", want["ianaTimeId"], tc.lang, ref),
			fmt.Sprintf("/data/timezone-by-location?latitude=%v&longitude=%v&localityLanguage=%s%s", tc.lat, tc.lon, tc.lang, ref),
		} {
			if diff := cmp.Diff(want, ipGetJSON(t, s, target, 200)); diff != "" {
				t.Errorf("%s differs from the geolocation's timeZone (-geolocation +endpoint):\n%s", target, diff)
			}
		}
	}
	// Without utcReference: now, and no utcTime.
	if tz := ipGetJSON(t, s, "/data/timezone-info?timeZoneId=Asia/Kolkata&key=good", 200); tz["utcTime"] != nil || tz["utcOffset"] != "+05:30" {
		t.Errorf("Asia/Kolkata now: %v", tz)
	}
	// An alias in CLDR's table (cldr-bcp47) answers as its zone, under its own id.
	for alias, zone := range map[string]string{"US/Eastern": "America/New_York", "Asia/Calcutta": "Asia/Kolkata", "GB": "Europe/London"} {
		want := ipGetJSON(t, s, "/data/timezone-info?localityLanguage=fr&timeZoneId="+zone+ref, 200)
		want["ianaTimeId"] = alias
		if diff := cmp.Diff(want, ipGetJSON(t, s, "/data/timezone-info?localityLanguage=fr&timeZoneId="+alias+ref, 200)); diff != "" {
			t.Errorf("%s is not answered as %s (-%s +%s):\n%s", alias, zone, zone, alias, diff)
		}
	}
	// At sea, the nautical zone, named by its offset (CLDR has no names for it).
	if tz := ipGetJSON(t, s, "/data/timezone-by-location?latitude=0&longitude=-30"+ref, 200); tz["ianaTimeId"] != "Etc/GMT+2" || tz["utcOffset"] != "-02" || tz["effectiveTimeZoneFull"] != "GMT-02:00" {
		t.Errorf("at sea: %v", tz)
	}
	// localityLanguage=default follows the address's country, as the geolocation does.
	geo := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?ip=185.220.101.1&localityLanguage=default"+ref, 200)
	if diff := cmp.Diff(ipPath(geo, "location", "timeZone"), any(ipGetJSON(t, s, "/data/timezone-by-ip?ip=185.220.101.1&localityLanguage=default"+ref, 200))); diff != "" {
		t.Errorf("default language (-geolocation +timezone-by-ip):\n%s", diff)
	}
	for _, tc := range []struct {
		target string
		code   int
	}{
		{"/data/timezone-info?timeZoneId=australia/sydney", 404},
		{"/data/timezone-info?timeZoneId=Mars/Olympus_Mons", 404},
		{"/data/timezone-info?timeZoneId=", 400},
		{"/data/timezone-info?timeZoneId=" + strings.Repeat("A", 65), 400},
		{"/data/timezone-by-ip?ip=10.1.2.3", 404},
		{"/data/timezone-by-ip?ip=1.1.1.1", 404}, // registered country only
		{"/data/timezone-by-ip?ip=999.1.1.1", 405},
		{"/data/timezone-by-location?longitude=10", 400},
		{"/data/timezone-by-location?latitude=91&longitude=0", 401},
	} {
		ipGetJSON(t, s, tc.target+"&key=good", tc.code)
	}
}

// TestTimeZoneOnBoundaries: a point exactly on the border of two time zones has one of them,
// the one east of it (see revgeo's crosses). The nautical zones' meridians at sea were 404s,
// lying on the edges of two polygons and inside neither; so were a tenth of the border
// vertices that zones share on land. A point in a sliver that simplification left between
// two zones takes the zone a grid unit away.
func TestTimeZoneOnBoundaries(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		lat, lon float64
		zone     string
	}{
		{0, 7.4, "Etc/GMT"}, // either side of the first meridian, as before
		{0, 7.6, "Etc/GMT-1"},
		{0, 7.5, "Etc/GMT-1"},
		{0, -7.5, "Etc/GMT"},
		{-40, 22.5, "Etc/GMT-2"},
		{-40, -37.5, "Etc/GMT+2"},
		{10, -172.5, "Etc/GMT+11"},
		{-50, 172.5, "Etc/GMT-12"},
		{-50, -172.5, "Etc/GMT+11"},
		{30.47226, -84.98888, "America/New_York"},        // a vertex of the Chicago and New York zones (Georgia)
		{47.08864, -100.93381, "America/Chicago"},        // of North Dakota's Center and Chicago
		{38.11943, -86.46294, "America/Indiana/Marengo"}, // a vertex at a sliver between Marengo and Tell City
	} {
		q := fmt.Sprintf("latitude=%v&longitude=%v", tc.lat, tc.lon)
		if tz := ipGetJSON(t, s, "/data/timezone-by-location?"+q+"&key=good", 200); tz["ianaTimeId"] != tc.zone {
			t.Errorf("timezone-by-location?%s: %v, want %s", q, tz["ianaTimeId"], tc.zone)
		}
		got := gqlData(t, s, "reverse-geocoding", fmt.Sprintf(`{ locationData(latitude: %v, longitude: %v) { timezone { ianaTimeId } } }`, tc.lat, tc.lon), "locationData", "")
		if id := ipPath(got, "timezone", "ianaTimeId"); id != tc.zone {
			t.Errorf("GraphQL locationData(%s): %v, want %s", q, got, tc.zone)
		}
	}
}

// TestTimeZoneLocalYearRange: an instant whose local time leaves the years 1–9999, though
// its UTC time does not, is answered as an out-of-range utcReference is: now, without
// utcTime, so that localTime keeps a four-digit year. Inside the range the instant stands.
func TestTimeZoneLocalYearRange(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		zone      string
		ref       int64
		localTime string // "": now, without utcTime
	}{
		{"Pacific/Kiritimati", 253402300799, ""},                            // 9999-12-31T23:59:59Z, year 10000 at +14
		{"Pacific/Kiritimati", 253402250399, "9999-12-31T23:59:59.0000000"}, // the last instant of year 9999 there
		{"UTC", 253402300799, "9999-12-31T23:59:59.0000000"},
		{"America/New_York", -62135596800, ""}, // 0001-01-01T00:00:00Z, year 0 at -04:56:02
		{"America/New_York", -62135596800 + 17762, "0001-01-01T00:00:00.0000000"},
		{"Asia/Tokyo", -62135596800, "0001-01-01T09:18:59.0000000"},
	} {
		target := fmt.Sprintf("/data/timezone-info?timeZoneId=%s&utcReference=%d&key=good", tc.zone, tc.ref)
		tz := ipGetJSON(t, s, target, 200)
		local, _ := tz["localTime"].(string)
		if tc.localTime != "" {
			if local != tc.localTime || tz["utcTime"] == nil {
				t.Errorf("%s: localTime %q, utcTime %v; want %q and a utcTime", target, local, tz["utcTime"], tc.localTime)
			}
			continue
		}
		// Now: the local year is this year's, or the next or last one's at the zone's offset.
		lt, err := time.Parse("2006-01-02T15:04:05.0000000", local)
		if y := time.Now().UTC().Year(); tz["utcTime"] != nil || err != nil || lt.Year() < y-1 || lt.Year() > y+1 {
			t.Errorf("%s: localTime %q, utcTime %v; want now, without utcTime", target, local, tz["utcTime"])
		}
	}
	// The geolocation's and reverse geocoding's timeZone go the same way.
	geo := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?ip=2001:4860:4860::8888&utcReference=-62135596800&key=good", 200)
	if tz := ipPath(geo, "location", "timeZone").(map[string]any); tz["utcTime"] != nil {
		t.Errorf("geolocation in America/Chicago at year 1: %v", tz)
	}
	rev := ipGetJSON(t, s, "/data/reverse-geocode-with-timezone?latitude=41.88&longitude=-87.63&utcReference=-62135596800&key=good", 200)
	if tz := rev["timeZone"].(map[string]any); tz["utcTime"] != nil {
		t.Errorf("reverse geocoding in America/Chicago at year 1: %v", tz)
	}
}

// TestTimeZoneNoStore: an answer with time zone fields for now (no utcReference, or one
// taken as now) is marked Cache-Control: no-store; one for a given instant, which never
// changes, is not. The geolocation answers mark an instant in the calendar's last year too,
// which their location's zone may take as now.
func TestTimeZoneNoStore(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		target string
		want   string
	}{
		{"/data/timezone-info?timeZoneId=Europe/Berlin", "no-store"},
		{"/data/timezone-info?timeZoneId=Europe/Berlin&utcReference=0", "no-store"},
		{"/data/timezone-info?timeZoneId=Pacific/Kiritimati&utcReference=253402300799", "no-store"},
		{"/data/timezone-by-ip?ip=81.2.69.160", "no-store"},
		{"/data/timezone-by-location?latitude=52.52&longitude=13.405", "no-store"},
		{"/data/timezone-info?timeZoneId=Europe/Berlin&utcReference=1781000000", ""},
		{"/data/timezone-by-ip?ip=81.2.69.160&utcReference=1781000000", ""},
		{"/data/timezone-info?timeZoneId=Mars/Olympus_Mons", ""}, // a 404 says nothing of the time
		{"/data/ip-geolocation-with-confidence?ip=81.2.69.160", "no-store"},
		{"/data/ip-geolocation-with-confidence?ip=81.2.69.160&utcReference=1781000000", ""},
		{"/data/ip-geolocation-with-confidence?ip=81.2.69.160&utcReference=253402300799", "no-store"},
		{"/data/ip-geolocation?ip=81.2.69.160", "no-store"},
		{"/data/ip-geolocation-full?ip=81.2.69.160", "no-store"},
		{"/data/ip-geolocation-with-confidence?ip=999.1.1.1", ""},
		{"/data/reverse-geocode-with-timezone?latitude=52.52&longitude=13.405", "no-store"},
		{"/data/reverse-geocode-with-timezone?latitude=52.52&longitude=13.405&utcReference=1781000000", ""},
		{"/data/reverse-geocode?latitude=52.52&longitude=13.405", ""}, // no time zone fields
	} {
		rec := do(t, s, "GET", tc.target+"&key=good", nil)
		if got := rec.Header().Get("Cache-Control"); got != tc.want {
			t.Errorf("%s: status %d, Cache-Control %q, want %q", tc.target, rec.Code, got, tc.want)
		}
	}
}
