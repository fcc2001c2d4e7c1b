// Package sqlite stores accounts in a SQLite file: the default store, pure Go with no cgo.
//
// Several processes may open the same file at once (the CLI creating keys while the server
// runs). Every write runs in a BEGIN IMMEDIATE transaction, which takes SQLite's write lock
// before the first read, so a read-then-write such as Reserve cannot interleave with another
// writer in this process or any other.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/pressly/goose/v3"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is an account.Store backed by one SQLite file.
type Store struct {
	// w has exactly one connection. Writers in this process queue for it in database/sql
	// instead of meeting in SQLite's busy handler, which polls with sleeps of up to 100 ms
	// and would serialise them far more slowly. Other processes still meet us there.
	w *sql.DB
	// r serves plain reads; in WAL mode they neither wait for nor block the writer.
	r *sql.DB
}

var _ account.Store = (*Store)(nil)

const (
	// busyTimeout is how long a statement waits for another process's write lock before it
	// fails with SQLITE_BUSY.
	busyTimeout = 10 * time.Second
	// busyRetries is how many more times a write transaction is tried after SQLITE_BUSY got
	// through the busy timeout anyway (a long checkpoint, WAL recovery after a crash).
	busyRetries = 5
	readConns   = 4
	timeFormat  = "2006-01-02T15:04:05.000000Z07:00"
	dayFormat   = "2006-01-02"
)

// Open opens (creating if needed) the database file at path and brings its schema up to
// date. path must name a file: the store uses several connections, so ":memory:" would give
// each one its own empty database.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: open: %q is not a file path", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	if err := migrate(ctx, dsn(abs, true)); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: migrate: %w", path, err)
	}
	w, err := sql.Open("sqlite", dsn(abs, true))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn(abs, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(readConns)
	r.SetMaxIdleConns(readConns)
	s := &Store{w: w, r: r}
	if err := errors.Join(w.PingContext(ctx), r.PingContext(ctx)); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return s, nil
}

// dsn builds a file: URI so that any character in the path survives.
//
// synchronous=NORMAL in WAL mode syncs the WAL only at checkpoints, not at each commit: a
// committed transaction survives a crash of the process (even SIGKILL), because it is in
// the OS page cache, but the last commits before a power failure or kernel crash may be
// lost. That is the trade made here for commits that cost no fsync; FULL would close it.
func dsn(abs string, writer bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_foreign_keys", "1")
	if writer {
		q.Set("_txlock", "immediate")
	} else {
		q.Set("_query_only", "1")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") { // a Windows drive letter
		u.Path = "/" + u.Path
	}
	return u.String()
}

// migrate runs on its own short-lived handle so that goose can hold a connection without
// starving the single-connection writer pool.
func migrate(ctx context.Context, dsn string) error {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return err
	}
	// Two processes opening a new file at once can both decide a migration is pending; the
	// loser's transaction fails once the winner commits, and a second pass finds nothing
	// left to do. Goose has no lock for SQLite to prevent this in the first place.
	for attempt := 0; ; attempt++ {
		_, err = p.Up(ctx)
		if err == nil || attempt == 2 || ctx.Err() != nil {
			return err
		}
	}
}

// Close closes the database handles.
func (s *Store) Close() error {
	if err := errors.Join(s.w.Close(), s.r.Close()); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// write runs fn in a BEGIN IMMEDIATE transaction, again from the start when SQLite reports
// the database busy. fn must not keep anything from a failed attempt.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	backoff := 5 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := s.writeOnce(ctx, fn)
		if err == nil || !isBusy(err) || attempt == busyRetries {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

func (s *Store) writeOnce(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, ignoreDone(tx.Rollback()))
	}
	return tx.Commit()
}

func ignoreDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

// isBusy covers the extended codes too (SQLITE_BUSY_RECOVERY, _SNAPSHOT, _TIMEOUT).
func isBusy(err error) bool { return sqliteCode(err)&0xff == sqlite3.SQLITE_BUSY }

func isUnique(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

func isForeignKey(err error) bool { return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY }

// uniqueErr maps a unique violation on accounts to the sentinel for the column. SQLite
// names the column only in the message ("UNIQUE constraint failed: accounts.email").
func uniqueErr(err error) error {
	switch {
	case !isUnique(err):
		return err
	case strings.Contains(err.Error(), "accounts.email"):
		return account.ErrEmailTaken
	case strings.Contains(err.Error(), "accounts.key_hash"):
		return account.ErrKeyTaken
	}
	return err
}

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// CreateAccount implements account.Store.
func (s *Store) CreateAccount(ctx context.Context, a account.NewAccount) (account.Account, error) {
	acct := account.Account{
		Email:        account.NormalizeEmail(a.Email),
		Plan:         a.Plan,
		MonthlyLimit: a.MonthlyLimit,
		CreatedAt:    now(),
		KeyHint:      a.KeyHint,
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`INSERT INTO accounts (email, key_hash, plan, monthly_limit, disabled, created_at, password_hash, key_hint)
			 VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
			acct.Email, a.KeyHash[:], acct.Plan, acct.MonthlyLimit, acct.CreatedAt.Format(timeFormat), a.PasswordHash, a.KeyHint)
		if err != nil {
			return uniqueErr(err)
		}
		id, err := res.LastInsertId()
		acct.ID = account.ID(id)
		return err
	})
	if err != nil {
		return account.Account{}, fmt.Errorf("sqlite: create account: %w", err)
	}
	return acct, nil
}

const selectAccount = `SELECT id, email, plan, monthly_limit, disabled, created_at, key_hint FROM accounts `

func (s *Store) accountWhere(ctx context.Context, op, where string, arg any) (account.Account, error) {
	var (
		a       account.Account
		created string
	)
	err := s.r.QueryRowContext(ctx, selectAccount+where, arg).
		Scan(&a.ID, &a.Email, &a.Plan, &a.MonthlyLimit, &a.Disabled, &created, &a.KeyHint)
	if err == nil {
		a.CreatedAt, err = time.Parse(timeFormat, created)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return account.Account{}, fmt.Errorf("sqlite: %s: %w", op, account.ErrNotFound)
	case err != nil:
		return account.Account{}, fmt.Errorf("sqlite: %s: %w", op, err)
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}

// AccountByEmail implements account.Store.
func (s *Store) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	return s.accountWhere(ctx, "account by email", "WHERE email = ?", account.NormalizeEmail(email))
}

// AccountByKey implements account.Store.
func (s *Store) AccountByKey(ctx context.Context, h account.KeyHash) (account.Account, error) {
	return s.accountWhere(ctx, "account by key", "WHERE key_hash = ?", h[:])
}

// AccountByID implements account.Store.
func (s *Store) AccountByID(ctx context.Context, id account.ID) (account.Account, error) {
	return s.accountWhere(ctx, "account by id", "WHERE id = ?", int64(id))
}

// updateAccount applies one UPDATE to account id and records the change in the same
// transaction, so a reader of the change log can never see the change without the update.
func (s *Store) updateAccount(ctx context.Context, id account.ID, query string, args ...any) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, append(args, int64(id))...)
		if err != nil {
			return uniqueErr(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return account.ErrNotFound
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO account_changes (account_id, changed_at) VALUES (?, ?)`,
			int64(id), now().Format(timeFormat))
		return err
	})
}

// RotateKey implements account.Store.
func (s *Store) RotateKey(ctx context.Context, id account.ID, h account.KeyHash, hint string) error {
	if err := s.updateAccount(ctx, id, `UPDATE accounts SET key_hash = ?, key_hint = ? WHERE id = ?`, h[:], hint); err != nil {
		return fmt.Errorf("sqlite: rotate key: %w", err)
	}
	return nil
}

// UpdatePlan implements account.Store.
func (s *Store) UpdatePlan(ctx context.Context, id account.ID, plan string, monthlyLimit int64, disabled bool) error {
	err := s.updateAccount(ctx, id,
		`UPDATE accounts SET plan = ?, monthly_limit = ?, disabled = ? WHERE id = ?`,
		plan, monthlyLimit, b2i(disabled))
	if err != nil {
		return fmt.Errorf("sqlite: update plan: %w", err)
	}
	return nil
}

// Reserve implements account.Store. The transaction holds SQLite's write lock from BEGIN, so
// no other writer can change usage between the read of the month's total and the update.
func (s *Store) Reserve(ctx context.Context, id account.ID, pkg string, at time.Time, n, limit int64) (int64, error) {
	if n <= 0 || limit <= 0 {
		return 0, nil
	}
	period, day := string(account.PeriodOf(at)), at.UTC().Format(dayFormat)
	var granted int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		granted = 0
		var used int64
		err := tx.QueryRowContext(ctx,
			`SELECT used FROM usage_monthly WHERE account_id = ? AND period = ? AND package = ?`,
			int64(id), period, pkg).Scan(&used)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		g := min(n, max(limit-used, 0))
		if g == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO usage_monthly (account_id, period, package, used) VALUES (?, ?, ?, ?)
			 ON CONFLICT (account_id, period, package) DO UPDATE SET used = used + excluded.used`,
			int64(id), period, pkg, g); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO usage_daily (account_id, day, package, used) VALUES (?, ?, ?, ?)
			 ON CONFLICT (account_id, day, package) DO UPDATE SET used = used + excluded.used`,
			int64(id), day, pkg, g); err != nil {
			return err
		}
		granted = g
		return nil
	})
	if isForeignKey(err) {
		err = account.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: reserve: %w", err)
	}
	return granted, nil
}

// Release implements account.Store.
func (s *Store) Release(ctx context.Context, id account.ID, pkg string, at time.Time, n int64) error {
	if n <= 0 {
		return nil
	}
	period, day := string(account.PeriodOf(at)), at.UTC().Format(dayFormat)
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`UPDATE usage_monthly SET used = max(used - ?, 0)
			 WHERE account_id = ? AND period = ? AND package = ?`,
			n, int64(id), period, pkg); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`UPDATE usage_daily SET used = max(used - ?, 0)
			 WHERE account_id = ? AND day = ? AND package = ?`,
			n, int64(id), day, pkg)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: release: %w", err)
	}
	return nil
}

// Usage implements account.Store.
func (s *Store) Usage(ctx context.Context, id account.ID, p account.Period) (map[string]int64, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT package, used FROM usage_monthly WHERE account_id = ? AND period = ?`,
		int64(id), string(p))
	if err != nil {
		return nil, fmt.Errorf("sqlite: usage: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var (
			pkg  string
			used int64
		)
		if err := rows.Scan(&pkg, &used); err != nil {
			return nil, fmt.Errorf("sqlite: usage: %w", err)
		}
		out[pkg] = used
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: usage: %w", err)
	}
	return out, nil
}

// firstDayFrom returns the first midnight (UTC) at or after t: a day is in [from, to) when
// its midnight is.
func firstDayFrom(t time.Time) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if d.Before(t) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// DailyUsage implements account.Store.
func (s *Store) DailyUsage(ctx context.Context, id account.ID, from, to time.Time) ([]account.DayUsage, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT day, package, used FROM usage_daily
		 WHERE account_id = ? AND day >= ? AND day < ?
		 ORDER BY day, package`,
		int64(id), firstDayFrom(from).Format(dayFormat), firstDayFrom(to).Format(dayFormat))
	if err != nil {
		return nil, fmt.Errorf("sqlite: daily usage: %w", err)
	}
	defer rows.Close()
	var out []account.DayUsage
	for rows.Next() {
		var (
			u   account.DayUsage
			day string
		)
		if err := rows.Scan(&day, &u.Package, &u.Used); err != nil {
			return nil, fmt.Errorf("sqlite: daily usage: %w", err)
		}
		if u.Day, err = time.Parse(dayFormat, day); err != nil {
			return nil, fmt.Errorf("sqlite: daily usage: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: daily usage: %w", err)
	}
	return out, nil
}

// Changes implements account.Store. Writers hold SQLite's single write lock while they take
// a seq, so seqs become visible in order and a reader that saw seq k has seen every seq
// below it.
func (s *Store) Changes(ctx context.Context, after int64) ([]account.Change, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT seq, account_id FROM account_changes WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return nil, fmt.Errorf("sqlite: changes: %w", err)
	}
	defer rows.Close()
	var out []account.Change
	for rows.Next() {
		var c account.Change
		if err := rows.Scan(&c.Seq, &c.AccountID); err != nil {
			return nil, fmt.Errorf("sqlite: changes: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: changes: %w", err)
	}
	return out, nil
}

// LastChange implements account.Store.
func (s *Store) LastChange(ctx context.Context) (int64, error) {
	var seq int64
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM account_changes`).Scan(&seq); err != nil {
		return 0, fmt.Errorf("sqlite: last change: %w", err)
	}
	return seq, nil
}

// PasswordHash implements account.Store.
func (s *Store) PasswordHash(ctx context.Context, id account.ID) (string, error) {
	var h string
	err := s.r.QueryRowContext(ctx, `SELECT password_hash FROM accounts WHERE id = ?`, int64(id)).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		err = account.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: password hash: %w", err)
	}
	return h, nil
}

// SetPassword implements account.Store.
func (s *Store) SetPassword(ctx context.Context, id account.ID, hash string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ?`, hash, int64(id))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return account.ErrNotFound
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ?`, int64(id))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: set password: %w", err)
	}
	return nil
}

// CreateSession implements account.Store.
func (s *Store) CreateSession(ctx context.Context, sess account.Session, now time.Time) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= ?`,
			now.UTC().Format(timeFormat)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			sess.Hash[:], int64(sess.AccountID), now.UTC().Format(timeFormat), sess.ExpiresAt.UTC().Format(timeFormat))
		return err
	})
	if isForeignKey(err) {
		err = account.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("sqlite: create session: %w", err)
	}
	return nil
}

// SessionAccount implements account.Store. Times are fixed-width UTC text, so comparing
// them as strings compares the instants.
func (s *Store) SessionAccount(ctx context.Context, h account.SessionHash, now time.Time) (account.ID, error) {
	var id int64
	err := s.r.QueryRowContext(ctx,
		`SELECT account_id FROM sessions WHERE token_hash = ? AND expires_at > ?`,
		h[:], now.UTC().Format(timeFormat)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = account.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: session: %w", err)
	}
	return account.ID(id), nil
}

// DeleteSession implements account.Store.
func (s *Store) DeleteSession(ctx context.Context, h account.SessionHash) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, h[:])
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete session: %w", err)
	}
	return nil
}
