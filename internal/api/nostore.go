package api

import "net/http"

// noStore is shared (never mutated) so that marking an answer allocates nothing.
var noStore = []string{"no-store"}

// markNoStore marks an answer that no cache may serve again (Cache-Control: no-store): one
// whose time zone fields hold the time it was made (its localTime, offset and names are only
// true then), or one about the caller, which a shared cache would give to others.
func markNoStore(w http.ResponseWriter) { w.Header()["Cache-Control"] = noStore }
