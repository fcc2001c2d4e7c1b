package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/account/postgres"
	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
	"github.com/ipatlas/ipatlas/internal/account/storetest"
)

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
	storetest.Run(t, func(t *testing.T) account.Store { return open(t, pgtest.NewSchema(t)) })
}

func TestConformanceShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (account.Store, account.Store) {
		u := pgtest.NewSchema(t)
		return open(t, u), open(t, u)
	})
}

func TestSchemasAreIsolated(t *testing.T) {
	ctx := t.Context()
	a, b := open(t, pgtest.NewSchema(t)), open(t, pgtest.NewSchema(t))
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
	pgtest.NewSchema(t) // skips when the database is unreachable
	u := pgtest.WithSearchPath(t, pgtest.BaseURL(), "ipatlas_test_missing_"+hex.EncodeToString(randBytes(4)))
	if s, err := postgres.Open(t.Context(), u); err == nil {
		s.Close()
		t.Fatal("Open succeeded with a search_path naming no schema")
	}
}

func TestConcurrentOpen(t *testing.T) {
	u := pgtest.NewSchema(t)
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
	s := open(t, pgtest.NewSchema(t))
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
		{"RotateKey", func() error { return s.RotateKey(ctx, a.ID, account.HashKey("k2"), "") }},
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
	s := open(t, pgtest.NewSchema(t))
	_, err := s.AccountByID(t.Context(), 42)
	if !errors.Is(err, account.ErrNotFound) || !strings.HasPrefix(err.Error(), "postgres: account by id: ") {
		t.Errorf("err = %q; want ErrNotFound prefixed with the operation", err)
	}
}

func benchStore(b *testing.B) (*postgres.Store, account.ID) {
	s := open(b, pgtest.NewSchema(b))
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
