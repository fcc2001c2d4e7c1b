package risk_test

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/risk"
)

func TestRate(t *testing.T) {
	reachable := risk.Hazards{}
	tests := []struct {
		name string
		h    risk.Hazards
		want risk.Risk
		desc string
	}{
		{"nothing", reachable, risk.Low, "low risk"},
		{"hosting likelihood below the threshold", risk.Hazards{HostingLikelihood: 4}, risk.Low, "low risk"},
		{"one or two blocklists", risk.Hazards{BlocklistCount: 2}, risk.Low, "low risk"},
		{"lists without meaning for the rating", risk.Hazards{Lists: []string{"ipsum"}}, risk.Low, "low risk"},

		// High, each rule alone.
		{"bogon", risk.Hazards{IsBogon: true}, risk.High, "high risk - drop: the address is a bogon"},
		{"unreachable", risk.Hazards{IsUnreachable: true}, risk.High, "high risk - drop: the address is not reachable globally"},
		{"tor exit", risk.Hazards{IsKnownAsTorServer: true, IsKnownAsTorExit: true}, risk.High, "high risk - drop: the address is a Tor exit node"},
		{"tor exit without server flag", risk.Hazards{IsKnownAsTorExit: true}, risk.High, "high risk - drop: the address is a Tor exit node"},
		{"tor relay", risk.Hazards{IsKnownAsTorServer: true}, risk.High, "high risk - drop: the address is a Tor relay"},
		{"drop", risk.Hazards{IsSpamhausDrop: true}, risk.High, "high risk - drop: the address is on the Spamhaus DROP list"},
		{"blocklisted", risk.Hazards{IsBlocklisted: true, BlocklistCount: 5}, risk.High, "high risk - drop: the address is on 5 blocklists"},
		{"blocklist count at the threshold without the flag", risk.Hazards{BlocklistCount: risk.BlocklistThreshold}, risk.High, "high risk - drop: the address is on 3 blocklists"},
		{"blocklisted flag without a count", risk.Hazards{IsBlocklisted: true}, risk.High, "high risk - drop: the address is on public blocklists"},

		// High evidence is listed in a fixed order and beats Moderate evidence.
		{"two high reasons", risk.Hazards{IsBogon: true, IsUnreachable: true}, risk.High,
			"high risk - drop: the address is a bogon and is not reachable globally"},
		{"every high reason", risk.Hazards{IsBogon: true, IsUnreachable: true, IsKnownAsTorServer: true, IsKnownAsTorExit: true,
			IsSpamhausDrop: true, IsBlocklisted: true, BlocklistCount: 7}, risk.High,
			"high risk - drop: the address is a bogon, is not reachable globally, is a Tor exit node, is on the Spamhaus DROP list and is on 7 blocklists"},
		{"tor beats vpn and hosting", risk.Hazards{IsKnownAsTorServer: true, IsKnownAsVpn: true, CloudProvider: "Amazon", IsHostingAsn: true, HostingLikelihood: 10},
			risk.High, "high risk - drop: the address is a Tor relay"},
		{"blocklist beats datacenter", risk.Hazards{BlocklistCount: 4, IsBlocklisted: true, IsKnownAsDatacenter: true}, risk.High,
			"high risk - drop: the address is on 4 blocklists"},

		// Moderate, each rule alone.
		{"vpn", risk.Hazards{IsKnownAsVpn: true}, risk.Moderate, "moderate risk - challenge: known VPN network"},
		{"proxy", risk.Hazards{IsKnownAsProxy: true}, risk.Moderate, "moderate risk - challenge: known proxy"},
		{"private relay", risk.Hazards{IsICloudPrivateRelay: true}, risk.Moderate, "moderate risk - challenge: iCloud Private Relay egress (a proxy)"},
		{"cloud", risk.Hazards{CloudProvider: "Amazon"}, risk.Moderate, "moderate risk - challenge: cloud provider range (Amazon)"},
		{"hosting provider", risk.Hazards{IsKnownAsDatacenter: true, HostingProvider: "Amazon AWS"}, risk.Moderate,
			"moderate risk - challenge: hosting provider range (Amazon AWS)"},
		{"datacenter", risk.Hazards{IsKnownAsDatacenter: true}, risk.Moderate, "moderate risk - challenge: datacenter range"},
		{"hosting asn", risk.Hazards{IsHostingAsn: true}, risk.Moderate, "moderate risk - challenge: hosting provider ASN"},
		{"hosting likelihood alone", risk.Hazards{HostingLikelihood: risk.HostingLikelihoodModerate}, risk.Moderate,
			"moderate risk - challenge: hosting likelihood 5 of 10"},

		// Moderate evidence together, in a fixed order; the likelihood is only named when no
		// hosting flag explains it.
		{"all moderate reasons", risk.Hazards{IsKnownAsVpn: true, IsKnownAsProxy: true, IsICloudPrivateRelay: true, CloudProvider: "Google",
			IsKnownAsDatacenter: true, HostingProvider: "Google Cloud", IsHostingAsn: true, HostingLikelihood: 10}, risk.Moderate,
			"moderate risk - challenge: known VPN network, known proxy, iCloud Private Relay egress (a proxy), cloud provider range (Google), hosting provider range (Google Cloud), hosting provider ASN"},
		{"cloud and datacenter", risk.Hazards{CloudProvider: "Amazon", IsKnownAsDatacenter: true, HostingLikelihood: 8}, risk.Moderate,
			"moderate risk - challenge: cloud provider range (Amazon), datacenter range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, desc := risk.Rate(tt.h)
			if got != tt.want || desc != tt.desc {
				t.Errorf("Rate = %v, %q\nwant %v, %q", got, desc, tt.want, tt.desc)
			}
		})
	}
}

func TestRiskString(t *testing.T) {
	for r, want := range map[risk.Risk]string{risk.Low: "Low", risk.Moderate: "Moderate", risk.High: "High", 7: "Risk(7)"} {
		if got := r.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", r, got, want)
		}
		if b, _ := r.MarshalText(); string(b) != want {
			t.Errorf("%d.MarshalText() = %q, want %q", r, b, want)
		}
	}
	if !(risk.Low < risk.Moderate && risk.Moderate < risk.High) {
		t.Error("ratings are not ordered")
	}
}

func TestRateAllocs(t *testing.T) {
	for _, tt := range []struct {
		h    risk.Hazards
		want float64
	}{
		{risk.Hazards{}, 0},
		{risk.Hazards{IsKnownAsTorExit: true, IsKnownAsTorServer: true, BlocklistCount: 4}, 1},
		{risk.Hazards{CloudProvider: "Amazon", IsHostingAsn: true}, 1},
	} {
		if n := testing.AllocsPerRun(100, func() { risk.Rate(tt.h) }); n > tt.want {
			t.Errorf("Rate(%+v) allocates %v times, want at most %v", tt.h, n, tt.want)
		}
	}
}

// TestThreat: the strongest evidence names the threat, in Rate's order; "unknown" without any,
// and for bogons and unreachable addresses, which are no threat of their own.
func TestThreat(t *testing.T) {
	for _, tt := range []struct {
		h    risk.Hazards
		want string
	}{
		{risk.Hazards{}, "unknown"},
		{risk.Hazards{IsBogon: true, IsUnreachable: true, HostingLikelihood: 10, CloudProvider: "Amazon"}, "unknown"},
		{risk.Hazards{IsKnownAsTorServer: true, IsKnownAsTorExit: true, IsSpamhausDrop: true}, "known as a Tor exit node"},
		{risk.Hazards{IsKnownAsTorServer: true, IsKnownAsVpn: true}, "known as a Tor server"},
		{risk.Hazards{IsSpamhausDrop: true, BlocklistCount: 9}, "listed on Spamhaus DROP"},
		{risk.Hazards{BlocklistCount: risk.BlocklistThreshold, IsKnownAsVpn: true}, "on public blocklists"},
		{risk.Hazards{BlocklistCount: risk.BlocklistThreshold - 1, IsKnownAsVpn: true}, "known as a VPN server"},
		{risk.Hazards{IsICloudPrivateRelay: true}, "known as a proxy"},
	} {
		if got := risk.Threat(tt.h); got != tt.want {
			t.Errorf("Threat(%+v) = %q, want %q", tt.h, got, tt.want)
		}
	}
}
