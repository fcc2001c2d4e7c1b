package api

import (
	"net/http"
	"strings"

	"github.com/ipatlas/ipatlas/internal/web"
)

// LoadTestPath is the keyed static endpoint that Options.LoadTestStatic adds: the baseline
// against which load tests express every endpoint's server CPU per request (DESIGN.md
// section 6), since absolute numbers on a shared machine swing too much to compare.
const LoadTestPath = "/data/load-test-static"

// loadTestBody is a fixed 1.5 KB JSON body, the size of a typical answer.
var loadTestBody = func() []byte {
	const size = 1536
	head, tail := `{"status":"ok","note":"static load-test baseline","padding":"`, `"}`
	return []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)
}()

// loadTestStatic answers the fixed body. Like every keyed endpoint it authenticates and
// meters first, so the baseline carries the same per-request overhead as a real lookup.
func (s *Server) loadTestStatic(w http.ResponseWriter, r *http.Request) error {
	web.WriteJSONBytes(w, http.StatusOK, loadTestBody)
	return nil
}
