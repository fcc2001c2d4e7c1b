package client_test

import (
	"context"
	"testing"

	"github.com/ipatlas/ipatlas/client"
)

// clientRoundTripCases are roundTripCases' cases for the methods of endpoints_client.go.
func clientRoundTripCases() []rtCase {
	return []rtCase{
		rt("phone by ip", "PhoneNumberValidateByIP", func(ctx context.Context, c *client.Client) (*client.PhoneValidation, error) {
			return c.PhoneNumberValidateByIP(ctx, client.PhoneByIPRequest{Number: "884633490", IP: "193.114.112.1"})
		}, func(t *testing.T, p *client.PhoneValidation) {
			if !p.IsValid || p.E164Format != "+61884633490" || p.Country == nil || p.Country.ISOAlpha2 != "AU" {
				t.Errorf("%+v", p)
			}
		}),
		rt("phone by ip bogon international", "PhoneNumberValidateByIP", func(ctx context.Context, c *client.Client) (*client.PhoneValidation, error) {
			return c.PhoneNumberValidateByIP(ctx, client.PhoneByIPRequest{Number: "+61 2 9374 4000", IP: "10.0.0.1"})
		}, func(t *testing.T, p *client.PhoneValidation) {
			if !p.IsValid || p.Country == nil || p.Country.ISOAlpha2 != "AU" {
				t.Errorf("%+v", p)
			}
		}),
		keylessCase(rt("client ip", "ClientIP", func(ctx context.Context, c *client.Client) (*client.ClientIP, error) {
			return c.ClientIP(ctx)
		}, func(t *testing.T, r *client.ClientIP) {
			if r.IPString != "127.0.0.1" || r.IPType != "IPv4" || r.ProxyIP != "" { // the test server listens on loopback
				t.Errorf("%+v", r)
			}
		})),
		rt("user agent", "UserAgentInfo", func(ctx context.Context, c *client.Client) (*client.UserAgentInfo, error) {
			return c.UserAgentInfo(ctx, client.UserAgentInfoRequest{UserAgentRaw: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.132 Safari/537.36"})
		}, func(t *testing.T, u *client.UserAgentInfo) {
			if u.UserAgentDisplay != "Windows 10 Desktop Chrome 76.0.3809" || u.VersionPatch != "3809" || u.IsMobile || u.IsSpider {
				t.Errorf("%+v", u)
			}
		}),
		rt("user agent empty", "UserAgentInfo", func(ctx context.Context, c *client.Client) (*client.UserAgentInfo, error) {
			return c.UserAgentInfo(ctx, client.UserAgentInfoRequest{})
		}, func(t *testing.T, u *client.UserAgentInfo) {
			if u.Family != "Other" || u.VersionMajor != "" {
				t.Errorf("%+v", u)
			}
		}),
		keylessCase(rt("client info", "ClientInfo", func(ctx context.Context, c *client.Client) (*client.ClientInfo, error) {
			return c.ClientInfo(ctx)
		}, func(t *testing.T, r *client.ClientInfo) {
			// The test server listens on loopback; the client names itself, which no regex knows.
			if r.IPString != "127.0.0.1" || r.IPNumeric.Int64() != 0x7f000001 || r.IsBehindProxy || r.UserAgentRaw != "ipatlas-go-client" || r.Family != "Other" || r.UserLanguages == nil {
				t.Errorf("%+v", r)
			}
		})),
		rt("tor exits", "TorExitNodesList", func(ctx context.Context, c *client.Client) (*client.TorExitNodes, error) {
			return c.TorExitNodesList(ctx, client.TorExitNodesRequest{BatchSize: 3, Offset: 1, LocalityLanguage: "de"})
		}, func(t *testing.T, r *client.TorExitNodes) {
			if r.Total < 100 || r.Offset != 1 || r.Batch != 3 || len(r.Nodes) != 3 || r.Nodes[0].IP == "" {
				t.Errorf("%+v", r)
			}
		}),
	}
}

// TestClientEndpointErrors: the methods of endpoints_client.go return the service's
// refusals as *client.Error.
func TestClientEndpointErrors(t *testing.T) {
	ts := realServer(t)
	ctx := context.Background()
	good, _ := client.New(ts.URL, testKey)
	tests := []struct {
		name   string
		call   func() error
		status int
	}{
		{"phone by ip invalid IP", func() error {
			_, err := good.PhoneNumberValidateByIP(ctx, client.PhoneByIPRequest{Number: "884633490", IP: "1.2.3"})
			return err
		}, 405},
		{"tor exits batch over the limit", func() error {
			_, err := good.TorExitNodesList(ctx, client.TorExitNodesRequest{BatchSize: 1001})
			return err
		}, 400},
		{"phone by ip national without a country", func() error {
			_, err := good.PhoneNumberValidateByIP(ctx, client.PhoneByIPRequest{Number: "0293744000", IP: "10.0.0.1"})
			return err
		}, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !client.IsStatus(err, tt.status) {
				t.Fatalf("got %v, want status %d", err, tt.status)
			}
		})
	}
}
