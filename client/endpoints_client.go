package client

import (
	"context"
	"math/big"
	"net/url"
)

// The commercial service's endpoints about the caller and its software, and the Tor exit
// list.

// PhoneByIPRequest asks to validate a phone number whose country, for a number in national
// form, is where an IP address is used.
type PhoneByIPRequest struct {
	Number           string // required, any format
	IP               string // empty: the caller's own address
	LocalityLanguage string
}

// PhoneNumberValidateByIP calls /data/phone-number-validate-by-ip: PhoneNumberValidate's
// answer, with the country of a number in national form taken from IP's geolocation. An
// address placed in no country makes such a number a 400, as PhoneNumberValidate without
// CountryCode.
func (c *Client) PhoneNumberValidateByIP(ctx context.Context, r PhoneByIPRequest) (*PhoneValidation, error) {
	q := query{}.str("number", r.Number).str("ip", r.IP).str("localityLanguage", r.LocalityLanguage)
	return call[PhoneValidation](ctx, c, "/data/phone-number-validate-by-ip", url.Values(q), withKey)
}

// ClientIP calls the keyless /data/client-ip: the address the service sees the call coming
// from. The key is not sent.
func (c *Client) ClientIP(ctx context.Context) (*ClientIP, error) {
	return call[ClientIP](ctx, c, "/data/client-ip", nil, keyless)
}

// ClientIP is the client-ip answer.
type ClientIP struct {
	IPString string `json:"ipString"`
	IPType   string `json:"ipType"` // IPv4 or IPv6
	// ProxyIP is the reverse proxy the request came through, when the server trusts it
	// (its --trusted-proxies) and took IPString from its forwarding header; else empty.
	ProxyIP string `json:"proxyIp,omitempty"`
}

// UserAgentInfoRequest asks what a User-Agent string says.
type UserAgentInfoRequest struct {
	UserAgentRaw string // the header as the browser sent it; over 512 bytes, its first 512 are parsed
}

// UserAgentInfo calls /data/user-agent-info.
func (c *Client) UserAgentInfo(ctx context.Context, r UserAgentInfoRequest) (*UserAgentInfo, error) {
	q := url.Values{"userAgentRaw": {r.UserAgentRaw}} // sent even when empty: the server answers an empty one
	return call[UserAgentInfo](ctx, c, "/data/user-agent-info", q, withKey)
}

// ClientInfo calls the keyless /data/client-info: the address, User-Agent and languages the
// service sees the call coming with (this client's own, unless its HTTP client sets other
// headers). The key is not sent.
func (c *Client) ClientInfo(ctx context.Context) (*ClientInfo, error) {
	return call[ClientInfo](ctx, c, "/data/client-info", nil, keyless)
}

// UserAgentInfo is the user-agent-info answer; ClientInfo carries the same fields.
type UserAgentInfo struct {
	Device    string `json:"device"`    // iPhone, Desktop, Spider, Other, ...
	OS        string `json:"os"`        // Windows 10, iOS 17.1, Other, ...
	UserAgent string `json:"userAgent"` // Chrome 76.0.3809
	Family    string `json:"family"`    // Chrome
	// The version's parts; empty where the string has none.
	VersionMajor     string `json:"versionMajor,omitempty"`
	VersionMinor     string `json:"versionMinor,omitempty"`
	VersionPatch     string `json:"versionPatch,omitempty"`
	IsSpider         bool   `json:"isSpider"`
	IsMobile         bool   `json:"isMobile"`
	UserAgentDisplay string `json:"userAgentDisplay"`
}

// ClientInfo is the client-info answer.
type ClientInfo struct {
	IPString  string   `json:"ipString"`
	IPNumeric *big.Int `json:"ipNumeric"` // an IPv6 address's passes 2^64
	IPType    string   `json:"ipType"`    // IPv4 or IPv6
	// IsBehindProxy reports whether IPString came from a proxy the server trusts.
	IsBehindProxy bool `json:"isBehindProxy"`
	UserAgentInfo
	UserAgentRaw  string   `json:"userAgentRaw"`
	UserLanguages []string `json:"userLanguages"` // most preferred first
}

// TorExitNodesRequest asks for a page of the Tor exit list.
type TorExitNodesRequest struct {
	BatchSize        int // 1 to 1000; 0: the server's default (50)
	Offset           int
	LocalityLanguage string
}

// TorExitNodesList calls /data/tor-exit-nodes-list.
func (c *Client) TorExitNodesList(ctx context.Context, r TorExitNodesRequest) (*TorExitNodes, error) {
	q := query{}.int("batchSize", r.BatchSize).int("offset", r.Offset).str("localityLanguage", r.LocalityLanguage)
	return call[TorExitNodes](ctx, c, "/data/tor-exit-nodes-list", url.Values(q), withKey)
}

// TorExitNodes is the tor-exit-nodes-list answer: one page of the exit addresses, in
// address order.
type TorExitNodes struct {
	Total  int           `json:"total"`
	Offset int           `json:"offset"`
	Batch  int           `json:"batch"` // the page size answered; Nodes holds fewer at the end
	Nodes  []TorExitNode `json:"nodes"`
}

// TorExitNode is one exit address.
type TorExitNode struct {
	IP string `json:"ip"`
	// CountryName and CountryCode are empty where the data places the address in no country.
	CountryName string    `json:"countryName,omitempty"`
	CountryCode string    `json:"countryCode,omitempty"`
	Carriers    []Carrier `json:"carriers"`
}
