// Package datasetbuild lists the section builders of a full snapshot: the one place that
// says which engine's builder makes which section of the file that package dataset loads.
// `ipatlas data update` and the tests that build real snapshots both take the list from here.
package datasetbuild

import (
	"context"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/country/countrybuild"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/ipgeo/ipgeobuild"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfobuild"
	"github.com/ipatlas/ipatlas/internal/revgeo/revgeobuild"
	"github.com/ipatlas/ipatlas/internal/risk/riskbuild"
)

// Sections returns every section builder of a full snapshot.
func Sections() []build.Section {
	return []build.Section{
		{
			Name:  dataset.SectionCountry,
			Needs: countrybuild.Needs(),
			Build: func(ctx context.Context, src build.Sources, rep *build.Report) ([]byte, error) {
				return countrybuild.Build(ctx, src, sectionReport{rep, dataset.SectionCountry})
			},
		},
		ipgeobuild.Section(),
		netinfobuild.Section(),
		riskbuild.Section(),
		revgeobuild.Section(),
		{
			// Derived, so listed after the two sections it reads.
			Name: dataset.SectionAreas,
			Uses: []string{dataset.SectionIPGeo, dataset.SectionNetInfo},
			Derive: func(ctx context.Context, sections map[string][]byte, rep *build.Report) ([]byte, error) {
				return ipgeobuild.DeriveAreas(ctx, sections[dataset.SectionIPGeo], sections[dataset.SectionNetInfo], rep)
			},
		},
	}
}

// sectionReport adapts build.Report to countrybuild's reporting interface.
type sectionReport struct {
	*build.Report
	section string
}

func (r sectionReport) Warn(msg string) { r.Warnf(r.section, "%s", msg) }
