-- +goose Up
-- STRICT makes SQLite reject values of the wrong type instead of storing them silently, so
-- a bug in the store shows up as an error here rather than as bad data in a later query.

-- AUTOINCREMENT keeps ids of deleted accounts from being handed out again, so a stale
-- cache entry or a change record can never point at a different customer.
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT    NOT NULL UNIQUE,
    key_hash      BLOB    NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    plan          TEXT    NOT NULL,
    monthly_limit INTEGER NOT NULL DEFAULT 0,
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created_at    TEXT    NOT NULL -- UTC, fixed-width RFC 3339 with microseconds
) STRICT;

-- The key puts period before package: Usage reads every package of one month.
CREATE TABLE usage_monthly (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period     TEXT    NOT NULL, -- 'YYYY-MM', UTC
    package    TEXT    NOT NULL,
    used       INTEGER NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, period, package)
) STRICT, WITHOUT ROWID;

-- The key puts day before package: DailyUsage reads a day range ordered by day, package.
CREATE TABLE usage_daily (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        TEXT    NOT NULL, -- 'YYYY-MM-DD', UTC
    package    TEXT    NOT NULL,
    used       INTEGER NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, day, package)
) STRICT, WITHOUT ROWID;

-- Readers remember the last seq they saw, so seq must never be reused, even after old rows
-- are pruned: hence AUTOINCREMENT. account_id has no foreign key on purpose: the record of a
-- change must outlive the account it concerns, or caches would never hear of its deletion.
CREATE TABLE account_changes (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL,
    changed_at TEXT    NOT NULL
) STRICT;

-- +goose Down
DROP TABLE account_changes;
DROP TABLE usage_daily;
DROP TABLE usage_monthly;
DROP TABLE accounts;
