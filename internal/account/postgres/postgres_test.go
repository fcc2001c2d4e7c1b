package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/account/postgres"
	"github.com/ipatlas/ipatlas/internal/account/storetest"
	"github.com/jackc/pgx/v5"
)

const defaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

func baseURL() string {
	if u := os.Getenv("IPATLAS_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return defaultURL
}

// newSchema creates a schema no other test or test run uses, drops it when t ends, and
// returns the database URL with search_path set to it.
func newSchema(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, baseURL())
	if err != nil {
		// CI must run these tests: a database that is not there is a failure, not a skip.
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is unreachable and CI is set: %v", err)
		}
		t.Skipf("PostgreSQL is unreachable (%v); start it or set IPATLAS_TEST_POSTGRES_URL", err)
	}
	schema := "ipatlas_test_" + hex.EncodeToString(randBytes(8))
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
	return withSearchPath(t, baseURL(), schema)
}

func withSearchPath(t testing.TB, base, schema string) string {
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

func randBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) account.Store { return open(t, newSchema(t)) })
}

func TestConformanceShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (account.Store, account.Store) {
		u := newSchema(t)
		return open(t, u), open(t, u)
	})
}

func TestSchemasAreIsolated(t *testing.T) {
	ctx := t.Context()
	a, b := open(t, newSchema(t)), open(t, newSchema(t))
	for _, s := range []*postgres.Store{a, b} {
		if _, err := s.CreateAccount(ctx, account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")}); err != nil {
			t.Fatalf("the same account in two schemas: %v", err)
		}
	}
	// goose's version table is in the store's schema, not in public.
	var where string
	err := a.Pool().QueryRow(ctx,
		`SELECT schemaname FROM pg_tables WHERE tablename = 'goose_db_version' AND schemaname = current_schema()`).Scan(&where)
	if err != nil {
		t.Errorf("goose_db_version is not in the store's schema: %v", err)
	}
}

func TestOpenMissingSchema(t *testing.T) {
	newSchema(t) // skips when the database is unreachable
	u := withSearchPath(t, baseURL(), "ipatlas_test_missing_"+hex.EncodeToString(randBytes(4)))
	if s, err := postgres.Open(t.Context(), u); err == nil {
		s.Close()
		t.Fatal("Open succeeded with a search_path naming no schema")
	}
}

func TestConcurrentOpen(t *testing.T) {
	u := newSchema(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s, err := postgres.Open(t.Context(), u)
			if err != nil {
				t.Errorf("Open: %v", err)
				return
			}
			s.Close()
		})
	}
	wg.Wait()
}

func TestNotify(t *testing.T) {
	s := open(t, newSchema(t))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	conn, err := s.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+postgres.ChangeChannel); err != nil {
		t.Fatal(err)
	}
	a, err := s.CreateAccount(ctx, account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		t.Fatal(err)
	}
	for _, update := range []struct {
		name string
		do   func() error
	}{
		{"RotateKey", func() error { return s.RotateKey(ctx, a.ID, account.HashKey("k2")) }},
		{"UpdatePlan", func() error { return s.UpdatePlan(ctx, a.ID, "pro", 5, false) }},
	} {
		if err := update.do(); err != nil {
			t.Fatal(err)
		}
		seq, err := s.LastChange(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The channel is shared by every schema of the database, so other test runs may
		// notify it too: wait for our seq.
		for {
			n, err := conn.Conn().WaitForNotification(ctx)
			if err != nil {
				t.Fatalf("%s: no notification of seq %d: %v", update.name, seq, err)
			}
			if n.Channel == postgres.ChangeChannel && n.Payload == strconv.FormatInt(seq, 10) {
				break
			}
		}
	}
}

func TestErrorsNameTheOperation(t *testing.T) {
	s := open(t, newSchema(t))
	_, err := s.AccountByID(t.Context(), 42)
	if !errors.Is(err, account.ErrNotFound) || !strings.HasPrefix(err.Error(), "postgres: account by id: ") {
		t.Errorf("err = %q; want ErrNotFound prefixed with the operation", err)
	}
}

func benchStore(b *testing.B) (*postgres.Store, account.ID) {
	s := open(b, newSchema(b))
	a, err := s.CreateAccount(b.Context(), account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		b.Fatal(err)
	}
	return s, a.ID
}

var at = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func BenchmarkReserve(b *testing.B) {
	s, id := benchStore(b)
	ctx := b.Context()
	for b.Loop() {
		if _, err := s.Reserve(ctx, id, "geo", at, 1, math.MaxInt64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReserveParallel(b *testing.B) {
	s, id := benchStore(b)
	ctx := b.Context()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Reserve(ctx, id, "geo", at, 1, math.MaxInt64); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
