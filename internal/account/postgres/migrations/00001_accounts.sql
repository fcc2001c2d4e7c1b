-- +goose Up
-- Constraint names are spelled out because the store maps unique violations to
-- account.ErrEmailTaken or account.ErrKeyTaken by constraint name.
CREATE TABLE accounts (
    id            BIGSERIAL   PRIMARY KEY,
    email         TEXT        NOT NULL CONSTRAINT accounts_email_key UNIQUE,
    key_hash      BYTEA       NOT NULL CONSTRAINT accounts_key_hash_key UNIQUE
                              CONSTRAINT accounts_key_hash_len CHECK (octet_length(key_hash) = 32),
    plan          TEXT        NOT NULL,
    monthly_limit BIGINT      NOT NULL DEFAULT 0,
    disabled      BOOLEAN     NOT NULL DEFAULT false,
    created_at    TIMESTAMPTZ NOT NULL
);

-- The key puts period before package: Usage reads every package of one month.
CREATE TABLE usage_monthly (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period     TEXT   NOT NULL, -- 'YYYY-MM', UTC
    package    TEXT   NOT NULL,
    used       BIGINT NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, period, package)
);

-- The key puts day before package: DailyUsage reads a day range ordered by day, package.
CREATE TABLE usage_daily (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        DATE   NOT NULL, -- UTC
    package    TEXT   NOT NULL,
    used       BIGINT NOT NULL CHECK (used >= 0),
    PRIMARY KEY (account_id, day, package)
);

-- account_id has no foreign key on purpose: the record of a change must outlive the account
-- it concerns, or caches would never hear of its deletion.
CREATE TABLE account_changes (
    seq        BIGSERIAL   PRIMARY KEY,
    account_id BIGINT      NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE account_changes;
DROP TABLE usage_daily;
DROP TABLE usage_monthly;
DROP TABLE accounts;
