package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/account/postgres"
	"github.com/ipatlas/ipatlas/internal/account/sqlite"
)

const defaultStore = "sqlite:./var/ipatlas.db"

// openStore opens the account store named by url: "sqlite:PATH" or a postgres:// URL.
// cmd prefixes its errors ("serve", "keys create"); origin names the setting the URL came
// from: "--store", or IPATLAS_STORE when the environment gave it (cmdFlags.origin).
func openStore(ctx context.Context, cmd, url, origin string) (account.Store, error) {
	var st account.Store
	var err error
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(url, "sqlite:")
		if path == "" {
			return nil, usageError{cmd + ": " + origin + " sqlite: needs a file path, e.g. sqlite:./var/ipatlas.db"}
		}
		if err = os.MkdirAll(filepath.Dir(path), 0o750); err == nil {
			st, err = sqlite.Open(ctx, path)
		}
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		st, err = postgres.Open(ctx, url)
	default:
		return nil, usageError{fmt.Sprintf("%s: %s %q: want sqlite:PATH or a postgres:// URL", cmd, origin, redactURL(url))}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return st, nil
}

// redactURL hides a password in a store URL before it is printed.
func redactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	creds, host, ok := strings.Cut(rest, "@")
	if !ok {
		return u
	}
	user, _, _ := strings.Cut(creds, ":")
	return scheme + "://" + user + ":***@" + host
}
