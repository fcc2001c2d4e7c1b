package web

import (
	"net/http"
	"slices"
	"strings"
)

// Unmatched answers the requests no route of mux took, as its catch-all "/": 405 with Allow
// when the path has a route for another method, else 404, both with the JSON error body
// (ServeMux's own answers are plain text). The path is named as sent (/data%2Fcountry-info
// is not /data/country-info), keys redacted.
func Unmatched(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/" && pattern != "" {
				allow = append(allow, m)
			}
		}
		path := RedactPath(r.URL.EscapedPath())
		if len(allow) > 0 {
			if allow[0] == http.MethodGet { // ServeMux answers HEAD wherever it answers GET
				allow = slices.Insert(allow, 1, http.MethodHead)
			}
			a := strings.Join(allow, ", ")
			w.Header().Set("Allow", a)
			WriteError(w, http.StatusMethodNotAllowed, "Method "+r.Method+" is not allowed on "+path+"; use "+a+".")
			return
		}
		WriteError(w, http.StatusNotFound, "There is no endpoint at "+path+".")
	})
}
