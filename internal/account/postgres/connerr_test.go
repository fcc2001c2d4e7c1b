package postgres_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account/postgres"
	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
	"github.com/jackc/pgx/v5/pgconn"
)

// A server that is not there reads as one line saying so once, with whom it tried to
// connect as, not as pgx's header over one indented line per attempt (two alike with the
// default sslmode=prefer).
func TestOpenUnreachableIsOneLine(t *testing.T) {
	u := pgtest.UnreachableURL(t, "someone", "somedb")
	s, err := postgres.Open(t.Context(), u)
	if err == nil {
		s.Close()
		t.Fatalf("Open succeeded on %s, where nothing listens", u)
	}
	msg := err.Error()
	addr := strings.TrimSuffix(strings.TrimPrefix(u, "postgres://someone@"), "/somedb")
	for _, want := range []string{"postgres: open: ", `user "someone"`, `database "somedb"`, addr} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") || strings.Count(msg, "connection refused") != 1 || strings.Contains(msg, "migrate") {
		t.Errorf("error %q: want one line, the refusal once, and no mention of migrating", msg)
	}
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		t.Errorf("error %q does not wrap pgx's *pgconn.ConnectError", msg)
	}
}
