package openapi

import (
	"net/http"
	"strings"
	"testing"
)

// The validator must refuse what drifts; internal/api's tests show it accepts the real
// answers. Bodies here are small hand-written answers, one defect each.

const goodCountry = `{"isoAlpha2":"IE","isoAlpha3":"IRL","m49Code":372,"name":"Ireland","isoName":"Ireland","isoNameFull":"Ireland",` +
	`"isoAdminLanguages":[{"isoAlpha3":"eng","isoAlpha2":"en","isoName":"English","nativeName":"English"}],"unRegion":"Europe/Northern Europe",` +
	`"currency":{"numericCode":978,"code":"EUR","name":"Euro","minorUnits":2},"callingCode":"353","countryFlagEmoji":"x","wikidataId":"Q27","isIndependent":true}`

const goodNetwork = `"registry":"ARIN","registryStatus":"legacy","registeredCountry":"US","registeredCountryName":"United States","organisation":"Google LLC",` +
	`"isReachableGlobally":true,"isBogon":false,"bgpPrefix":"8.8.8.0/24","carriers":[{"asn":"AS15169","asnNumeric":15169}],"viaCarriers":[]`

func TestValidateResponse(t *testing.T) {
	d := mustLoad(t)
	tests := []struct {
		name, method, path string
		status             int
		body               string
		wantErr            string // "" for valid
	}{
		{"valid", "GET", "/data/user-risk", 200, `{"risk":"Low","description":"low risk"}`, ""},
		{"undocumented field", "GET", "/data/user-risk", 200, `{"risk":"Low","description":"low risk","score":1}`, "additional properties 'score'"},
		{"missing field", "GET", "/data/user-risk", 200, `{"risk":"Low"}`, "missing property 'description'"},
		{"value outside enum", "GET", "/data/user-risk", 200, `{"risk":"low","description":"x"}`, "risk"},
		{"wrong type", "GET", "/data/country-info", 200, strings.Replace(goodCountry, `"m49Code":372`, `"m49Code":"372"`, 1), "m49Code"},
		{"country valid", "GET", "/data/country-info", 200, goodCountry, ""},
		{"nested undocumented field", "GET", "/data/phone-number-validate", 200,
			`{"isValid":true,"e164Format":"+1","internationalFormat":"+1","nationalFormat":"1","location":"","lineType":"MOBILE","country":` +
				strings.Replace(goodCountry, `"isIndependent":true`, `"isIndependent":true,"capital":"Dublin"`, 1) + `}`, "capital"},
		{"network by ip valid", "GET", "/data/network-by-ip", 200, `{"ip":"8.8.8.8",` + goodNetwork + `,"totalAddresses":"256"}`, ""},
		{"field of another network shape", "GET", "/data/network-by-ip", 200, `{"ip":"8.8.8.8",` + goodNetwork + `,"totalSubnets":1}`, "totalSubnets"},
		{"carrier undocumented field", "GET", "/data/network-by-ip", 200, `{"ip":"8.8.8.8",` + strings.Replace(goodNetwork, `"asnNumeric":15169`, `"asnNumeric":15169,"peers":3`, 1) + `}`, "peers"},
		{"too many via carriers", "GET", "/data/network-by-ip", 200, `{"ip":"8.8.8.8",` + strings.Replace(goodNetwork, `"viaCarriers":[]`, `"viaCarriers":[`+strings.Repeat(`{"asn":"AS1","asnNumeric":1},`, 5)+`{"asn":"AS1","asnNumeric":1}]`, 1) + `}`, "viaCarriers"},
		{"error body", "GET", "/data/country-info", 404, `{"status":404,"description":"No country has the code XX."}`, ""},
		{"error body wrong shape", "GET", "/data/country-info", 404, `{"error":"not found"}`, "missing properties"},
		{"undocumented status", "GET", "/data/countries", 404, `{"status":404,"description":"x"}`, "does not list"},
		{"not JSON", "GET", "/data/countries", 200, `[{"isoAlpha2":`, "not JSON"},
		{"unknown path 404", "GET", "/data/nope", 404, `{"status":404,"description":"There is no endpoint at /data/nope."}`, ""},
		{"unknown path 200", "GET", "/data/nope", 200, `{}`, "no such path"},
		{"other method 405", "POST", "/data/countries", 405, `{"status":405,"description":"Method POST is not allowed."}`, ""},
		{"other method 200", "POST", "/data/countries", 200, `[]`, "no POST operation"},
		{"preflight without body", "OPTIONS", "/data/am-i-roaming", 204, ``, ""},
		{"preflight with body", "OPTIONS", "/data/am-i-roaming", 204, `{}`, "gives no body"},
		{"metrics text", "GET", "/metrics", 200, "# HELP x\n", ""},
		{"path parameter", "POST", "/graphql/ip-geolocation", 200, `{"data":{"ipGeolocation":{"confidence":"high"}}}`, ""},
		{"graphql error body", "POST", "/graphql/ip-geolocation", 400, `{"status":400,"description":"The body is not JSON."}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := d.ValidateResponse(tt.method, tt.path, tt.status, []byte(tt.body))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("accepted; want an error about %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error does not mention %q: %v", tt.wantErr, err)
			}
		})
	}
}

func TestValidateHeader(t *testing.T) {
	d := mustLoad(t)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	const js = "application/json; charset=utf-8"
	tests := []struct {
		name, method, path string
		status             int
		header             http.Header
		wantErr            string
	}{
		{"json", "GET", "/data/countries", 200, h("Content-Type", js), ""},
		{"wrong content type", "GET", "/data/countries", 200, h("Content-Type", "text/plain; charset=utf-8"), "Content-Type"},
		{"keyless with CORS", "GET", "/data/am-i-roaming", 200, h("Content-Type", js, "Access-Control-Allow-Origin", "*"), ""},
		{"keyless without CORS", "GET", "/data/am-i-roaming", 200, h("Content-Type", js), "Access-Control-Allow-Origin"},
		{"CORS with another value", "GET", "/data/am-i-roaming", 200, h("Content-Type", js, "Access-Control-Allow-Origin", "https://a.example"), "the document says"},
		{"429 without Retry-After", "GET", "/data/am-i-roaming", 429, h("Content-Type", js, "Access-Control-Allow-Origin", "*"), "Retry-After"},
		{"405 without Allow", "PUT", "/data/countries", 405, h("Content-Type", js), "Allow"},
		{"405 with Allow", "PUT", "/data/countries", 405, h("Content-Type", js, "Allow", "GET"), ""},
		{"metrics", "GET", "/metrics", 200, h("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ""},
		{"docs", "GET", "/docs", 200, h("Content-Type", "text/html; charset=utf-8"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := d.ValidateHeader(tt.method, tt.path, tt.status, tt.header)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("accepted; want an error about %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error does not mention %q: %v", tt.wantErr, err)
			}
		})
	}
}
