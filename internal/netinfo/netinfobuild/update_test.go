package netinfobuild

import (
	"bytes"
	"context"
	"net/netip"
	"slices"
	"testing"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// TestRealUpdate runs Build as a build.Section through build.Update, offline from the test
// cache and the shared mirror, and reads the section back from the snapshot file.
func TestRealUpdate(t *testing.T) {
	buildtest.Sources(t, Needs()...) // skips (or fails under CI) without the sources; warms the cache
	if testing.Short() {
		t.Skip("a full build")
	}
	cache, err := buildtest.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	mirror, _ := buildtest.SharedData()
	var progress bytes.Buffer
	res, err := build.Update(context.Background(), build.Options{
		DataDir: t.TempDir(), CacheDir: cache, MirrorDir: mirror, Offline: true, Progress: &progress,
		Sections: []build.Section{Section()},
	})
	if err != nil {
		t.Fatalf("Update: %v\n%s", err, progress.String())
	}
	t.Logf("%s", progress.String())
	f, err := dbfile.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := f.Section(SectionName)
	if !ok {
		t.Fatal("no netinfo section")
	}
	db, err := netinfo.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := db.Lookup(netip.MustParseAddr("1.1.1.1")); len(n.Carriers) == 0 || n.Carriers[0] != 13335 {
		t.Errorf("1.1.1.1: %+v", n)
	}
	recorded := map[string]bool{}
	for _, s := range res.Metadata.Sources {
		recorded[s.Name] = s.Records["address blocks"] > 0 || s.Records["networks"] > 0 || s.Records["routes"] > 0
		if slices.Contains(Needs(), s.Name) && s.DataDate.IsZero() {
			t.Errorf("%s: no data date in the snapshot metadata", s.Name)
		}
	}
	for _, name := range []string{srcGeoLite, srcRIR, srcMRT} {
		if !recorded[name] {
			t.Errorf("%s: no counts in the snapshot metadata", name)
		}
	}
}
