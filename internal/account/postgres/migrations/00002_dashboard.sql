-- +goose Up
-- Dashboard log-in. An empty password_hash (accounts made by `ipatlas keys create`) matches
-- no password: such an account cannot log in until a password is set.
ALTER TABLE accounts ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
-- The first characters of the current key (account.KeyHint), so the dashboard can say which
-- key is current; too short to be of use to anyone else. '' for keys made before.
ALTER TABLE accounts ADD COLUMN key_hint TEXT NOT NULL DEFAULT '';

-- Only the SHA-256 of a session token is stored, as for API keys: a copy of the database
-- does not let anyone in. Expired rows are deleted when new sessions are created.
CREATE TABLE sessions (
    token_hash BYTEA       PRIMARY KEY CONSTRAINT sessions_token_hash_len CHECK (octet_length(token_hash) = 32),
    account_id BIGINT      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- +goose Down
DROP TABLE sessions;
ALTER TABLE accounts DROP COLUMN key_hint;
ALTER TABLE accounts DROP COLUMN password_hash;
