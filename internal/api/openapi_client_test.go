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
	{name: "user agent", method: "GET", target: "/data/user-agent-info?userAgentRaw=Mozilla%2F5.0%20(Windows%20NT%2010.0%3B%20Win64%3B%20x64)%20AppleWebKit%2F537.36%20(KHTML%2C%20like%20Gecko)%20Chrome%2F76.0.3809.132%20Safari%2F537.36&key=good", want: 200},
	{name: "user agent empty", method: "GET", target: "/data/user-agent-info?userAgentRaw=&key=good", want: 200},
	{name: "user agent missing", method: "GET", target: "/data/user-agent-info?key=good", want: 400},
	{name: "client info", method: "GET", target: "/data/client-info", remote: "81.2.69.142", headers: map[string]string{"User-Agent": "curl/8.5.0", "Accept-Language": "en-GB,en;q=0.8"}, want: 200},
	{name: "client info v6 no headers", method: "GET", target: "/data/client-info", remote: "2001:db8::1", want: 200},
	{name: "client info preflight", method: "OPTIONS", target: "/data/client-info", want: 204},
	{name: "tor exits", method: "GET", target: "/data/tor-exit-nodes-list?key=good", want: 200},
	{name: "tor exits last page", method: "GET", target: "/data/tor-exit-nodes-list?batchSize=1000&offset=1500&localityLanguage=default&key=good", want: 200},
	{name: "tor exits past the end", method: "GET", target: "/data/tor-exit-nodes-list?offset=100000&key=good", want: 200},
	{name: "tor exits batch over limit", method: "GET", target: "/data/tor-exit-nodes-list?batchSize=1001&key=good", want: 400},
}
