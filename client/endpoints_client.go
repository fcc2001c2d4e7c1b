package client

import (
	"context"
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
