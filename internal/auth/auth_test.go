package auth

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

func TestKeyFrom(t *testing.T) {
	tests := []struct {
		name    string
		url     string
		headers map[string]string
		want    string
		ok      bool
	}{
		{"none", "/data/x", nil, "", false},
		{"query", "/data/x?key=abc", nil, "abc", true},
		{"empty query", "/data/x?key=", nil, "", false},
		{"service header", "/data/x", map[string]string{"x-service-key": "h1"}, "h1", true},
		{"bdc header", "/data/x", map[string]string{"X-BDC-Key": "h2"}, "h2", true},
		{"header beats query", "/data/x?key=q", map[string]string{"x-service-key": "h"}, "h", true},
		{"empty header falls back", "/data/x?key=q", map[string]string{"x-service-key": ""}, "q", true},
		{"escaped", "/data/x?key=a%2Bb", nil, "a+b", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tt.url, nil)
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			got, ok := KeyFrom(r)
			if got != tt.want || ok != tt.ok {
				t.Errorf("KeyFrom = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzKeyFrom(f *testing.F) {
	f.Add("key=abc", "", "")
	f.Add("key=%zz&key=b", "x", "")
	f.Add("", "", "y")
	f.Fuzz(func(t *testing.T, rawQuery, svc, bdc string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.RawQuery = rawQuery
		if svc != "" {
			r.Header[HeaderServiceKey] = []string{svc}
		}
		if bdc != "" {
			r.Header[HeaderBDCKey] = []string{bdc}
		}
		k, ok := KeyFrom(r)
		if ok == (k == "") {
			t.Fatalf("KeyFrom = %q, %v: ok must mean non-empty", k, ok)
		}
		if svc != "" && k != svc {
			t.Fatalf("header x-service-key %q not preferred, got %q", svc, k)
		}
	})
}

func TestNewKey(t *testing.T) {
	a, b := NewKey(), NewKey()
	if a == b || !strings.HasPrefix(a, KeyPrefix) || len(a) != len(KeyPrefix)+26 {
		t.Errorf("NewKey gave %q and %q", a, b)
	}
}

// fakeAccounts is an in-memory Accounts with a change log.
type fakeAccounts struct {
	mu      sync.Mutex
	byKey   map[account.KeyHash]account.Account
	changes []account.Change
	lookups int
}

func (f *fakeAccounts) AccountByKey(_ context.Context, h account.KeyHash) (account.Account, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	a, ok := f.byKey[h]
	if !ok {
		return account.Account{}, account.ErrNotFound
	}
	return a, nil
}

func (f *fakeAccounts) Changes(_ context.Context, after int64) ([]account.Change, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []account.Change
	for _, c := range f.changes {
		if c.Seq > after {
			out = append(out, c)
		}
	}
	return out, nil
}

func (f *fakeAccounts) LastChange(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.changes) == 0 {
		return 0, nil
	}
	return f.changes[len(f.changes)-1].Seq, nil
}

func (f *fakeAccounts) rotate(old, new string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.byKey[account.HashKey(old)]
	delete(f.byKey, account.HashKey(old))
	f.byKey[account.HashKey(new)] = a
	f.changes = append(f.changes, account.Change{Seq: int64(len(f.changes) + 1), AccountID: a.ID})
}

func TestAuthenticate(t *testing.T) {
	ctx := context.Background()
	store := &fakeAccounts{byKey: map[account.KeyHash]account.Account{
		account.HashKey("good"): {ID: 7, Email: "a@example.org", Plan: "free"},
	}}
	a := New(Options{Store: store})
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, ""); !errors.Is(err, ErrMissingKey) {
		t.Errorf("empty key: %v", err)
	}
	if _, err := a.Authenticate(ctx, strings.Repeat("x", MaxKeyLen+1)); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("long key: %v", err)
	}
	if _, err := a.Authenticate(ctx, "bad"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("bad key: %v", err)
	}
	acct, err := a.Authenticate(ctx, "good")
	if err != nil || acct.ID != 7 {
		t.Fatalf("good key: %v, %v", acct, err)
	}
	before := store.lookups
	for range 10 {
		a.Authenticate(ctx, "good")
		a.Authenticate(ctx, "bad")
	}
	if store.lookups != before {
		t.Errorf("cached keys reached the store %d times", store.lookups-before)
	}

	store.rotate("good", "better")
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, "good"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("rotated-out key after Sync: %v", err)
	}
	if acct, err := a.Authenticate(ctx, "better"); err != nil || acct.ID != 7 {
		t.Errorf("new key: %v, %v", acct, err)
	}
}

func TestAuthenticateTTL(t *testing.T) {
	ctx := context.Background()
	store := &fakeAccounts{byKey: map[account.KeyHash]account.Account{account.HashKey("k"): {ID: 1}}}
	now := time.Unix(0, 0)
	a := New(Options{Store: store, TTL: time.Minute, Now: func() time.Time { return now }})
	a.Authenticate(ctx, "k")
	now = now.Add(2 * time.Minute)
	a.Authenticate(ctx, "k")
	if store.lookups != 2 {
		t.Errorf("expired entry not refreshed: %d lookups", store.lookups)
	}
}

func TestRunNoticesRotation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &fakeAccounts{byKey: map[account.KeyHash]account.Account{account.HashKey("k1"): {ID: 1}}}
	a := New(Options{Store: store, PollInterval: 10 * time.Millisecond})
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	go a.Run(ctx)
	if _, err := a.Authenticate(ctx, "k1"); err != nil {
		t.Fatal(err)
	}
	store.rotate("k1", "k2")
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := a.Authenticate(ctx, "k1")
		if errors.Is(err, ErrInvalidKey) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("old key still accepted 5s after rotation")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func BenchmarkAuthenticate(b *testing.B) {
	ctx := context.Background()
	store := &fakeAccounts{byKey: map[account.KeyHash]account.Account{account.HashKey("ipa_ABCDEFGHIJKLMNOPQRSTUVWXYZ"): {ID: 1}}}
	a := New(Options{Store: store})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(ctx, "ipa_ABCDEFGHIJKLMNOPQRSTUVWXYZ"); err != nil {
			b.Fatal(err)
		}
	}
}
