package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ipatlas/ipatlas/internal/web"
)

// LoadTestPath is the keyed static endpoint that Options.LoadTestStatic adds: the baseline
// against which load tests express every endpoint's server CPU per request (DESIGN.md
// section 6), since absolute numbers on a shared machine swing too much to compare.
const LoadTestPath = "/data/load-test-static"

// Sizes of the static body: 1.5 KB by default, the size of a typical answer; `bytes` asks
// for another size within these bounds, so a load test can tell what an answer's size alone
// costs apart from what computing it costs.
const (
	loadTestSize    = 1536
	loadTestMinSize = 64
	loadTestMaxSize = 16 << 10
)

const loadTestHead, loadTestTail = `{"status":"ok","note":"static load-test baseline","padding":"`, `"}`

// loadTestBody is the default body; loadTestPadding fills bodies of every size.
var (
	loadTestPadding = strings.Repeat("x", loadTestMaxSize)
	loadTestBody    = appendLoadTestBody(nil, loadTestSize)
)

// appendLoadTestBody appends the static body of size bytes (loadTestMinSize to
// loadTestMaxSize).
func appendLoadTestBody(b []byte, size int) []byte {
	b = append(b, loadTestHead...)
	b = append(b, loadTestPadding[:size-len(loadTestHead)-len(loadTestTail)]...)
	return append(b, loadTestTail...)
}

// loadTestStatic answers the fixed body. Like every keyed endpoint it authenticates and
// meters first, so the baseline carries the same per-request overhead as a real lookup. A
// body of another size is assembled in a pooled buffer, as the lookups assemble theirs.
func (s *Server) loadTestStatic(w http.ResponseWriter, r *http.Request) error {
	v, ok := paramOK(r, "bytes")
	if !ok {
		web.WriteJSONBytes(w, http.StatusOK, loadTestBody)
		return nil
	}
	size, err := strconv.Atoi(v)
	if err != nil || size < loadTestMinSize || size > loadTestMaxSize {
		return badRequest("The bytes parameter must be a whole number from %d to %d.", loadTestMinSize, loadTestMaxSize)
	}
	bp := bufPool.Get().(*[]byte)
	b := appendLoadTestBody((*bp)[:0], size)
	web.WriteJSONBytes(w, http.StatusOK, b)
	*bp = b
	bufPool.Put(bp)
	return nil
}
