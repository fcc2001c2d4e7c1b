package netinfo

import "testing"

func TestSpecialASN(t *testing.T) {
	for asn, want := range map[uint32]bool{
		0: true, 1: false, 13335: false, 23456: true, 64495: false, 64496: true, 64511: true,
		64512: true, 64513: true, 65000: true, 65534: true, 65535: true, 65536: true, 65551: true,
		65552: true, 131071: true, 131072: false, 396982: false, 4199999999: false,
		4200000000: true, 4200000001: true, 4294967294: true, 4294967295: true,
	} {
		if _, got := SpecialASN(asn); got != want {
			t.Errorf("SpecialASN(%d) = %v, want %v", asn, got, want)
		}
	}
}
