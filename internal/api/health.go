package api

import (
	"net/http"
	"time"

	"github.com/ipatlas/ipatlas/internal/useragent"
	"github.com/ipatlas/ipatlas/internal/web"
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	return web.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is 200 once a snapshot serves (the server does not start without one), with what
// a load balancer operator wants to see in passing.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	snap := s.opt.Data.Current()
	if snap == nil {
		return web.Errorf(http.StatusServiceUnavailable, "No data snapshot is loaded yet.")
	}
	return web.WriteJSON(w, http.StatusOK, struct {
		Status        string    `json:"status"`
		DataBuildTime time.Time `json:"dataBuildTime"`
		LoadedAt      time.Time `json:"loadedAt"`
	}{"ready", snap.Meta.BuildTime, snap.LoadedAt})
}

// sources lists the data sources of the serving snapshot: versions, dates, counts, licences
// and attribution (which the licences of several sources require to be shown).
func (s *Server) sources(w http.ResponseWriter, r *http.Request) error {
	snap := s.opt.Data.Current()
	return web.WriteJSON(w, http.StatusOK, useragent.WithSource(snap.Meta)) // the binary's regexes too
}
