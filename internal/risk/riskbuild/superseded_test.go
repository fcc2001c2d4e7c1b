package riskbuild

import (
	"slices"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/risk"
)

// TestDropSuperseded: a Tor exit list more than a year older than the newest exit list is
// dropped with a warning; one within a year, an undated one and lists of kinds that no
// single list enumerates (relays, of which guards are a part; datacenters: ipcat's 2019
// list beside X4BNet's of 2026) stay.
func TestDropSuperseded(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	lists := []risk.List{
		{Name: "tor/exit-addresses", Kind: risk.KindTorExit, Date: day(2024, 3, 12)},
		{Name: "tor/onionoo-exits", Kind: risk.KindTorExit, Date: day(2026, 5, 21)},
		{Name: "tor/doodad-exits", Kind: risk.KindTorExit, Date: day(2025, 5, 22)},
		{Name: "tor/undated", Kind: risk.KindTorExit},
		{Name: "tor/old-relays", Kind: risk.KindTorRelay, Date: day(2020, 1, 1)},
		{Name: "tor/onionoo-relays", Kind: risk.KindTorRelay, Date: day(2021, 1, 2)},
		{Name: "ipcat-datacenters", Kind: risk.KindDatacenter, Date: day(2019, 2, 20)},
		{Name: "x4bnet-lists-vpn/datacenter", Kind: risk.KindDatacenter, Date: day(2026, 8, 22)},
	}
	rep := newRecorder()
	var kept []string
	for _, l := range dropSuperseded(slices.Clone(lists), rep) {
		kept = append(kept, l.Name)
	}
	want := []string{"tor/onionoo-exits", "tor/doodad-exits", "tor/undated", "tor/old-relays", "tor/onionoo-relays", "ipcat-datacenters", "x4bnet-lists-vpn/datacenter"}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if len(rep.warnings) != 1 {
		t.Errorf("warnings %q, want one for each dropped list", rep.warnings)
	}
}
