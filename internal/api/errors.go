package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/web"
)

// Domain errors raised by the handlers of this package.
var (
	errNotFound = errors.New("api: no entry")
)

// statusTable is the one place where domain errors become status codes. The descriptions
// say what was wrong and how to fix it; typed errors add their detail below.
var statusTable = []struct {
	err  error
	code int
	desc string
}{
	{auth.ErrMissingKey, http.StatusUnauthorized, "No API key was sent. Send it as the key query parameter (?key=...) or in the x-service-key header (x-bdc-key is read too); a key in a form body is not read."},
	{auth.ErrInvalidKey, http.StatusUnauthorized, "The API key is not valid. Check it under Account, Credentials; a regenerated key replaces the old one at once."},
	{quota.ErrExceeded, http.StatusPaymentRequired, "The monthly query volume of this key is used up."},
	{quota.ErrForbidden, http.StatusForbidden, "This key has no permission for this endpoint."},
	{errNotFound, http.StatusNotFound, "No valid entry was found for the request."},
	// The request's time limit (web.LimitRequests) ended a store call.
	{context.DeadlineExceeded, http.StatusServiceUnavailable, "The request took too long and was stopped. Please try again."},
}

// statusOf maps err to a status and a client-safe description. Unknown errors are 500 with
// a generic description: their text may hold internal detail and is only logged.
func statusOf(err error) (int, string) {
	var we *web.Error
	if errors.As(err, &we) {
		return we.Code, we.Msg
	}
	var exceeded *quota.ExceededError
	if errors.As(err, &exceeded) {
		return http.StatusPaymentRequired, fmt.Sprintf("The monthly query volume of %d for the %s package is used up. It renews on the first day of next month (UTC); a larger plan raises it.", exceeded.Limit, exceeded.Package)
	}
	var forbidden *quota.ForbiddenError
	if errors.As(err, &forbidden) {
		return http.StatusForbidden, fmt.Sprintf("This key has no permission for the %s package: %s.", forbidden.Package, forbidden.Reason)
	}
	for _, e := range statusTable {
		if errors.Is(err, e.err) {
			return e.code, e.desc
		}
	}
	return http.StatusInternalServerError, "An error occurred and the request was not completed. Please try again."
}

// badRequest is a 400 with a description of the parameter problem.
func badRequest(format string, args ...any) error {
	return web.Errorf(http.StatusBadRequest, format, args...)
}

// badCoordinates is the commercial service's answer to a latitude or longitude that is out
// of range or not a number: 401 "Bad Coordinates" in its table of error codes, which clients
// written for it may rely on, although 401 otherwise means a missing or invalid key. A
// missing coordinate is a 400 (badRequest), like any missing parameter.
func badCoordinates(format string, args ...any) error {
	return web.Errorf(http.StatusUnauthorized, format, args...)
}

// invalidIP is the spec's answer to a malformed IP address: 405, not 400 (spec rule 2).
func invalidIP(format string, args ...any) error {
	return web.Errorf(http.StatusMethodNotAllowed, format, args...)
}

// notFound is a 404 that names what was not found.
func notFound(format string, args ...any) error {
	return &web.Error{Code: http.StatusNotFound, Msg: fmt.Sprintf(format, args...), Err: errNotFound}
}

// unavailable is a 503 for an endpoint whose engine the serving snapshot lacks (a snapshot
// built before the engine existed, or a fixture): the operator's fix is a data update.
func unavailable(what string) error {
	return web.Errorf(http.StatusServiceUnavailable, "The loaded data snapshot has no %s data; the operator must run `ipatlas data update`.", what)
}

// engines names the snapshot sections a handler answers from; every section but the
// countries is optional in a snapshot.
type engines uint8

const (
	engineIPGeo engines = 1 << iota
	engineNet
	enginePlaces
	engineRisk
)

// needData returns the unavailable error of the first engine in need that snap lacks, in
// the order below (am-i-roaming, which needs the places and the geolocation, names the
// places first).
func needData(snap *dataset.Snapshot, need engines) error {
	switch {
	case need&enginePlaces != 0 && snap.Places == nil:
		return unavailable("reverse geocoding")
	case need&engineIPGeo != 0 && snap.IPGeo == nil:
		return unavailable("IP geolocation")
	case need&engineNet != 0 && snap.Net == nil:
		return unavailable("network")
	case need&engineRisk != 0 && snap.Risk == nil:
		return unavailable("risk")
	}
	return nil
}
