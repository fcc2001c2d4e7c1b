package postgres

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// connectError puts pgx's connection failure on one line. pgx writes one indented line per
// attempt, and with the default sslmode=prefer it makes two attempts per host (TLS, then
// plain) that usually fail alike, so a refused port read as the same line twice under a
// header. The original stays wrapped for errors.As.
type connectError struct {
	err *pgconn.ConnectError
}

func (e connectError) Error() string {
	var reasons []string
	for _, r := range attempts(e.err.Unwrap()) {
		for _, line := range strings.Split(r.Error(), "\n") {
			if line = strings.TrimSpace(line); line != "" && !slices.Contains(reasons, line) {
				reasons = append(reasons, line)
			}
		}
	}
	return fmt.Sprintf("cannot connect as user %q to database %q: %s",
		e.err.Config.User, e.err.Config.Database, strings.Join(reasons, "; "))
}

// attempts returns the failures pgx joined: its attempts' errors, or its host look-ups'
// under a "hostname resolving error" wrapper (which only repeats what they say).
func attempts(err error) []error {
	type multi interface{ Unwrap() []error }
	if m, ok := err.(multi); ok {
		return m.Unwrap()
	}
	if m, ok := errors.Unwrap(err).(multi); ok {
		return m.Unwrap()
	}
	return []error{err}
}

func (e connectError) Unwrap() error { return e.err }

// oneLine returns err with a pgx connection failure in it made a connectError.
func oneLine(err error) error {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Config != nil {
		return connectError{ce}
	}
	return err
}
