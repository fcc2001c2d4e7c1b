package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ipatlas/ipatlas/internal/account"
	"golang.org/x/crypto/argon2"
)

// Argon2id parameters for new password hashes (RFC 9106's second recommended option, with
// 64 MiB). Hashes record their own parameters, so changing these keeps old hashes valid.
const (
	argonTime    = 3
	argonMemory  = 64 * 1024 // KiB
	argonThreads = 2
	argonKeyLen  = 32
	argonSaltLen = 16
)

// The lengths of a password the service sets (sign-up, `ipatlas keys password`), in
// characters (Unicode code points), as the sign-up form says: at least a little to guess, at
// most what is still cheap to receive and hash (4 KiB at UTF-8's longest).
const MinPasswordLen, MaxPasswordLen = 10, 1024

// PasswordLenOK reports whether password has MinPasswordLen to MaxPasswordLen characters.
func PasswordLenOK(password string) bool {
	n := utf8.RuneCountInString(password)
	return n >= MinPasswordLen && n <= MaxPasswordLen
}

// ErrBadPassword is returned by CheckPassword for a wrong password or an account with none.
var ErrBadPassword = errors.New("auth: wrong password")

var b64 = base64.RawStdEncoding

// HashPassword returns the PHC-style argon2id encoding of password:
// $argon2id$v=19$m=65536,t=3,p=2$<salt>$<hash>.
func HashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	h := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(h))
}

// CheckPassword reports (as a nil error) whether password matches the encoded hash. An empty
// or malformed hash matches nothing; the comparison is constant-time.
func CheckPassword(encoded, password string) error {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return ErrBadPassword
	}
	var v int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return ErrBadPassword
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 || m > 1<<21 || t > 64 {
		return ErrBadPassword
	}
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > 128 {
		return ErrBadPassword
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return ErrBadPassword
	}
	return nil
}

// KeyRotator is the part of account.Store that RegenerateKey writes.
type KeyRotator interface {
	RotateKey(ctx context.Context, id account.ID, h account.KeyHash, hint string) error
}

// RegenerateKey gives account id a new key and returns it. The old key stops working on every
// server within its change-log poll interval (the store records the change). Both the keys
// CLI and the dashboard regenerate keys through this one function.
func RegenerateKey(ctx context.Context, s KeyRotator, id account.ID) (string, error) {
	key := NewKey()
	if err := s.RotateKey(ctx, id, account.HashKey(key), account.KeyHint(key)); err != nil {
		return "", err
	}
	return key, nil
}
