package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/quota"
)

func runKeysCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("keys create", stdout)
	email := fs.String("email", "", "account email (required)")
	plan := fs.String("plan", quota.DefaultPlan, "plan name: built in are "+strings.Join(slices.Sorted(maps.Keys(quota.DefaultPlans())), " and ")+"; a --plans file replaces them")
	limit := fs.Int64("monthly-limit", 0, "monthly volume for every package, overriding the plan (0: the plan's)")
	storeURL := fs.String("store", defaultStore, "account store: sqlite:PATH or a postgres:// URL")
	plansFile := fs.String("plans", "", "plans file (JSON); default: the built-in plans")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *email == "" {
		return usageError{"keys create: --email is required"}
	}
	if !account.ValidEmail(account.NormalizeEmail(*email)) {
		return usageError{fmt.Sprintf("keys create: --email %q is not an email address such as name@example.org", *email)}
	}
	if *limit < 0 {
		return usageError{fmt.Sprintf("keys create: %s must not be negative", fs.origin("monthly-limit"))}
	}
	plans, err := loadPlans(*plansFile)
	if err != nil {
		return err
	}
	if _, ok := plans[*plan]; !ok {
		return usageError{fmt.Sprintf("keys create: %s: no plan %q is configured", fs.origin("plan"), *plan)}
	}
	store, err := openStore(ctx, "keys create", *storeURL, fs.origin("store"))
	if err != nil {
		return err
	}
	defer store.Close()
	key := auth.NewKey()
	_, err = store.CreateAccount(ctx, account.NewAccount{Email: *email, Plan: *plan, MonthlyLimit: *limit, KeyHash: account.HashKey(key), KeyHint: account.KeyHint(key)})
	if errors.Is(err, account.ErrEmailTaken) {
		return fmt.Errorf("keys create: %s already has an account; its key is stored only as a hash, so use 'ipatlas keys regenerate --email %s' for a new one", *email, *email)
	}
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	fmt.Fprintln(stdout, key)
	return nil
}

func runKeysRegenerate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("keys regenerate", stdout)
	email := fs.String("email", "", "account email (required)")
	storeURL := fs.String("store", defaultStore, "account store: sqlite:PATH or a postgres:// URL")
	wait := changeWaitFlags(fs, "the key", "refuse the old key")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *email == "" {
		return usageError{"keys regenerate: --email is required"}
	}
	d, err := wait()
	if err != nil {
		return err
	}
	store, err := openStore(ctx, "keys regenerate", *storeURL, fs.origin("store"))
	if err != nil {
		return err
	}
	defer store.Close()
	acct, err := accountByEmail(ctx, store, "keys regenerate", *email)
	if err != nil {
		return err
	}
	key, err := auth.RegenerateKey(ctx, store, acct.ID)
	if err != nil {
		return fmt.Errorf("keys regenerate: %w", err)
	}
	sleepCtx(ctx, d)
	fmt.Fprintln(stdout, key)
	return nil
}

// runKeysPlan changes an existing account: its plan, its monthly limit, or whether it is
// disabled; what is not typed stays as it is (these three flags are never read from the
// environment, where IPATLAS_PLAN may be set for keys create). The store records the
// change in its change log, which running servers read every --key-poll-interval; like
// keys regenerate, it waits three of those before it prints the account as it now is, so
// that by then every server applies the change.
func runKeysPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("keys plan", stdout)
	fs.typedOnly = []string{"plan", "monthly-limit", "disable"}
	email := fs.String("email", "", "account email (required)")
	plan := fs.String("plan", "", "new plan name (default: keep the account's)")
	limit := fs.Int64("monthly-limit", 0, "new monthly volume for every package, overriding the plan (0: the plan's; default: keep the account's)")
	disable := fs.Bool("disable", false, "disable the account: its key and log-ins are refused with 403 (--disable=false enables it again)")
	storeURL := fs.String("store", defaultStore, "account store: sqlite:PATH or a postgres:// URL")
	plansFile := fs.String("plans", "", "plans file (JSON); default: the built-in plans")
	wait := changeWaitFlags(fs, "the account", "apply the change")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *email == "" {
		return usageError{"keys plan: --email is required"}
	}
	d, err := wait()
	if err != nil {
		return err
	}
	if !fs.flagGiven("plan") && !fs.flagGiven("monthly-limit") && !fs.flagGiven("disable") {
		return usageError{"keys plan: give --plan, --monthly-limit or --disable (or several)"}
	}
	if *limit < 0 {
		return usageError{fmt.Sprintf("keys plan: %s must not be negative", fs.origin("monthly-limit"))}
	}
	plans, err := loadPlans(*plansFile)
	if err != nil {
		return err
	}
	if _, ok := plans[*plan]; fs.flagGiven("plan") && !ok {
		return usageError{fmt.Sprintf("keys plan: --plan: no plan %q is configured", *plan)}
	}
	store, err := openStore(ctx, "keys plan", *storeURL, fs.origin("store"))
	if err != nil {
		return err
	}
	defer store.Close()
	acct, err := accountByEmail(ctx, store, "keys plan", *email)
	if err != nil {
		return err
	}
	if fs.flagGiven("plan") {
		acct.Plan = *plan
	}
	if fs.flagGiven("monthly-limit") {
		acct.MonthlyLimit = *limit
	}
	if fs.flagGiven("disable") {
		acct.Disabled = *disable
	}
	if err := store.UpdatePlan(ctx, acct.ID, acct.Plan, acct.MonthlyLimit, acct.Disabled); err != nil {
		return fmt.Errorf("keys plan: %w", err)
	}
	sleepCtx(ctx, d)
	limitText := "the plan's volumes"
	if acct.MonthlyLimit > 0 {
		limitText = fmt.Sprintf("%d a month for every package", acct.MonthlyLimit)
	}
	state := "enabled"
	if acct.Disabled {
		state = "disabled"
	}
	fmt.Fprintf(stdout, "%s: plan %s, %s, %s\n", acct.Email, acct.Plan, limitText, state)
	return nil
}

// runKeysPassword sets the dashboard password of an account (one made by `keys create` has
// none and cannot log in). The password is read from the first line of stdin, never from a
// flag, so it stays out of shell history and process listings. Sessions of the account end.
func runKeysPassword(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("keys password", stdout)
	email := fs.String("email", "", "account email (required)")
	storeURL := fs.String("store", defaultStore, "account store: sqlite:PATH or a postgres:// URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *email == "" {
		return usageError{"keys password: --email is required"}
	}
	// Read past the limit, so that a longer line is refused rather than cut to fit.
	line, err := bufio.NewReader(io.LimitReader(stdin, auth.MaxPasswordLen*utf8.UTFMax+3)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("keys password: read stdin: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	if !auth.PasswordLenOK(password) {
		return usageError{fmt.Sprintf("keys password: give a password of %d to %d characters on stdin", auth.MinPasswordLen, auth.MaxPasswordLen)}
	}
	store, err := openStore(ctx, "keys password", *storeURL, fs.origin("store"))
	if err != nil {
		return err
	}
	defer store.Close()
	acct, err := accountByEmail(ctx, store, "keys password", *email)
	if err != nil {
		return err
	}
	if why := auth.WeakPassword(password, acct.Email); why != "" {
		return usageError{"keys password: " + strings.ToLower(why[:1]) + why[1:] + " Give another on stdin."}
	}
	if err := store.SetPassword(ctx, acct.ID, auth.HashPassword(password)); err != nil {
		return fmt.Errorf("keys password: %w", err)
	}
	fmt.Fprintf(stderr, "password set for %s; log in at /login\n", acct.Email)
	return nil
}

// accountByEmail finds the account of email for the command cmd, saying how to create one
// where there is none.
func accountByEmail(ctx context.Context, store account.Store, cmd, email string) (account.Account, error) {
	acct, err := store.AccountByEmail(ctx, email)
	if errors.Is(err, account.ErrNotFound) {
		return acct, fmt.Errorf("%s: no account for %s; create one with 'ipatlas keys create --email %s'", cmd, email, email)
	}
	if err != nil {
		return acct, fmt.Errorf("%s: %w", cmd, err)
	}
	return acct, nil
}

// changeWaitFlags adds --key-poll-interval and --wait to fs, for a command that changes an
// account and then waits, before it prints shown (what it prints), until every running
// server does what applies the change. The function it returns, called after parseFlags,
// gives the wait: --wait, or by default three poll intervals (keyChangeWait). --wait's own
// default is zero, so that the help prints the one default it has, written in its usage.
func changeWaitFlags(fs *cmdFlags, shown, applies string) (wait func() (time.Duration, error)) {
	poll := fs.Duration("key-poll-interval", defaultKeyPollInterval, "the servers' --key-poll-interval (IPATLAS_KEY_POLL_INTERVAL sets both); the default --wait is three of it")
	d := fs.Duration("wait", 0, fmt.Sprintf("wait this long before printing %s, so that running servers %s by then; 0: do not wait (default: three --key-poll-interval, %v)", shown, applies, keyChangeWait(defaultKeyPollInterval)))
	return func() (time.Duration, error) {
		if *d < 0 {
			return 0, usageError{fmt.Sprintf("%s: %s must not be negative", fs.Name(), fs.origin("wait"))}
		}
		// The poll interval only sets the default wait: with --wait given it is not used,
		// and a value that serve would refuse is no reason to refuse this command.
		if fs.flagGiven("wait") {
			return *d, nil
		}
		if *poll <= 0 {
			return 0, usageError{fmt.Sprintf("%s: %s must be positive", fs.Name(), fs.origin("key-poll-interval"))}
		}
		return keyChangeWait(*poll), nil
	}
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

// keyChangeWait is how long after a key change every server polling the store's change log
// every poll has seen it: a poll may be under way when the change is written, and the next
// one must finish too, so three intervals leave one to spare.
func keyChangeWait(poll time.Duration) time.Duration { return 3 * poll }

func loadPlans(path string) (quota.Plans, error) {
	if path == "" {
		return quota.DefaultPlans(), nil
	}
	return quota.LoadPlans(path)
}
