// Package postgres stores accounts in PostgreSQL, for deployments that run several server
// replicas against one database.
//
// The schema lives in the first schema of the connection's search_path (goose's version
// table too), so one database can hold several independent stores: pass
// ?search_path=name in the URL.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ChangeChannel is the channel RotateKey and UpdatePlan notify, with the new change's seq as
// the payload, when they commit. Channels are per database, not per schema: a listener
// should treat a notification as a hint to call Changes, nothing more.
const ChangeChannel = "ipatlas_account_changes"

// Store is an account.Store backed by a PostgreSQL database.
type Store struct {
	pool *pgxpool.Pool
}

var _ account.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or a key=value string, as pgx
// accepts) and brings the schema up to date.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	// Connect before migrating, so that an unreachable or refusing server reads as that and
	// not as a failed migration.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", oneLine(err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: migrate: %w", err)
	}
	return &Store{pool: pool}, nil
}

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	var schema *string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return err
	}
	if schema == nil {
		return errors.New("no schema of the search_path exists")
	}
	// Replicas starting together must not migrate together, but stores in different schemas
	// have nothing to wait for: the advisory lock (which is per database) is keyed by schema.
	h := fnv.New64a()
	h.Write([]byte("ipatlas/account:" + *schema))
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64())), lock.WithLockTimeout(1, 300))
	if err != nil {
		return err
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithDisableGlobalRegistry(true), goose.WithSessionLocker(locker))
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// Pool returns the connection pool, for LISTEN on ChangeChannel and the like. It is closed
// by Close.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes the connection pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// send sends b, which must start with BeginTx, and commits if every query and callback in it
// succeeded. One round trip for the batch and one for the commit.
func (s *Store) send(ctx context.Context, b *pgx.Batch) error {
	br := s.pool.SendBatch(ctx, b)
	tx := br.Tx()
	defer tx.Rollback(ctx) // releases the connection; a no-op after Commit
	if err := br.Close(); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func pgCode(err error) (code, constraint string) {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code, e.ConstraintName
	}
	return "", ""
}

// mapErr turns constraint violations into the account sentinels.
func mapErr(err error) error {
	switch code, constraint := pgCode(err); {
	case code == "23505" && constraint == "accounts_email_key":
		return account.ErrEmailTaken
	case code == "23505" && constraint == "accounts_key_hash_key":
		return account.ErrKeyTaken
	case code == "23503": // foreign_key_violation: usage for an account that does not exist
		return account.ErrNotFound
	}
	return err
}

func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// CreateAccount implements account.Store.
func (s *Store) CreateAccount(ctx context.Context, a account.NewAccount) (account.Account, error) {
	acct := account.Account{
		Email:        account.NormalizeEmail(a.Email),
		Plan:         a.Plan,
		MonthlyLimit: a.MonthlyLimit,
		// TIMESTAMPTZ keeps microseconds; truncating here makes the value returned equal the
		// one read back later.
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
		KeyHint:   a.KeyHint,
	}
	err := s.pool.QueryRow(ctx,
		`INSERT INTO accounts (email, key_hash, plan, monthly_limit, created_at, password_hash, key_hint)
		 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		acct.Email, a.KeyHash[:], acct.Plan, acct.MonthlyLimit, acct.CreatedAt, a.PasswordHash, a.KeyHint).Scan(&acct.ID)
	if err != nil {
		return account.Account{}, fmt.Errorf("postgres: create account: %w", mapErr(err))
	}
	return acct, nil
}

func (s *Store) accountWhere(ctx context.Context, op, where string, arg any) (account.Account, error) {
	var a account.Account
	err := s.pool.QueryRow(ctx,
		`SELECT id, email, plan, monthly_limit, disabled, created_at, key_hint FROM accounts `+where, arg).
		Scan(&a.ID, &a.Email, &a.Plan, &a.MonthlyLimit, &a.Disabled, &a.CreatedAt, &a.KeyHint)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return account.Account{}, fmt.Errorf("postgres: %s: %w", op, account.ErrNotFound)
	case err != nil:
		return account.Account{}, fmt.Errorf("postgres: %s: %w", op, err)
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}

// AccountByEmail implements account.Store.
func (s *Store) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	return s.accountWhere(ctx, "account by email", "WHERE email = $1", account.NormalizeEmail(email))
}

// AccountByKey implements account.Store.
func (s *Store) AccountByKey(ctx context.Context, h account.KeyHash) (account.Account, error) {
	return s.accountWhere(ctx, "account by key", "WHERE key_hash = $1", h[:])
}

// AccountByID implements account.Store.
func (s *Store) AccountByID(ctx context.Context, id account.ID) (account.Account, error) {
	return s.accountWhere(ctx, "account by id", "WHERE id = $1", int64(id))
}

// updateAccount applies one UPDATE to account id ($1 in query) and records the change in the
// same transaction, so a reader can never see the change without the update.
//
// A sequence hands out numbers in the order transactions ask, not in the order they commit:
// unguarded, a reader could see seq 11 committed while 10 is still in flight, move on to 11
// and never see 10. The EXCLUSIVE lock on account_changes (which plain SELECTs do not wait
// for) lets one recording transaction at a time take a seq and commit, so seqs become
// visible in order.
func (s *Store) updateAccount(ctx context.Context, id account.ID, query string, args ...any) error {
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	b.Queue(`LOCK TABLE account_changes IN EXCLUSIVE MODE`)
	b.Queue(query, append([]any{int64(id)}, args...)...).Exec(func(ct pgconn.CommandTag) error {
		if ct.RowsAffected() == 0 {
			return account.ErrNotFound
		}
		return nil
	})
	b.Queue(`WITH c AS (INSERT INTO account_changes (account_id) VALUES ($1) RETURNING seq)
		SELECT pg_notify('`+ChangeChannel+`', seq::text) FROM c`, int64(id))
	return mapErr(s.send(ctx, b))
}

// RotateKey implements account.Store.
func (s *Store) RotateKey(ctx context.Context, id account.ID, h account.KeyHash, hint string) error {
	if err := s.updateAccount(ctx, id, `UPDATE accounts SET key_hash = $2, key_hint = $3 WHERE id = $1`, h[:], hint); err != nil {
		return fmt.Errorf("postgres: rotate key: %w", err)
	}
	return nil
}

// UpdatePlan implements account.Store.
func (s *Store) UpdatePlan(ctx context.Context, id account.ID, plan string, monthlyLimit int64, disabled bool) error {
	err := s.updateAccount(ctx, id,
		`UPDATE accounts SET plan = $2, monthly_limit = $3, disabled = $4 WHERE id = $1`,
		plan, monthlyLimit, disabled)
	if err != nil {
		return fmt.Errorf("postgres: update plan: %w", err)
	}
	return nil
}

// Reserve implements account.Store.
//
// The month's row is created if missing, then locked FOR UPDATE, so every replica's
// reservation for it queues behind the lock; the day and the month are then raised by the
// amount computed from the locked value. Locks are taken month first, day second, here and
// in Release, so the two cannot deadlock.
func (s *Store) Reserve(ctx context.Context, id account.ID, pkg string, at time.Time, n, limit int64) (int64, error) {
	if n <= 0 || limit <= 0 {
		return 0, nil
	}
	period, day := string(account.PeriodOf(at)), midnight(at)
	var used int64
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	// The row is inserted empty only when nothing was reserved this month, so the update
	// below always fills it (n and limit are positive): no empty rows are left behind.
	b.Queue(`INSERT INTO usage_monthly (account_id, period, package, used) VALUES ($1, $2, $3, 0)
		ON CONFLICT DO NOTHING`, int64(id), period, pkg)
	b.Queue(`SELECT used FROM usage_monthly WHERE account_id = $1 AND period = $2 AND package = $3
		FOR UPDATE`, int64(id), period, pkg).QueryRow(func(row pgx.Row) error { return row.Scan(&used) })
	b.Queue(`INSERT INTO usage_daily (account_id, day, package, used)
		SELECT account_id, $4, package, LEAST($5::bigint, $6::bigint - used) FROM usage_monthly
		WHERE account_id = $1 AND period = $2 AND package = $3 AND used < $6::bigint
		ON CONFLICT (account_id, day, package) DO UPDATE SET used = usage_daily.used + EXCLUDED.used`,
		int64(id), period, pkg, day, n, limit)
	b.Queue(`UPDATE usage_monthly SET used = used + LEAST($4::bigint, $5::bigint - used)
		WHERE account_id = $1 AND period = $2 AND package = $3 AND used < $5::bigint`,
		int64(id), period, pkg, n, limit)
	if err := s.send(ctx, b); err != nil {
		return 0, fmt.Errorf("postgres: reserve: %w", mapErr(err))
	}
	return min(n, max(limit-used, 0)), nil
}

// Release implements account.Store.
func (s *Store) Release(ctx context.Context, id account.ID, pkg string, at time.Time, n int64) error {
	if n <= 0 {
		return nil
	}
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	b.Queue(`UPDATE usage_monthly SET used = GREATEST(used - $4::bigint, 0)
		WHERE account_id = $1 AND period = $2 AND package = $3`,
		int64(id), string(account.PeriodOf(at)), pkg, n)
	b.Queue(`UPDATE usage_daily SET used = GREATEST(used - $4::bigint, 0)
		WHERE account_id = $1 AND day = $2 AND package = $3`,
		int64(id), midnight(at), pkg, n)
	if err := s.send(ctx, b); err != nil {
		return fmt.Errorf("postgres: release: %w", err)
	}
	return nil
}

// Usage implements account.Store.
func (s *Store) Usage(ctx context.Context, id account.ID, p account.Period) (map[string]int64, error) {
	rows, _ := s.pool.Query(ctx,
		`SELECT package, used FROM usage_monthly WHERE account_id = $1 AND period = $2`,
		int64(id), string(p))
	out := map[string]int64{}
	var (
		pkg  string
		used int64
	)
	_, err := pgx.ForEachRow(rows, []any{&pkg, &used}, func() error {
		out[pkg] = used
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: usage: %w", err)
	}
	return out, nil
}

// firstDayFrom returns the first midnight (UTC) at or after t: a day is in [from, to) when
// its midnight is.
func firstDayFrom(t time.Time) time.Time {
	d := midnight(t)
	if d.Before(t) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// DailyUsage implements account.Store. The bounds are passed as dates, not instants:
// comparing a DATE with a TIMESTAMPTZ would turn on the session's TimeZone.
func (s *Store) DailyUsage(ctx context.Context, id account.ID, from, to time.Time) ([]account.DayUsage, error) {
	rows, _ := s.pool.Query(ctx,
		`SELECT day, package, used FROM usage_daily
		 WHERE account_id = $1 AND day >= $2::date AND day < $3::date
		 ORDER BY day, package`,
		int64(id), firstDayFrom(from), firstDayFrom(to))
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (account.DayUsage, error) {
		var u account.DayUsage
		err := row.Scan(&u.Day, &u.Package, &u.Used)
		u.Day = midnight(u.Day)
		return u, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: daily usage: %w", err)
	}
	return out, nil
}

// Changes implements account.Store.
func (s *Store) Changes(ctx context.Context, after int64) ([]account.Change, error) {
	rows, _ := s.pool.Query(ctx,
		`SELECT seq, account_id FROM account_changes WHERE seq > $1 ORDER BY seq`, after)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (account.Change, error) {
		var c account.Change
		err := row.Scan(&c.Seq, &c.AccountID)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: changes: %w", err)
	}
	return out, nil
}

// LastChange implements account.Store.
func (s *Store) LastChange(ctx context.Context) (int64, error) {
	var seq int64
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM account_changes`).Scan(&seq); err != nil {
		return 0, fmt.Errorf("postgres: last change: %w", err)
	}
	return seq, nil
}

// PasswordHash implements account.Store.
func (s *Store) PasswordHash(ctx context.Context, id account.ID) (string, error) {
	var h string
	err := s.pool.QueryRow(ctx, `SELECT password_hash FROM accounts WHERE id = $1`, int64(id)).Scan(&h)
	if errors.Is(err, pgx.ErrNoRows) {
		err = account.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("postgres: password hash: %w", err)
	}
	return h, nil
}

// SetPassword implements account.Store.
func (s *Store) SetPassword(ctx context.Context, id account.ID, hash string) error {
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	b.Queue(`UPDATE accounts SET password_hash = $2 WHERE id = $1`, int64(id), hash).Exec(func(ct pgconn.CommandTag) error {
		if ct.RowsAffected() == 0 {
			return account.ErrNotFound
		}
		return nil
	})
	b.Queue(`DELETE FROM sessions WHERE account_id = $1`, int64(id))
	if err := s.send(ctx, b); err != nil {
		return fmt.Errorf("postgres: set password: %w", err)
	}
	return nil
}

// CreateSession implements account.Store.
func (s *Store) CreateSession(ctx context.Context, sess account.Session, now time.Time) error {
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	b.Queue(`DELETE FROM sessions WHERE expires_at <= $1`, now.UTC())
	b.Queue(`INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		sess.Hash[:], int64(sess.AccountID), now.UTC(), sess.ExpiresAt.UTC())
	if err := s.send(ctx, b); err != nil {
		return fmt.Errorf("postgres: create session: %w", mapErr(err))
	}
	return nil
}

// SessionAccount implements account.Store.
func (s *Store) SessionAccount(ctx context.Context, h account.SessionHash, now time.Time) (account.ID, error) {
	var id int64
	err := s.pool.QueryRow(ctx,
		`SELECT account_id FROM sessions WHERE token_hash = $1 AND expires_at > $2`, h[:], now.UTC()).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		err = account.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: session: %w", err)
	}
	return account.ID(id), nil
}

// DeleteSession implements account.Store.
func (s *Store) DeleteSession(ctx context.Context, h account.SessionHash) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, h[:]); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}
