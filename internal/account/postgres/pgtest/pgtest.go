// Package pgtest gives tests in any package a PostgreSQL schema of their own on the test
// database (IPATLAS_TEST_POSTGRES_URL), dropped when the test ends. Under CI an unreachable
// database fails the test instead of skipping it.
package pgtest

import (
	"context"
	"crypto/rand"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the database tests use when IPATLAS_TEST_POSTGRES_URL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// BaseURL is the database the tests use: IPATLAS_TEST_POSTGRES_URL, else DefaultURL.
func BaseURL() string {
	if u := os.Getenv("IPATLAS_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// NewSchema creates a schema no other test or test run uses, drops it when t ends, and
// returns the database URL with search_path set to it.
func NewSchema(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, BaseURL())
	if err != nil {
		// CI must run these tests: a database that is not there is a failure, not a skip.
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is unreachable and CI is set: %v", err)
		}
		t.Skipf("PostgreSQL is unreachable (%v); start it or set IPATLAS_TEST_POSTGRES_URL", err)
	}
	schema := "ipatlas_test_" + strings.ToLower(rand.Text()[:16])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		conn.Close(ctx)
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		conn.Close(ctx)
	})
	return WithSearchPath(t, BaseURL(), schema)
}

// WithSearchPath returns base with its search_path set to schema.
func WithSearchPath(t testing.TB, base, schema string) string {
	if !strings.HasPrefix(base, "postgres://") && !strings.HasPrefix(base, "postgresql://") {
		return base + " search_path=" + schema // key=value form
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("IPATLAS_TEST_POSTGRES_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// UnreachableURL returns a URL for user on database db at a loopback port where nothing
// listens (one that was free a moment ago), for tests of a store that cannot be reached.
func UnreachableURL(t testing.TB, user, db string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "postgres://" + user + "@" + addr + "/" + db
}
