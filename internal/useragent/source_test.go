package useragent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// TestModuleVersion: the version the sources list names is the one go.mod builds with.
func TestModuleVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require ")); len(f) >= 2 && f[0] == ModulePath {
			if f[1] != ModuleVersion {
				t.Errorf("ModuleVersion is %s; go.mod requires %s", ModuleVersion, f[1])
			}
			return
		}
	}
	t.Errorf("go.mod does not require %s", ModulePath)
}

func TestSource(t *testing.T) {
	s := Source()
	if s.Status != "ok" || s.Attribution == "" || !strings.Contains(s.Licence, "Apache-2.0") ||
		s.Records["user-agent-patterns"] < 100 || s.Records["os-patterns"] < 100 || s.Records["device-patterns"] < 100 {
		t.Errorf("%+v", s)
	}
}

// TestWithSource: the source goes in name order, replaces one of its name, and the
// metadata given is left as it was.
func TestWithSource(t *testing.T) {
	md := dbfile.Metadata{FormatVersion: 1, Sources: []dbfile.SourceInfo{{Name: "tor"}, {Name: SourceName, Note: "old"}, {Name: "world-countries"}}}
	got := WithSource(md)
	var names []string
	for _, s := range got.Sources {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"tor", SourceName, "world-countries"}) || got.Sources[1].Note == "old" || got.FormatVersion != 1 {
		t.Errorf("%v %+v", names, got.Sources[1])
	}
	if md.Sources[1].Note != "old" || len(md.Sources) != 3 {
		t.Errorf("the metadata given changed: %+v", md.Sources)
	}
	if got := WithSource(dbfile.Metadata{}); len(got.Sources) != 1 {
		t.Errorf("%+v", got.Sources)
	}
}
