package api

// oaClientCases are TestOpenAPIAnswersReal's cases for the endpoints of routes_client.go,
// kept apart from the main table.
var oaClientCases = []oaCase{
	{name: "phone by ip", method: "GET", target: "/data/phone-number-validate-by-ip?number=884633490&ip=193.114.112.1&localityLanguage=en&key=good", want: 200},
	{name: "phone by ip caller", method: "GET", target: "/data/phone-number-validate-by-ip?number=884633490&key=good", remote: "193.114.112.1", want: 200},
	{name: "phone by ip bogon international", method: "GET", target: "/data/phone-number-validate-by-ip?number=%2B61293744000&ip=10.0.0.1&key=good", want: 200},
	{name: "phone by ip bogon national", method: "GET", target: "/data/phone-number-validate-by-ip?number=0293744000&ip=10.0.0.1&key=good", want: 400},
	{name: "phone by ip invalid ip", method: "GET", target: "/data/phone-number-validate-by-ip?number=884633490&ip=1.2.3&key=good", want: 405},
	{name: "client ip", method: "GET", target: "/data/client-ip", remote: "81.2.69.142", want: 200},
	{name: "client ip v6", method: "GET", target: "/data/client-ip", remote: "2001:db8::1", headers: map[string]string{"Origin": "https://example.org"}, want: 200},
	{name: "client ip preflight", method: "OPTIONS", target: "/data/client-ip", want: 204},
}
