package dataset

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Live holds the serving Snapshot. Current is a single atomic load; old snapshots are never
// closed, the garbage collector reclaims them once the last request reading them is done.
type Live struct {
	path string
	log  *slog.Logger
	load func(string) (*Snapshot, error)

	cur   atomic.Pointer[Snapshot]
	mu    sync.Mutex // serialises reloads
	mtime time.Time
	size  int64

	reloaded, refused atomic.Int64 // reloads since the first load, by outcome
}

// Reloads returns how many reloads replaced the snapshot and how many were refused (the
// previous snapshot kept serving), for the metrics.
func (l *Live) Reloads() (reloaded, refused int64) { return l.reloaded.Load(), l.refused.Load() }

// NewLive loads the snapshot at path; failure here is fatal to the caller, since there is
// nothing to serve yet.
func NewLive(path string, log *slog.Logger) (*Live, error) {
	return newLive(path, log, Load)
}

func newLive(path string, log *slog.Logger, load func(string) (*Snapshot, error)) (*Live, error) {
	l := &Live{path: path, log: log, load: load}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	s, err := load(path)
	if err != nil {
		return nil, err
	}
	l.cur.Store(s)
	l.mtime, l.size = fi.ModTime(), fi.Size()
	log.Info("snapshot loaded", "path", path, "build_time", s.Meta.BuildTime)
	// Decoding's garbage is a third of the resident size until the heap next doubles;
	// collected beside serving, so that readiness does not wait for it.
	go debug.FreeOSMemory()
	return l, nil
}

// NewStatic wraps an already built snapshot (tests, the lookup command); Reload is a no-op.
func NewStatic(s *Snapshot) *Live {
	l := &Live{log: slog.New(slog.DiscardHandler)}
	l.cur.Store(s)
	return l
}

// Current returns the serving snapshot.
func (l *Live) Current() *Snapshot { return l.cur.Load() }

// Reload loads the file again and swaps it in if it loads and probes cleanly; otherwise the
// current snapshot keeps serving and the error is returned.
func (l *Live) Reload() error {
	if l.path == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fi, statErr := os.Stat(l.path)
	s, err := l.load(l.path)
	// A snapshot is most of the heap, so the one just dropped (or the refused one's
	// decoding) is as much garbage again: collect it now rather than when the heap next
	// doubles, or back-to-back reloads stack up to four snapshots' worth of memory (2.3 GB
	// for six reloads, over the deployment's 2 GiB limit).
	defer debug.FreeOSMemory()
	if err != nil {
		l.refused.Add(1)
		l.log.Warn("snapshot reload refused; the previous snapshot keeps serving", "path", l.path, "err", err)
		if statErr == nil {
			l.mtime, l.size = fi.ModTime(), fi.Size() // do not retry the same bad file every tick
		}
		return err
	}
	l.cur.Store(s)
	l.reloaded.Add(1)
	if statErr == nil {
		l.mtime, l.size = fi.ModTime(), fi.Size()
	}
	l.log.Info("snapshot loaded", "path", l.path, "build_time", s.Meta.BuildTime)
	return nil
}

// changed reports whether the file differs (by mtime or size) from the one last loaded.
func (l *Live) changed() bool {
	fi, err := os.Stat(l.path)
	if err != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return !fi.ModTime().Equal(l.mtime) || fi.Size() != l.size
}

// NotifyReload returns a channel that receives SIGHUP. Call it before the process announces
// it is serving: without a handler, SIGHUP would end the process.
func NotifyReload() (<-chan os.Signal, func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	return hup, func() { signal.Stop(hup) }
}

// Watch reloads when hup receives and when the file changes (checked every interval; 0
// disables the check), until ctx is done. `data update` replaces the file by rename, so a
// reader never sees a half-written snapshot.
func (l *Live) Watch(ctx context.Context, interval time.Duration, hup <-chan os.Signal) {
	var tick <-chan time.Time
	if interval > 0 && l.path != "" {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			_ = l.Reload()
		case <-tick:
			if l.changed() {
				_ = l.Reload()
			}
		}
	}
}
