package netinfobuild

import (
	"fmt"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/netinfo/internal/iana"
)

// SourceIANA is the catalogue's name of IANA's registries, for other builders' Needs.
const SourceIANA = srcIANA

// SpecialBlock is one of IANA's special-purpose blocks (RFC 6890 and successors): its prefix,
// name, and whether it is globally reachable or reachable as its protocol makes it (6to4,
// Teredo).
type SpecialBlock = iana.Special

// SpecialBlocks returns IANA's special-purpose blocks, in registry order, from the mirrored
// registries when src has source SourceIANA, else from the table built into the binary. It
// is here so that other sections' builders (the risk lists) read IANA's registries with the
// parser this section uses, and agree with it on what each block is.
func SpecialBlocks(src build.Sources) ([]SpecialBlock, error) {
	fsys, ok := src.Source(srcIANA)
	if !ok {
		return iana.Builtin().Special, nil
	}
	f, err := iana.ParseXML(fsys)
	if err != nil {
		return nil, fmt.Errorf("netinfobuild: %s: %w", srcIANA, err)
	}
	return f.Special, nil
}
