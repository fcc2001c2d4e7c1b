package api

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/dashboard"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// chargeRecorder is a meter that remembers the package of the last charge.
type chargeRecorder struct{ pkg string }

func (m *chargeRecorder) Charge(_ context.Context, _ account.Account, pkg string) error {
	m.pkg = pkg
	return nil
}

// TestDashboardExplorerListsEveryEndpoint: the dashboard's API explorer offers every keyed
// REST endpoint this package registers, each under the package a call counts against.
func TestDashboardExplorerListsEveryEndpoint(t *testing.T) {
	meter := &chargeRecorder{}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: meter, Data: dataset.NewStatic(datasettest.Snapshot(t))})
	listed := map[string]dashboard.Endpoint{}
	for _, e := range dashboard.Endpoints() {
		listed[e.Path] = e
	}
	keyed := 0
	for _, p := range oaRegisteredPatterns(t) {
		method, path, ok := strings.Cut(p, " ")
		if !ok || method != "GET" || !strings.HasPrefix(path, "/data/") || do(t, s, "GET", path, nil).Code != 401 {
			continue // not a keyed REST endpoint
		}
		keyed++
		e, ok := listed[path]
		if !ok {
			t.Errorf("%s is not in the dashboard's API explorer (dashboard.Endpoints)", path)
			continue
		}
		delete(listed, path)
		meter.pkg = ""
		do(t, s, "GET", path+"?"+e.Example+"&key=good", nil)
		if meter.pkg != e.Package {
			t.Errorf("%s counts against %q; the explorer says %q", path, meter.pkg, e.Package)
		}
	}
	for path := range listed {
		t.Errorf("the explorer lists %s, which is not a keyed REST endpoint", path)
	}
	if keyed < 10 {
		t.Errorf("only %d keyed endpoints found; the route scan is broken", keyed)
	}
}
