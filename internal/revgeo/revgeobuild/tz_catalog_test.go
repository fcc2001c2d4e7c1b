package revgeobuild

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/build"
)

// TestTZFFileInCatalog: the file timeZones reads is the one the catalogue mirrors for
// srcTZF, so renaming either side without the other fails here, not at build time.
func TestTZFFileInCatalog(t *testing.T) {
	for _, s := range build.DefaultCatalog() {
		if s.Name != srcTZF {
			continue
		}
		m, ok := s.Fetch.(build.GoModule)
		if !ok {
			t.Fatalf("%s: fetched by %T, want build.GoModule", srcTZF, s.Fetch)
		}
		if len(m.Files[build.TZFFile]) == 0 {
			t.Errorf("%s mirrors %d files, none named %s", srcTZF, len(m.Files), build.TZFFile)
		}
		return
	}
	t.Fatalf("no %s in the catalogue", srcTZF)
}
