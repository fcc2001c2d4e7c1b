package api

import (
	"strings"
	"testing"
)

func TestAmIRoaming(t *testing.T) {
	s := realPlacesServer(t)
	tests := []struct {
		name, query, remote string
		roaming             bool
		status              string
		device, network     string
	}{
		{"home", "latitude=51.5074&longitude=-0.1278", "81.2.69.142", false, "home", "GB", "GB"},
		{"abroad", "latitude=48.8566&longitude=2.3522", "81.2.69.142", true, "roaming", "FR", "GB"},
		{"at sea", "latitude=0&longitude=-30", "81.2.69.142", false, "unknown", "", "GB"},
		{"private caller", "latitude=48.8566&longitude=2.3522", "10.0.0.1", false, "unknown", "FR", ""},
		{"both unknown", "latitude=0&longitude=-30", "192.168.0.1", false, "unknown", "", ""},
		// The commercial service's browser client sends no position.
		{"no position", "", "81.2.69.142", false, "unknown", "", "GB"},
		{"no position, private caller", "", "127.0.0.1", false, "unknown", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := placesGet(t, s, "/data/am-i-roaming?"+tt.query, tt.remote)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Error("no CORS header")
			}
			m := placesDecode(t, rec)
			if m["isRoaming"] != tt.roaming || m["roamingStatus"] != tt.status || m["deviceCountryCode"] != tt.device || m["networkCountryCode"] != tt.network {
				t.Errorf("got %v", m)
			}
			if m["description"] == "" {
				t.Error("no description")
			}
			if _, hasLat := m["latitude"]; hasLat != (tt.query != "") {
				t.Errorf("latitude %v for query %q", m["latitude"], tt.query)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-store" { // about the caller
				t.Errorf("Cache-Control %q", got)
			}
			if tt.device != "" && m["deviceCountryName"] == "" || tt.network != "" && m["networkCountryName"] == "" {
				t.Errorf("country names missing: %v", m)
			}
		})
	}
	m := placesDecode(t, placesGet(t, s, "/data/am-i-roaming?latitude=48.8566&longitude=2.3522&localityLanguage=de", "81.2.69.142"))
	if m["deviceCountryName"] != "Frankreich" || m["networkCountryName"] != "Vereinigtes Königreich" {
		t.Errorf("localised names: %v", m)
	}
	// The description is English, names included, whatever the language of the fields.
	if d := m["description"].(string); !strings.Contains(d, "France (FR)") || !strings.Contains(d, "United Kingdom (GB)") {
		t.Errorf("description %q, want English names", d)
	}
	// A private caller is told why, and what to do behind a proxy.
	m = placesDecode(t, placesGet(t, s, "/data/am-i-roaming?latitude=48.8566&longitude=2.3522", "127.0.0.1"))
	if d := m["description"].(string); !strings.Contains(d, "127.0.0.1 is a private or loopback address") || !strings.Contains(d, "--trusted-proxies") {
		t.Errorf("description %q", d)
	}
}
