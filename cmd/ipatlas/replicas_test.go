package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
)

// TestReplicasSharePostgres: three replicas on one PostgreSQL store share a key's monthly
// volume exactly at the boundary, and all of them refuse a regenerated key within a second.
func TestReplicasSharePostgres(t *testing.T) {
	e := newEnv(t)
	e.store = pgtest.NewSchema(t)
	const limit, total, clients = 2000, 3000, 32
	key := e.ipatlas("keys", "create", "--email", "replicas@example.org", "--monthly-limit", fmt.Sprint(limit))
	replicas := []*server{e.serve(), e.serve(), e.serve()}

	var next, ok, over, other atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for n := next.Add(1); n <= total; n = next.Add(1) {
				s := replicas[n%int64(len(replicas))]
				code, _ := get(t, s.base+"/data/country-info?code=US&key="+key, nil)
				switch code {
				case 200:
					ok.Add(1)
				case 402:
					over.Add(1)
				default:
					other.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != limit || over.Load() != total-limit || other.Load() != 0 {
		t.Errorf("200: %d, 402: %d, other: %d; want %d, %d, 0", ok.Load(), over.Load(), other.Load(), limit, total-limit)
	}

	// Regenerate without the command's own wait, and time how long each replica still
	// accepts the old key.
	newKey := e.ipatlas("keys", "regenerate", "--email", "replicas@example.org", "--wait", "0s")
	start := time.Now()
	for i, s := range replicas {
		for {
			code, body := get(t, s.base+"/data/country-info?code=US&key="+key, nil)
			if code == 401 {
				break
			}
			if code != 402 {
				t.Fatalf("replica %d: old key got %d %s before it was refused", i, code, body)
			}
			if time.Since(start) > time.Second {
				t.Fatalf("replica %d still accepts the old key %v after regeneration", i, time.Since(start))
			}
			time.Sleep(10 * time.Millisecond)
		}
		// The new key belongs to the same account, whose volume is used up.
		if code, body := get(t, s.base+"/data/country-info?code=US&key="+newKey, nil); code != 402 {
			t.Errorf("replica %d: new key got %d %s, want 402 (authenticated, volume used up)", i, code, body)
		}
	}
	t.Logf("all replicas refused the old key %v after regeneration", time.Since(start))

	for _, s := range replicas {
		s.stop(t)
	}
	if got := storedUsage(t, e, "replicas@example.org"); got != limit {
		t.Errorf("stored usage %d, want %d", got, limit)
	}
}
