// Package account owns API accounts: who holds which key, which plan they are on, and how much
// of each package's monthly volume they have used. It holds the domain types and the Store
// interface only; storage backends live in sub-packages named after their dependency (sqlite,
// postgres) and all pass the conformance suite in storetest.
package account

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/mail"
	"strings"
	"time"
	"unicode"
)

// Errors returned by every Store. Callers compare with errors.Is.
var (
	// ErrNotFound: no account matches the email, key or id.
	ErrNotFound = errors.New("account: not found")
	// ErrEmailTaken: CreateAccount was called with an email that already has an account.
	ErrEmailTaken = errors.New("account: email already registered")
	// ErrKeyTaken: the key hash is already held by another account (astronomically unlikely
	// for generated keys; reported rather than silently sharing a key).
	ErrKeyTaken = errors.New("account: key already in use")
)

// ID identifies an account within one store.
type ID int64

// KeyHash is the SHA-256 of an API key. Stores keep only this, never the key itself.
type KeyHash [sha256.Size]byte

// HashKey returns the hash under which key is stored.
func HashKey(key string) KeyHash { return sha256.Sum256([]byte(key)) }

// KeyHintLen is how many leading characters of a key are kept as its hint: the "ipa_"
// prefix and four characters of the random part (20 bits; the key has 130).
const KeyHintLen = 8

// KeyHint returns the part of key that stores keep in the clear, to tell keys apart.
func KeyHint(key string) string { return key[:min(len(key), KeyHintLen)] }

// NormalizeEmail returns email as accounts hold it: trimmed and lower-case.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidEmail reports whether email, already normalised, may be a new account's: a
// PlainEmail at a host name (validDomain). The dashboard's sign-up and `keys create` both
// apply it, so no way in makes an account the other refuses.
func ValidEmail(email string) bool {
	return PlainEmail(email) && validDomain(email[strings.LastIndexByte(email, '@')+1:])
}

// PlainEmail reports whether email, already normalised, is a plain address: one
// mail.ParseAddress reads back unchanged (no display name, no angle brackets, no comments),
// of at most 254 bytes (RFC 5321's limit on a path). Every account's email is one, also
// those made before ValidEmail asked for a host name, so log-in refuses what is not.
func PlainEmail(email string) bool {
	if len(email) > 254 { // before parsing: forms may carry 64 KiB of it
		return false
	}
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email
}

// validDomain reports whether d is a host name: dot-separated labels of letters (of any
// script: internationalised domains, with the combining marks Devanagari or Thai write
// with, though not first), digits and hyphens, none starting or ending with a hyphen, the
// last not all digits. A label may have 63 bytes of UTF-8, an approximation of DNS's 63
// bytes of its ASCII (punycode) form. A single label is a host name (mail inside a
// company's network, user@intranet); an address literal (user@[192.0.2.1]), an underscore
// or an empty label is not.
func validDomain(d string) bool {
	labels := strings.Split(d, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i, r := range l {
			mark := unicode.In(r, unicode.Mn, unicode.Mc) && i > 0
			if r != '-' && !mark && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return strings.IndexFunc(labels[len(labels)-1], func(r rune) bool { return !unicode.IsDigit(r) }) >= 0
}

// Account is one customer. The zero MonthlyLimit means "the plan's volumes apply".
type Account struct {
	ID    ID
	Email string // normalised: trimmed and lower-case
	Plan  string // plan name; the plans themselves are configuration, not stored data
	// MonthlyLimit, when positive, replaces the plan's monthly volume for every package of
	// this account (small installs and tests set tiny quotas with it).
	MonthlyLimit int64
	Disabled     bool
	CreatedAt    time.Time
	// KeyHint is the start of the current key (see KeyHint), "" if unknown.
	KeyHint string
}

// NewAccount is the input to Store.CreateAccount.
type NewAccount struct {
	Email        string
	Plan         string
	MonthlyLimit int64
	KeyHash      KeyHash
	KeyHint      string // KeyHint(key); optional
	// PasswordHash is the encoded password hash for dashboard log-in (see auth.HashPassword);
	// empty for accounts that cannot log in, such as those made by `ipatlas keys create`.
	PasswordHash string
}

// SessionHash is the SHA-256 of a dashboard session token; stores keep only this.
type SessionHash [sha256.Size]byte

// HashSession returns the hash under which a session token is stored.
func HashSession(token string) SessionHash { return sha256.Sum256([]byte(token)) }

// Session is one logged-in dashboard session.
type Session struct {
	Hash      SessionHash
	AccountID ID
	ExpiresAt time.Time
}

// Change records that an account was modified (key rotated, plan or limit changed, disabled),
// so that every server holding a cached view of it drops that view. Seq increases strictly.
type Change struct {
	Seq       int64
	AccountID ID
}

// DayUsage is one day's reserved volume for one package.
type DayUsage struct {
	Day     time.Time // midnight UTC
	Package string
	Used    int64
}

// Period is a calendar month in UTC, written "2006-01"; monthly volumes reset when it changes.
type Period string

// PeriodOf returns the month t falls in.
func PeriodOf(t time.Time) Period { return Period(t.UTC().Format("2006-01")) }

// Store persists accounts, keys and usage. Implementations are safe for concurrent use by
// many goroutines and by many processes sharing the same database (a CLI next to a server,
// several server replicas).
type Store interface {
	// CreateAccount inserts an account holding the given key. The email is normalised first.
	// It returns ErrEmailTaken or ErrKeyTaken on conflicts.
	CreateAccount(ctx context.Context, a NewAccount) (Account, error)
	// AccountByEmail finds an account by (normalised) email, or returns ErrNotFound.
	AccountByEmail(ctx context.Context, email string) (Account, error)
	// AccountByKey finds the account whose current key hashes to h, or returns ErrNotFound.
	// A rotated-out key is not found.
	AccountByKey(ctx context.Context, h KeyHash) (Account, error)
	// AccountByID finds an account by id, or returns ErrNotFound.
	AccountByID(ctx context.Context, id ID) (Account, error)
	// RotateKey replaces the account's key hash and hint in one transaction and records a
	// Change. It returns ErrNotFound for an unknown id and ErrKeyTaken when another account
	// holds h.
	RotateKey(ctx context.Context, id ID, h KeyHash, hint string) error
	// UpdatePlan sets plan, monthly limit and disabled flag, and records a Change. It
	// returns ErrNotFound for an unknown id.
	UpdatePlan(ctx context.Context, id ID, plan string, monthlyLimit int64, disabled bool) error

	// PasswordHash returns the account's encoded password hash, "" when it has none (it
	// cannot log in), or ErrNotFound for an unknown id.
	PasswordHash(ctx context.Context, id ID) (string, error)
	// SetPassword replaces the account's encoded password hash ("" removes the ability to
	// log in) and ends every session of the account. It returns ErrNotFound for an unknown id.
	SetPassword(ctx context.Context, id ID, hash string) error
	// CreateSession stores a session; it also deletes sessions that expired before now.
	// It returns ErrNotFound when the account does not exist.
	CreateSession(ctx context.Context, s Session, now time.Time) error
	// SessionAccount returns the account id of the session with hash h, or ErrNotFound when
	// there is none or it expired at or before now.
	SessionAccount(ctx context.Context, h SessionHash, now time.Time) (ID, error)
	// DeleteSession ends one session; deleting a session that does not exist is not an error.
	DeleteSession(ctx context.Context, h SessionHash) error

	// Reserve atomically adds up to n to the account's usage of pkg for the month of `at`,
	// never letting that month's total exceed limit, and returns how much it added (0..n).
	// The same amount is added to the usage of the day of `at`. Concurrent callers, in this
	// process or others, never together exceed limit. A reservation is durable when Reserve
	// returns: a crash afterwards can only over-count, never under-count.
	// It grants 0 without error when n or limit is not positive, and returns ErrNotFound
	// when id has no account.
	Reserve(ctx context.Context, id ID, pkg string, at time.Time, n, limit int64) (granted int64, err error)
	// Release gives back n previously reserved units of the month and day of `at` (never
	// going below zero); servers call it for leases they did not use.
	Release(ctx context.Context, id ID, pkg string, at time.Time, n int64) error
	// Usage returns the reserved volume per package for one month; packages never used are
	// absent (a package released back to zero may be absent or 0). An unknown id has no usage.
	Usage(ctx context.Context, id ID, p Period) (map[string]int64, error)
	// DailyUsage returns per-day, per-package usage for days in [from, to), ordered by day
	// then package. Days without usage are absent. A day is in the range when its midnight
	// (UTC) is, so callers normally pass midnights.
	DailyUsage(ctx context.Context, id ID, from, to time.Time) ([]DayUsage, error)

	// Changes returns the changes with Seq > after, in Seq order (at most a few thousand).
	// Seqs become visible in order: a reader that has seen Seq k will never later find a
	// new change below k, so remembering the last Seq seen is enough to miss nothing.
	Changes(ctx context.Context, after int64) ([]Change, error)
	// LastChange returns the highest Seq recorded so far (0 when none).
	LastChange(ctx context.Context) (int64, error)

	Close() error
}
