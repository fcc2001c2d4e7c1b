package sqlite_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/account/sqlite"
	"github.com/ipatlas/ipatlas/internal/account/storetest"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) account.Store {
		return open(t, filepath.Join(t.TempDir(), "accounts.db"))
	})
}

func TestConformanceShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (account.Store, account.Store) {
		path := filepath.Join(t.TempDir(), "accounts.db")
		return open(t, path), open(t, path)
	})
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "accounts.db")
	ctx := t.Context()
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.CreateAccount(ctx, account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(ctx, a.ID, "geo", time.Now(), 5, 10); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path) // migrations find nothing left to do
	got, err := s.AccountByKey(ctx, account.HashKey("k"))
	if err != nil || got != a {
		t.Errorf("after reopening: %+v, %v; want %+v", got, err, a)
	}
	if u, err := s.Usage(ctx, a.ID, account.PeriodOf(time.Now())); err != nil || u["geo"] != 5 {
		t.Errorf("after reopening: Usage = %v, %v; want geo 5", u, err)
	}
}

func TestOpenRejectsNonFile(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file::memory:?cache=shared"} {
		if s, err := sqlite.Open(t.Context(), p); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded; want an error", p)
		}
	}
}

// The path reaches SQLite inside a URI; characters that mean something there must not
// change which file is opened.
func TestPathWithURICharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a b?c=d&e#f%20g", "accounts.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if _, err := s.CreateAccount(t.Context(), account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at the path given: %v", err)
	}
}

func TestConcurrentOpenOfNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "accounts.db")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s, err := sqlite.Open(t.Context(), path)
			if err != nil {
				t.Errorf("Open: %v", err)
				return
			}
			s.Close()
		})
	}
	wg.Wait()
}

// The helper process is this test binary run again with helperEnv set. It opens the store
// at the path given in the environment and runs the mode named there.
const helperEnv = "IPATLAS_SQLITE_HELPER"

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("run only as the helper of the multi-process tests")
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, os.Getenv("IPATLAS_SQLITE_PATH"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	id, _ := strconv.ParseInt(os.Getenv("IPATLAS_SQLITE_ID"), 10, 64)
	limit, _ := strconv.ParseInt(os.Getenv("IPATLAS_SQLITE_LIMIT"), 10, 64)
	switch mode {
	case "reserve": // reserve one at a time until the limit is reached, then print the total
		var total int64
		for {
			g, err := s.Reserve(ctx, account.ID(id), "geo", at, 1, limit)
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			if g == 0 {
				break
			}
			total += g
		}
		fmt.Println("total", total)
	case "reserve-forever": // report every granted unit, until killed
		w := bufio.NewWriter(os.Stdout)
		for i := 0; ; i++ {
			g, err := s.Reserve(ctx, account.ID(id), "geo", at, 1, math.MaxInt64)
			if err != nil {
				fmt.Fprintln(w, "error", err)
				w.Flush()
				os.Exit(1)
			}
			fmt.Fprintln(w, "granted", g)
			w.Flush()
		}
	}
	os.Exit(0)
}

var at = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func helper(t *testing.T, mode, path string, id account.ID, limit int64) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		helperEnv+"="+mode,
		"IPATLAS_SQLITE_PATH="+path,
		fmt.Sprintf("IPATLAS_SQLITE_ID=%d", id),
		fmt.Sprintf("IPATLAS_SQLITE_LIMIT=%d", limit),
	)
	return cmd
}

// TestMultiProcessReserve is the deployment the package exists for: separate processes
// reserving from one file never exceed the limit together.
func TestMultiProcessReserve(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "accounts.db")
	s := open(t, path)
	a, err := s.CreateAccount(t.Context(), account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		t.Fatal(err)
	}
	const procs, limit = 3, 600
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() { outs[i], errs[i] = helper(t, "reserve", path, a.ID, limit).Output() })
	}
	wg.Wait()
	var total int64
	for i := range procs {
		var n int64
		if _, err := fmt.Sscanf(lastLine(outs[i]), "total %d", &n); errs[i] != nil || err != nil {
			t.Fatalf("helper %d: %v, output %q", i, errs[i], outs[i])
		}
		total += n
	}
	if total != limit {
		t.Errorf("processes were granted %d together; want %d", total, limit)
	}
	if u, err := s.Usage(t.Context(), a.ID, account.PeriodOf(at)); err != nil || u["geo"] != limit {
		t.Errorf("Usage = %v, %v; want geo %d", u, err, limit)
	}
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "total") || strings.HasPrefix(lines[i], "error") {
			return lines[i]
		}
	}
	return ""
}

// TestReservationSurvivesSIGKILL checks the durability promise of Reserve: whatever a
// killed process was granted is still counted when the file is opened again.
func TestReservationSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "accounts.db")
	s := open(t, path)
	a, err := s.CreateAccount(t.Context(), account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	cmd := helper(t, "reserve-forever", path, a.ID, 0)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var granted int64
	sc := bufio.NewScanner(stdout)
	for granted < 200 && sc.Scan() {
		var g int64
		if _, err := fmt.Sscanf(sc.Text(), "granted %d", &g); err != nil {
			t.Fatalf("helper said %q", sc.Text())
		}
		granted += g
	}
	// Kill it mid-stream: it is inside or between transactions, it does not get to close.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() { // grants reported before the kill landed count too
		var g int64
		if _, err := fmt.Sscanf(sc.Text(), "granted %d", &g); err == nil {
			granted += g
		}
	}
	_ = cmd.Wait()
	if granted < 200 {
		t.Fatalf("the helper reported only %d grants", granted)
	}

	s = open(t, path)
	u, err := s.Usage(t.Context(), a.ID, account.PeriodOf(at))
	if err != nil {
		t.Fatal(err)
	}
	// A grant the helper committed but had not yet reported may add one more.
	if u["geo"] < granted || u["geo"] > granted+1 {
		t.Errorf("after SIGKILL, Usage = %d; the helper was granted %d", u["geo"], granted)
	}
}

func BenchmarkReserve(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "accounts.db"))
	ctx := b.Context()
	a, err := s.CreateAccount(ctx, account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Reserve(ctx, a.ID, "geo", at, 1, math.MaxInt64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReserveParallel(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "accounts.db"))
	ctx := b.Context()
	a, err := s.CreateAccount(ctx, account.NewAccount{Email: "a@example.org", Plan: "free", KeyHash: account.HashKey("k")})
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Reserve(ctx, a.ID, "geo", at, 1, math.MaxInt64); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
