// Package storetest is the conformance suite for account.Store. Each backend's tests call Run
// and RunShared, so every backend is held to the same contract rather than to its own idea
// of it.
package storetest

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ipatlas/ipatlas/internal/account"
)

// Run checks every method of the Store that open returns. open must return a fresh, empty
// store and register its cleanup on the t it is given; Run calls it once per subtest.
func Run(t *testing.T, open func(t *testing.T) account.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s account.Store)
	}{
		{"CreateAndLookup", testCreateAndLookup},
		{"NotFound", testNotFound},
		{"Conflicts", testConflicts},
		{"ConcurrentCreateSameEmail", testConcurrentCreate},
		{"RotateKey", testRotateKey},
		{"UpdatePlan", testUpdatePlan},
		{"Changes", testChanges},
		{"ConcurrentChanges", testConcurrentChanges},
		{"PollingChangesMissesNothing", testPollChanges},
		{"ReserveClips", testReserveClips},
		{"ReserveIsolation", testReserveIsolation},
		{"ReservePeriods", testReservePeriods},
		{"Release", testRelease},
		{"Usage", testUsage},
		{"DailyUsage", testDailyUsage},
		{"ReserveConcurrent", testReserveConcurrent},
		{"Passwords", testPasswords},
		{"Sessions", testSessions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// RunShared checks that two Stores opened on one database (as a CLI and a server, or two
// server replicas, would) see each other's writes and together keep Reserve within its
// limit. openPair returns two separate handles on one fresh, empty database and registers
// their cleanup on t; RunShared calls it once per subtest.
func RunShared(t *testing.T, openPair func(t *testing.T) (a, b account.Store)) {
	tests := []struct {
		name string
		fn   func(t *testing.T, a, b account.Store)
	}{
		{"SeeEachOthersWrites", testSharedVisibility},
		{"ChangesInterleave", testSharedChanges},
		{"PollingChangesMissesNothing", func(t *testing.T, a, b account.Store) { pollChanges(t, []account.Store{a, b}, a) }},
		{"ConcurrentCreateSameEmail", testSharedCreate},
		{"ConcurrentReserve", testSharedReserve},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := openPair(t)
			tt.fn(t, a, b)
		})
	}
}

// Fixed instants around a month boundary, so results never depend on when the suite runs.
var (
	lastOfJan  = time.Date(2026, 1, 31, 23, 59, 59, 0, time.UTC)
	firstOfFeb = time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	midMarch   = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
)

// missing is an id no test store ever hands out.
const missing = account.ID(1 << 40)

func newAccount(email, key string) account.NewAccount {
	return account.NewAccount{Email: email, Plan: "free", KeyHash: account.HashKey(key)}
}

func create(t *testing.T, s account.Store, email, key string) account.Account {
	t.Helper()
	a, err := s.CreateAccount(t.Context(), newAccount(email, key))
	if err != nil {
		t.Fatalf("CreateAccount(%q): %v", email, err)
	}
	return a
}

func reserve(t *testing.T, s account.Store, id account.ID, pkg string, at time.Time, n, limit int64) int64 {
	t.Helper()
	g, err := s.Reserve(t.Context(), id, pkg, at, n, limit)
	if err != nil {
		t.Fatalf("Reserve(%d, %q, %s, %d, %d): %v", id, pkg, at, n, limit, err)
	}
	return g
}

func usage(t *testing.T, s account.Store, id account.ID, p account.Period) map[string]int64 {
	t.Helper()
	u, err := s.Usage(t.Context(), id, p)
	if err != nil {
		t.Fatalf("Usage(%d, %s): %v", id, p, err)
	}
	return u
}

func daily(t *testing.T, s account.Store, id account.ID, from, to time.Time) []account.DayUsage {
	t.Helper()
	d, err := s.DailyUsage(t.Context(), id, from, to)
	if err != nil {
		t.Fatalf("DailyUsage(%d, %s, %s): %v", id, from, to, err)
	}
	for _, u := range d {
		if u.Day.Location() != time.UTC || !u.Day.Equal(u.Day.Truncate(24*time.Hour)) {
			t.Errorf("DailyUsage: Day %s is not midnight UTC", u.Day)
		}
	}
	return d
}

func lastChange(t *testing.T, s account.Store) int64 {
	t.Helper()
	seq, err := s.LastChange(t.Context())
	if err != nil {
		t.Fatalf("LastChange: %v", err)
	}
	return seq
}

func changes(t *testing.T, s account.Store, after int64) []account.Change {
	t.Helper()
	c, err := s.Changes(t.Context(), after)
	if err != nil {
		t.Fatalf("Changes(%d): %v", after, err)
	}
	return c
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// nonZero drops zero entries: a package or day released back to zero may be reported as 0
// or left out, and the suite accepts either.
func nonZero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

func nonZeroDays(d []account.DayUsage) []account.DayUsage {
	var out []account.DayUsage
	for _, u := range d {
		if u.Used != 0 {
			out = append(out, u)
		}
	}
	return out
}

var equateEmpty = cmpopts.EquateEmpty()

func testCreateAndLookup(t *testing.T, s account.Store) {
	ctx := t.Context()
	before := time.Now().Truncate(time.Microsecond)
	a, err := s.CreateAccount(ctx, account.NewAccount{
		Email: "  Alice@Example.ORG \n", Plan: "pro", MonthlyLimit: 500, KeyHash: account.HashKey("key-alice"), KeyHint: "key-alic",
	})
	if err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	after := time.Now()
	b := create(t, s, "bob@example.org", "key-bob")

	if a.ID == 0 || a.ID == b.ID {
		t.Errorf("ids: alice %d, bob %d; want distinct and non-zero", a.ID, b.ID)
	}
	want := account.Account{ID: a.ID, Email: "alice@example.org", Plan: "pro", MonthlyLimit: 500, CreatedAt: a.CreatedAt, KeyHint: "key-alic"}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("CreateAccount returned (-want +got):\n%s", diff)
	}
	if a.CreatedAt.Before(before) || a.CreatedAt.After(after) || a.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt = %s; want UTC within [%s, %s]", a.CreatedAt, before, after)
	}

	lookups := []struct {
		name string
		want account.Account
		get  func() (account.Account, error)
	}{
		{"email as stored", a, func() (account.Account, error) { return s.AccountByEmail(ctx, "alice@example.org") }},
		{"email in capitals", a, func() (account.Account, error) { return s.AccountByEmail(ctx, "ALICE@EXAMPLE.ORG") }},
		{"email with spaces", a, func() (account.Account, error) { return s.AccountByEmail(ctx, "\t alice@Example.org  ") }},
		{"key", a, func() (account.Account, error) { return s.AccountByKey(ctx, account.HashKey("key-alice")) }},
		{"id", a, func() (account.Account, error) { return s.AccountByID(ctx, a.ID) }},
		{"other email", b, func() (account.Account, error) { return s.AccountByEmail(ctx, "Bob@example.org") }},
		{"other key", b, func() (account.Account, error) { return s.AccountByKey(ctx, account.HashKey("key-bob")) }},
		{"other id", b, func() (account.Account, error) { return s.AccountByID(ctx, b.ID) }},
	}
	for _, tt := range lookups {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.get()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got.CreatedAt.Location() != time.UTC {
				t.Errorf("CreatedAt %s is not in UTC", got.CreatedAt)
			}
		})
	}
}

func testNotFound(t *testing.T, s account.Store) {
	ctx := t.Context()
	create(t, s, "alice@example.org", "key-alice")
	base := lastChange(t, s)
	tests := []struct {
		name string
		call func() error
	}{
		{"AccountByEmail", func() error { _, err := s.AccountByEmail(ctx, "nobody@example.org"); return err }},
		{"AccountByEmail empty", func() error { _, err := s.AccountByEmail(ctx, ""); return err }},
		{"AccountByKey", func() error { _, err := s.AccountByKey(ctx, account.HashKey("no-such-key")); return err }},
		{"AccountByID", func() error { _, err := s.AccountByID(ctx, missing); return err }},
		{"RotateKey", func() error { return s.RotateKey(ctx, missing, account.HashKey("k"), "") }},
		{"UpdatePlan", func() error { return s.UpdatePlan(ctx, missing, "pro", 0, false) }},
		{"Reserve", func() error { _, err := s.Reserve(ctx, missing, "geo", midMarch, 1, 10); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, account.ErrNotFound) {
				t.Errorf("err = %v; want ErrNotFound", err)
			}
		})
	}
	if seq := lastChange(t, s); seq != base {
		t.Errorf("failed updates recorded changes: LastChange = %d; want %d", seq, base)
	}
}

func testConflicts(t *testing.T, s account.Store) {
	ctx := t.Context()
	alice := create(t, s, "alice@example.org", "key-alice")
	tests := []struct {
		name  string
		in    account.NewAccount
		wants []error // any one of them
	}{
		{"same email", newAccount("alice@example.org", "key-2"), []error{account.ErrEmailTaken}},
		{"email differing in case and space", newAccount(" ALICE@example.ORG ", "key-3"), []error{account.ErrEmailTaken}},
		{"same key", newAccount("bob@example.org", "key-alice"), []error{account.ErrKeyTaken}},
		{"same email and key", newAccount("alice@example.org", "key-alice"), []error{account.ErrEmailTaken, account.ErrKeyTaken}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.CreateAccount(ctx, tt.in)
			ok := false
			for _, w := range tt.wants {
				ok = ok || errors.Is(err, w)
			}
			if !ok {
				t.Errorf("err = %v; want one of %v", err, tt.wants)
			}
			if tt.in.KeyHash == account.HashKey("key-alice") {
				return
			}
			if _, err := s.AccountByKey(ctx, tt.in.KeyHash); !errors.Is(err, account.ErrNotFound) {
				t.Errorf("the refused account's key is found (err %v)", err)
			}
		})
	}
	if _, err := s.AccountByEmail(ctx, "bob@example.org"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("the refused account's email is found (err %v)", err)
	}
	got, err := s.AccountByKey(ctx, account.HashKey("key-alice"))
	if err != nil || got.ID != alice.ID {
		t.Errorf("AccountByKey(key-alice) = %+v, %v; want alice unchanged", got, err)
	}
}

func testConcurrentCreate(t *testing.T, s account.Store) {
	const n = 16
	var ok, taken atomic.Int64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, err := s.CreateAccount(t.Context(), newAccount(" Race@example.org", fmt.Sprintf("key-%d", i)))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, account.ErrEmailTaken):
				taken.Add(1)
			default:
				t.Errorf("CreateAccount: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || taken.Load() != n-1 {
		t.Errorf("%d created, %d ErrEmailTaken; want 1 and %d", ok.Load(), taken.Load(), n-1)
	}
}

func testRotateKey(t *testing.T, s account.Store) {
	ctx := t.Context()
	a := create(t, s, "alice@example.org", "old")
	b := create(t, s, "bob@example.org", "bob")
	base := lastChange(t, s)

	if err := s.RotateKey(ctx, a.ID, account.HashKey("new"), "new-hint"); err != nil {
		t.Fatalf("RotateKey: %v", err)
	}
	a.KeyHint = "new-hint" // the hint moves with the key
	if _, err := s.AccountByKey(ctx, account.HashKey("old")); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("old key: err = %v; want ErrNotFound", err)
	}
	got, err := s.AccountByKey(ctx, account.HashKey("new"))
	if err != nil {
		t.Fatalf("new key: %v", err)
	}
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("account under the new key (-want +got):\n%s", diff)
	}
	c := changes(t, s, base)
	if len(c) != 1 || c[0].AccountID != a.ID || c[0].Seq <= base {
		t.Fatalf("Changes(%d) = %+v; want one change of account %d", base, c, a.ID)
	}
	if seq := lastChange(t, s); seq != c[0].Seq {
		t.Errorf("LastChange = %d; want %d", seq, c[0].Seq)
	}

	// Taking another account's key fails and changes nothing.
	if err := s.RotateKey(ctx, a.ID, account.HashKey("bob"), "bob-hint"); !errors.Is(err, account.ErrKeyTaken) {
		t.Errorf("RotateKey to bob's key: err = %v; want ErrKeyTaken", err)
	}
	if got, err := s.AccountByID(ctx, a.ID); err != nil || got.KeyHint != "new-hint" {
		t.Errorf("after the refused rotation, KeyHint = %q, %v; want new-hint", got.KeyHint, err)
	}
	for key, want := range map[string]account.ID{"new": a.ID, "bob": b.ID} {
		if got, err := s.AccountByKey(ctx, account.HashKey(key)); err != nil || got.ID != want {
			t.Errorf("after the refused rotation, AccountByKey(%s) = %d, %v; want %d", key, got.ID, err, want)
		}
	}
	if seq := lastChange(t, s); seq != c[0].Seq {
		t.Errorf("the refused rotation recorded a change: LastChange = %d; want %d", seq, c[0].Seq)
	}
}

func testUpdatePlan(t *testing.T, s account.Store) {
	ctx := t.Context()
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	base := lastChange(t, s)
	steps := []struct {
		plan     string
		limit    int64
		disabled bool
	}{
		{"pro", 1234, true},
		{"business", 0, false},
	}
	for i, st := range steps {
		if err := s.UpdatePlan(ctx, a.ID, st.plan, st.limit, st.disabled); err != nil {
			t.Fatalf("UpdatePlan: %v", err)
		}
		want := a
		want.Plan, want.MonthlyLimit, want.Disabled = st.plan, st.limit, st.disabled
		for _, get := range []func() (account.Account, error){
			func() (account.Account, error) { return s.AccountByID(ctx, a.ID) },
			func() (account.Account, error) { return s.AccountByKey(ctx, account.HashKey("alice")) },
			func() (account.Account, error) { return s.AccountByEmail(ctx, "alice@example.org") },
		} {
			got, err := get()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("step %d (-want +got):\n%s", i, diff)
			}
		}
		if c := changes(t, s, base); len(c) != i+1 || c[i].AccountID != a.ID {
			t.Errorf("step %d: Changes(%d) = %+v; want %d changes of account %d", i, base, c, i+1, a.ID)
		}
	}
	if got, err := s.AccountByID(ctx, b.ID); err != nil || !cmp.Equal(b, got) {
		t.Errorf("the other account changed: %+v, %v; want %+v", got, err, b)
	}
}

func testChanges(t *testing.T, s account.Store) {
	ctx := t.Context()
	if seq := lastChange(t, s); seq != 0 {
		t.Errorf("LastChange on an empty store = %d; want 0", seq)
	}
	if c := changes(t, s, 0); len(c) != 0 {
		t.Errorf("Changes(0) on an empty store = %+v; want none", c)
	}
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	base := lastChange(t, s)
	ops := []struct {
		id account.ID
		do func() error
	}{
		{a.ID, func() error { return s.RotateKey(ctx, a.ID, account.HashKey("alice-2"), "") }},
		{b.ID, func() error { return s.UpdatePlan(ctx, b.ID, "pro", 0, false) }},
		{a.ID, func() error { return s.UpdatePlan(ctx, a.ID, "pro", 10, true) }},
		{b.ID, func() error { return s.RotateKey(ctx, b.ID, account.HashKey("bob-2"), "") }},
	}
	var wantIDs []account.ID
	for _, op := range ops {
		if err := op.do(); err != nil {
			t.Fatal(err)
		}
		wantIDs = append(wantIDs, op.id)
	}
	all := changes(t, s, base)
	var gotIDs []account.ID
	for i, c := range all {
		gotIDs = append(gotIDs, c.AccountID)
		if c.Seq <= base || (i > 0 && c.Seq <= all[i-1].Seq) {
			t.Errorf("Changes(%d) = %+v; want seqs above %[1]d, strictly increasing", base, all)
		}
	}
	if diff := cmp.Diff(wantIDs, gotIDs); diff != "" {
		t.Fatalf("accounts of Changes(%d) (-want +got):\n%s", base, diff)
	}
	last := all[len(all)-1].Seq
	if seq := lastChange(t, s); seq != last {
		t.Errorf("LastChange = %d; want %d", seq, last)
	}
	tests := []struct {
		name  string
		after int64
		want  []account.Change
	}{
		{"from the start", base, all},
		{"after the first", all[0].Seq, all[1:]},
		{"after the third", all[2].Seq, all[3:]},
		{"after the last", last, nil},
		{"beyond the last", last + 1000, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, changes(t, s, tt.after), equateEmpty); diff != "" {
				t.Errorf("Changes(%d) (-want +got):\n%s", tt.after, diff)
			}
		})
	}
}

func testConcurrentChanges(t *testing.T, s account.Store) {
	const accounts, perAccount = 4, 8
	var ids []account.ID
	for i := range accounts {
		ids = append(ids, create(t, s, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i)).ID)
	}
	base := lastChange(t, s)
	var wg sync.WaitGroup
	for i := range accounts * perAccount {
		wg.Go(func() {
			id := ids[i%accounts]
			var err error
			if i%2 == 0 {
				err = s.UpdatePlan(t.Context(), id, fmt.Sprintf("plan-%d", i), int64(i), false)
			} else {
				err = s.RotateKey(t.Context(), id, account.HashKey(fmt.Sprintf("rotated-%d", i)), "")
			}
			if err != nil {
				t.Errorf("update %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	all := changes(t, s, base)
	count := map[account.ID]int{}
	for i, c := range all {
		count[c.AccountID]++
		if i > 0 && c.Seq <= all[i-1].Seq {
			t.Errorf("seqs not strictly increasing: %d after %d", c.Seq, all[i-1].Seq)
		}
	}
	want := map[account.ID]int{}
	for _, id := range ids {
		want[id] = perAccount
	}
	if diff := cmp.Diff(want, count); diff != "" {
		t.Errorf("changes per account (-want +got):\n%s", diff)
	}
	if len(all) > 0 {
		if seq := lastChange(t, s); seq != all[len(all)-1].Seq {
			t.Errorf("LastChange = %d; want %d", seq, all[len(all)-1].Seq)
		}
	}
}

func testPollChanges(t *testing.T, s account.Store) { pollChanges(t, []account.Store{s}, s) }

// pollChanges follows the change log on reader the way a cache does, remembering the last
// seq it saw, while the stores in writers write. A store whose seqs can become visible out
// of order (a later one committed before an earlier one) makes such a reader skip changes
// for good.
func pollChanges(t *testing.T, writers []account.Store, reader account.Store) {
	const perStore, perWriter = 8, 40
	var ids []account.ID
	for i := range perStore {
		ids = append(ids, create(t, reader, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i)).ID)
	}
	base := lastChange(t, reader)
	seen := map[int64]bool{}
	after := base
	poll := func() {
		for _, c := range changes(t, reader, after) {
			seen[c.Seq] = true
			after = c.Seq
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, s := range writers {
		for w := range perStore {
			wg.Go(func() {
				for i := range perWriter {
					if err := s.UpdatePlan(t.Context(), ids[w], "pro", int64(i), false); err != nil {
						t.Errorf("UpdatePlan: %v", err)
						return
					}
				}
			})
		}
	}
	go func() { wg.Wait(); close(done) }()
	for polling := true; polling; {
		select {
		case <-done:
			polling = false
		default:
		}
		poll()
	}
	poll()
	all := changes(t, reader, base)
	var missed []int64
	for _, c := range all {
		if !seen[c.Seq] {
			missed = append(missed, c.Seq)
		}
	}
	if want := len(writers) * perStore * perWriter; len(all) != want || len(missed) > 0 {
		t.Errorf("%d changes recorded (want %d); the poller missed %d of them: %v", len(all), want, len(missed), missed)
	}
}

type reserveStep struct {
	n, limit, want int64
}

func testReserveClips(t *testing.T, s account.Store) {
	tests := []struct {
		name  string
		steps []reserveStep
		usage int64
	}{
		{"clips at the limit", []reserveStep{{4, 10, 4}, {4, 10, 4}, {4, 10, 2}, {4, 10, 0}, {1, 10, 0}}, 10},
		{"exact fit", []reserveStep{{5, 10, 5}, {5, 10, 5}, {1, 10, 0}}, 10},
		{"first request above the limit", []reserveStep{{5, 3, 3}, {1, 3, 0}}, 3},
		{"zero limit", []reserveStep{{1, 0, 0}}, 0},
		{"negative limit", []reserveStep{{1, -5, 0}}, 0},
		{"zero n", []reserveStep{{0, 10, 0}, {2, 10, 2}}, 2},
		{"negative n", []reserveStep{{3, 10, 3}, {-2, 10, 0}}, 3},
		{"limit lowered below usage", []reserveStep{{8, 10, 8}, {1, 5, 0}}, 8},
		{"limit raised", []reserveStep{{8, 8, 8}, {5, 10, 2}}, 10},
		{"unlimited", []reserveStep{{1 << 40, math.MaxInt64, 1 << 40}, {math.MaxInt64 - 1<<40, math.MaxInt64, math.MaxInt64 - 1<<40}, {1, math.MaxInt64, 0}}, math.MaxInt64},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := create(t, s, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i))
			for j, st := range tt.steps {
				if g := reserve(t, s, a.ID, "geo", midMarch, st.n, st.limit); g != st.want {
					t.Errorf("step %d: Reserve(n=%d, limit=%d) = %d; want %d", j, st.n, st.limit, g, st.want)
				}
			}
			want := map[string]int64{}
			if tt.usage != 0 {
				want["geo"] = tt.usage
			}
			// A reservation that granted nothing leaves no trace: the package stays absent.
			if diff := cmp.Diff(want, usage(t, s, a.ID, account.PeriodOf(midMarch)), equateEmpty); diff != "" {
				t.Errorf("Usage (-want +got):\n%s", diff)
			}
			var wantDays []account.DayUsage
			if tt.usage != 0 {
				wantDays = []account.DayUsage{{Day: day(2026, 3, 15), Package: "geo", Used: tt.usage}}
			}
			if diff := cmp.Diff(wantDays, daily(t, s, a.ID, day(2026, 3, 1), day(2026, 4, 1)), equateEmpty); diff != "" {
				t.Errorf("DailyUsage (-want +got):\n%s", diff)
			}
		})
	}
}

func testReserveIsolation(t *testing.T, s account.Store) {
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	for _, r := range []struct {
		id  account.ID
		pkg string
	}{{a.ID, "geo"}, {a.ID, "asn"}, {b.ID, "geo"}} {
		if g := reserve(t, s, r.id, r.pkg, midMarch, 5, 5); g != 5 {
			t.Errorf("Reserve(%d, %s) = %d; want 5: limits are per account and package", r.id, r.pkg, g)
		}
	}
	p := account.PeriodOf(midMarch)
	if diff := cmp.Diff(map[string]int64{"geo": 5, "asn": 5}, usage(t, s, a.ID, p)); diff != "" {
		t.Errorf("Usage(alice) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int64{"geo": 5}, usage(t, s, b.ID, p)); diff != "" {
		t.Errorf("Usage(bob) (-want +got):\n%s", diff)
	}
}

func testReservePeriods(t *testing.T, s account.Store) {
	a := create(t, s, "alice@example.org", "alice")
	// 01:30 on 1 February at UTC+2 is still January in UTC, which is what counts.
	lateJanAbroad := time.Date(2026, 2, 1, 1, 30, 0, 0, time.FixedZone("UTC+2", 2*3600))
	steps := []struct {
		at         time.Time
		n, granted int64
	}{
		{lastOfJan, 7, 7},
		{firstOfFeb, 7, 7},    // a new month starts from zero
		{lateJanAbroad, 7, 3}, // January has 7 of 10 used
		{firstOfFeb, 7, 3},    // February has 7 of 10 used
		{lastOfJan, 1, 0},     // January is full
		{midMarch, 10, 10},    // so is February, but not March
		{lateJanAbroad, 1, 0}, // January is still full
		{firstOfFeb.Add(-time.Nanosecond), 1, 0},
	}
	for i, st := range steps {
		if g := reserve(t, s, a.ID, "geo", st.at, st.n, 10); g != st.granted {
			t.Errorf("step %d: Reserve(at=%s, n=%d) = %d; want %d", i, st.at, st.n, g, st.granted)
		}
	}
	for p, want := range map[account.Period]map[string]int64{
		"2026-01": {"geo": 10},
		"2026-02": {"geo": 10},
		"2026-03": {"geo": 10},
		"2026-04": {},
		"2025-12": {},
	} {
		if diff := cmp.Diff(want, usage(t, s, a.ID, p), equateEmpty); diff != "" {
			t.Errorf("Usage(%s) (-want +got):\n%s", p, diff)
		}
	}
	want := []account.DayUsage{
		{Day: day(2026, 1, 31), Package: "geo", Used: 10},
		{Day: day(2026, 2, 1), Package: "geo", Used: 10},
		{Day: day(2026, 3, 15), Package: "geo", Used: 10},
	}
	if diff := cmp.Diff(want, daily(t, s, a.ID, day(2026, 1, 1), day(2026, 4, 1))); diff != "" {
		t.Errorf("DailyUsage (-want +got):\n%s", diff)
	}
}

func testRelease(t *testing.T, s account.Store) {
	day1 := time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)
	day2 := time.Date(2026, 3, 11, 20, 0, 0, 0, time.UTC)
	type op struct {
		release bool
		at      time.Time
		n       int64
		want    int64 // granted, for a reservation
	}
	res := func(at time.Time, n, want int64) op { return op{at: at, n: n, want: want} }
	rel := func(at time.Time, n int64) op { return op{release: true, at: at, n: n} }
	const limit = 10
	tests := []struct {
		name   string
		ops    []op
		months map[account.Period]map[string]int64
		days   []account.DayUsage
	}{
		{
			name:   "partial",
			ops:    []op{res(day1, 5, 5), rel(day1, 2)},
			months: map[account.Period]map[string]int64{"2026-03": {"geo": 3}},
			days:   []account.DayUsage{{Day: day(2026, 3, 10), Package: "geo", Used: 3}},
		},
		{
			name:   "floors at zero",
			ops:    []op{res(day1, 3, 3), rel(day1, 10)},
			months: map[account.Period]map[string]int64{"2026-03": {}},
		},
		{
			name:   "frees volume for Reserve",
			ops:    []op{res(day1, 10, 10), res(day1, 1, 0), rel(day1, 4), res(day1, 10, 4), res(day1, 1, 0)},
			months: map[account.Period]map[string]int64{"2026-03": {"geo": 10}},
			days:   []account.DayUsage{{Day: day(2026, 3, 10), Package: "geo", Used: 10}},
		},
		{
			name:   "floored release does not bank volume",
			ops:    []op{res(day1, 2, 2), rel(day1, 5), res(day1, 20, 10)},
			months: map[account.Period]map[string]int64{"2026-03": {"geo": 10}},
			days:   []account.DayUsage{{Day: day(2026, 3, 10), Package: "geo", Used: 10}},
		},
		{
			name:   "takes from the day of at",
			ops:    []op{res(day1, 3, 3), res(day2, 4, 4), rel(day2, 2)},
			months: map[account.Period]map[string]int64{"2026-03": {"geo": 5}},
			days: []account.DayUsage{
				{Day: day(2026, 3, 10), Package: "geo", Used: 3},
				{Day: day(2026, 3, 11), Package: "geo", Used: 2},
			},
		},
		{
			name:   "takes from the month of at",
			ops:    []op{res(lastOfJan, 4, 4), res(firstOfFeb, 4, 4), rel(firstOfFeb, 3)},
			months: map[account.Period]map[string]int64{"2026-01": {"geo": 4}, "2026-02": {"geo": 1}},
			days: []account.DayUsage{
				{Day: day(2026, 1, 31), Package: "geo", Used: 4},
				{Day: day(2026, 2, 1), Package: "geo", Used: 1},
			},
		},
		{
			name:   "nothing reserved",
			ops:    []op{rel(day1, 5), rel(lastOfJan, 1)},
			months: map[account.Period]map[string]int64{"2026-01": {}, "2026-03": {}},
		},
		{
			name:   "zero",
			ops:    []op{res(day1, 3, 3), rel(day1, 0)},
			months: map[account.Period]map[string]int64{"2026-03": {"geo": 3}},
			days:   []account.DayUsage{{Day: day(2026, 3, 10), Package: "geo", Used: 3}},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := create(t, s, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i))
			for j, o := range tt.ops {
				if o.release {
					if err := s.Release(t.Context(), a.ID, "geo", o.at, o.n); err != nil {
						t.Fatalf("op %d: Release: %v", j, err)
					}
				} else if g := reserve(t, s, a.ID, "geo", o.at, o.n, limit); g != o.want {
					t.Errorf("op %d: Reserve(%d) = %d; want %d", j, o.n, g, o.want)
				}
			}
			for p, want := range tt.months {
				if diff := cmp.Diff(want, nonZero(usage(t, s, a.ID, p)), equateEmpty); diff != "" {
					t.Errorf("Usage(%s) (-want +got):\n%s", p, diff)
				}
			}
			got := nonZeroDays(daily(t, s, a.ID, day(2026, 1, 1), day(2027, 1, 1)))
			if diff := cmp.Diff(tt.days, got, equateEmpty); diff != "" {
				t.Errorf("DailyUsage (-want +got):\n%s", diff)
			}
		})
	}
}

func testUsage(t *testing.T, s account.Store) {
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	reserve(t, s, a.ID, "geo", midMarch, 3, 100)
	reserve(t, s, a.ID, "asn", midMarch.Add(48*time.Hour), 4, 100)
	reserve(t, s, a.ID, "geo", midMarch.Add(-72*time.Hour), 5, 100)
	reserve(t, s, a.ID, "privacy", firstOfFeb, 6, 100)
	reserve(t, s, b.ID, "geo", midMarch, 50, 100)
	tests := []struct {
		name string
		id   account.ID
		p    account.Period
		want map[string]int64
	}{
		{"sums the days of the month per package", a.ID, "2026-03", map[string]int64{"geo": 8, "asn": 4}},
		{"another month", a.ID, "2026-02", map[string]int64{"privacy": 6}},
		{"a month without usage", a.ID, "2026-04", nil},
		{"another account", b.ID, "2026-03", map[string]int64{"geo": 50}},
		{"an unknown account", missing, "2026-03", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, usage(t, s, tt.id, tt.p), equateEmpty); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func testDailyUsage(t *testing.T, s account.Store) {
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	// Out of order, so that the result's order comes from the store.
	for _, r := range []struct {
		id  account.ID
		pkg string
		at  time.Time
		n   int64
	}{
		{a.ID, "geo", time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC), 5},
		{a.ID, "geo", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), 6},
		{a.ID, "geo", time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), 1},
		{a.ID, "asn", time.Date(2026, 3, 3, 1, 0, 0, 0, time.UTC), 4},
		{a.ID, "geo", time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), 3},
		{a.ID, "asn", time.Date(2026, 3, 1, 23, 59, 59, 0, time.UTC), 2},
		{a.ID, "geo", time.Date(2026, 3, 3, 23, 0, 0, 0, time.UTC), 10}, // same day, adds up
		{b.ID, "geo", time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), 100},
	} {
		reserve(t, s, r.id, r.pkg, r.at, r.n, 1000)
	}
	var (
		mar1asn = account.DayUsage{Day: day(2026, 3, 1), Package: "asn", Used: 2}
		mar1geo = account.DayUsage{Day: day(2026, 3, 1), Package: "geo", Used: 1}
		mar2geo = account.DayUsage{Day: day(2026, 3, 2), Package: "geo", Used: 3}
		mar3asn = account.DayUsage{Day: day(2026, 3, 3), Package: "asn", Used: 4}
		mar3geo = account.DayUsage{Day: day(2026, 3, 3), Package: "geo", Used: 15}
		apr1geo = account.DayUsage{Day: day(2026, 4, 1), Package: "geo", Used: 6}
		plus2   = time.FixedZone("UTC+2", 2*3600)
	)
	tests := []struct {
		name     string
		id       account.ID
		from, to time.Time
		want     []account.DayUsage
	}{
		{"ordered by day then package", a.ID, day(2026, 3, 1), day(2026, 3, 4), []account.DayUsage{mar1asn, mar1geo, mar2geo, mar3asn, mar3geo}},
		{"across months", a.ID, day(2026, 2, 1), day(2026, 5, 1), []account.DayUsage{mar1asn, mar1geo, mar2geo, mar3asn, mar3geo, apr1geo}},
		{"one day", a.ID, day(2026, 3, 2), day(2026, 3, 3), []account.DayUsage{mar2geo}},
		{"to is exclusive", a.ID, day(2026, 2, 1), day(2026, 3, 1), nil},
		{"empty range", a.ID, day(2026, 3, 2), day(2026, 3, 2), nil},
		{"reversed range", a.ID, day(2026, 3, 4), day(2026, 3, 1), nil},
		// A day is in the range when its midnight (UTC) is.
		{"from after midnight", a.ID, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), day(2026, 3, 3), []account.DayUsage{mar2geo}},
		{"to after midnight", a.ID, day(2026, 3, 3), time.Date(2026, 3, 4, 0, 0, 1, 0, time.UTC), []account.DayUsage{mar3asn, mar3geo}},
		{"bounds in another zone", a.ID, time.Date(2026, 3, 2, 2, 0, 0, 0, plus2), time.Date(2026, 3, 3, 2, 0, 0, 0, plus2), []account.DayUsage{mar2geo}},
		{"another account", b.ID, day(2026, 3, 1), day(2026, 4, 1), []account.DayUsage{{Day: day(2026, 3, 2), Package: "geo", Used: 100}}},
		{"an unknown account", missing, day(2026, 3, 1), day(2026, 4, 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, daily(t, s, tt.id, tt.from, tt.to), equateEmpty); diff != "" {
				t.Errorf("DailyUsage(%s, %s) (-want +got):\n%s", tt.from, tt.to, diff)
			}
		})
	}
}

// reserveAll runs workers goroutines per store, each calling Reserve on its store until it
// is granted nothing, and returns the total granted. n gives worker i's request size.
func reserveAll(t *testing.T, stores []account.Store, workers int, id account.ID, at time.Time, limit int64, n func(i int) int64) int64 {
	t.Helper()
	ctx := t.Context()
	var total atomic.Int64
	var wg sync.WaitGroup
	for si, s := range stores {
		for w := range workers {
			i := si*workers + w
			wg.Go(func() {
				for {
					g, err := s.Reserve(ctx, id, "geo", at, n(i), limit)
					if err != nil {
						t.Errorf("worker %d: Reserve: %v", i, err)
						return
					}
					if g < 0 || g > n(i) {
						t.Errorf("worker %d: Reserve(n=%d) granted %d", i, n(i), g)
						return
					}
					if g == 0 {
						return
					}
					total.Add(g)
				}
			})
		}
	}
	wg.Wait()
	return total.Load()
}

func checkTotals(t *testing.T, stores []account.Store, id account.ID, at time.Time, granted, limit int64) {
	t.Helper()
	if granted != limit {
		t.Errorf("granted %d in total; want exactly the limit %d", granted, limit)
	}
	for i, s := range stores {
		if got := usage(t, s, id, account.PeriodOf(at))["geo"]; got != limit {
			t.Errorf("store %d: Usage = %d; want %d", i, got, limit)
		}
		var sum int64
		for _, d := range daily(t, s, id, day(2026, 1, 1), day(2027, 1, 1)) {
			sum += d.Used
		}
		if sum != limit {
			t.Errorf("store %d: DailyUsage adds up to %d; want %d", i, sum, limit)
		}
	}
}

func testReserveConcurrent(t *testing.T, s account.Store) {
	const workers, limit = 64, 1000
	tests := []struct {
		name string
		n    func(i int) int64
	}{
		{"one at a time", func(int) int64 { return 1 }},
		{"mixed sizes", func(i int) int64 { return int64(i%7) + 1 }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := create(t, s, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i))
			stores := []account.Store{s}
			granted := reserveAll(t, stores, workers, a.ID, midMarch, limit, tt.n)
			checkTotals(t, stores, a.ID, midMarch, granted, limit)
		})
	}
}

func testSharedVisibility(t *testing.T, a, b account.Store) {
	ctx := t.Context()
	alice := create(t, a, "alice@example.org", "alice")
	got, err := b.AccountByEmail(ctx, "alice@example.org")
	if err != nil || !cmp.Equal(alice, got) {
		t.Fatalf("b.AccountByEmail = %+v, %v; want %+v", got, err, alice)
	}
	if _, err := b.CreateAccount(ctx, newAccount("ALICE@example.org", "other")); !errors.Is(err, account.ErrEmailTaken) {
		t.Errorf("b.CreateAccount with a's email: err = %v; want ErrEmailTaken", err)
	}
	if err := b.RotateKey(ctx, alice.ID, account.HashKey("alice-2"), ""); err != nil {
		t.Fatalf("b.RotateKey: %v", err)
	}
	if _, err := a.AccountByKey(ctx, account.HashKey("alice")); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("a.AccountByKey(old key) err = %v; want ErrNotFound", err)
	}
	if got, err := a.AccountByKey(ctx, account.HashKey("alice-2")); err != nil || got.ID != alice.ID {
		t.Errorf("a.AccountByKey(new key) = %+v, %v; want alice", got, err)
	}
	if err := a.UpdatePlan(ctx, alice.ID, "pro", 7, false); err != nil {
		t.Fatal(err)
	}
	if got, err := b.AccountByID(ctx, alice.ID); err != nil || got.Plan != "pro" || got.MonthlyLimit != 7 {
		t.Errorf("b.AccountByID = %+v, %v; want plan pro, limit 7", got, err)
	}
	if g := reserve(t, a, alice.ID, "geo", midMarch, 6, 10); g != 6 {
		t.Errorf("a.Reserve = %d; want 6", g)
	}
	if g := reserve(t, b, alice.ID, "geo", midMarch, 6, 10); g != 4 {
		t.Errorf("b.Reserve = %d; want 4: a's reservation counts", g)
	}
	if err := b.Release(ctx, alice.ID, "geo", midMarch, 3); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int64{"geo": 7}, usage(t, a, alice.ID, account.PeriodOf(midMarch))); diff != "" {
		t.Errorf("a.Usage (-want +got):\n%s", diff)
	}
}

func testSharedChanges(t *testing.T, a, b account.Store) {
	ctx := t.Context()
	alice := create(t, a, "alice@example.org", "alice")
	bob := create(t, b, "bob@example.org", "bob")
	base := lastChange(t, a)
	steps := []struct {
		s  account.Store
		id account.ID
	}{{a, alice.ID}, {b, bob.ID}, {b, alice.ID}, {a, bob.ID}}
	var want []account.ID
	for i, st := range steps {
		if err := st.s.UpdatePlan(ctx, st.id, fmt.Sprintf("plan-%d", i), 0, false); err != nil {
			t.Fatal(err)
		}
		want = append(want, st.id)
	}
	for i, s := range []account.Store{a, b} {
		all := changes(t, s, base)
		var got []account.ID
		for j, c := range all {
			got = append(got, c.AccountID)
			if j > 0 && c.Seq <= all[j-1].Seq {
				t.Errorf("store %d: seqs not strictly increasing: %+v", i, all)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("store %d: accounts of Changes (-want +got):\n%s", i, diff)
		}
		if len(all) > 0 && lastChange(t, s) != all[len(all)-1].Seq {
			t.Errorf("store %d: LastChange = %d; want %d", i, lastChange(t, s), all[len(all)-1].Seq)
		}
	}
}

func testSharedCreate(t *testing.T, a, b account.Store) {
	const perStore = 8
	var ok, taken atomic.Int64
	var wg sync.WaitGroup
	for i := range 2 * perStore {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, err := s.CreateAccount(t.Context(), newAccount("race@example.org", fmt.Sprintf("key-%d", i)))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, account.ErrEmailTaken):
				taken.Add(1)
			default:
				t.Errorf("CreateAccount: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || taken.Load() != 2*perStore-1 {
		t.Errorf("%d created, %d ErrEmailTaken; want 1 and %d", ok.Load(), taken.Load(), 2*perStore-1)
	}
}

func testSharedReserve(t *testing.T, a, b account.Store) {
	const workers, limit = 32, 500
	tests := []struct {
		name string
		n    func(i int) int64
	}{
		{"one at a time", func(int) int64 { return 1 }},
		{"mixed sizes", func(i int) int64 { return int64(i%7) + 1 }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acct := create(t, a, fmt.Sprintf("user%d@example.org", i), fmt.Sprintf("key-%d", i))
			stores := []account.Store{a, b}
			granted := reserveAll(t, stores, workers, acct.ID, midMarch, limit, tt.n)
			checkTotals(t, stores, acct.ID, midMarch, granted, limit)
		})
	}
}

func testPasswords(t *testing.T, s account.Store) {
	ctx := t.Context()
	cli := create(t, s, "cli@example.org", "k-cli") // made without a password, as `keys create` does
	if h, err := s.PasswordHash(ctx, cli.ID); err != nil || h != "" {
		t.Fatalf("PasswordHash(no password) = %q, %v; want \"\", nil", h, err)
	}
	na := newAccount("web@example.org", "k-web")
	na.PasswordHash = "$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA"
	web, err := s.CreateAccount(ctx, na)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := s.PasswordHash(ctx, web.ID); err != nil || h != na.PasswordHash {
		t.Fatalf("PasswordHash = %q, %v; want %q", h, err, na.PasswordHash)
	}
	sess := account.Session{Hash: account.HashSession("tok-web"), AccountID: web.ID, ExpiresAt: midMarch.Add(time.Hour)}
	if err := s.CreateSession(ctx, sess, midMarch); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPassword(ctx, cli.ID, "new-hash"); err != nil {
		t.Fatal(err)
	}
	if h, err := s.PasswordHash(ctx, cli.ID); err != nil || h != "new-hash" {
		t.Fatalf("PasswordHash after SetPassword = %q, %v", h, err)
	}
	if _, err := s.SessionAccount(ctx, sess.Hash, midMarch); err != nil {
		t.Fatalf("another account's SetPassword ended this session: %v", err)
	}
	if err := s.SetPassword(ctx, web.ID, "other"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionAccount(ctx, sess.Hash, midMarch); !errors.Is(err, account.ErrNotFound) {
		t.Fatalf("session after SetPassword: err %v, want ErrNotFound", err)
	}
	if _, err := s.PasswordHash(ctx, missing); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("PasswordHash(missing): %v, want ErrNotFound", err)
	}
	if err := s.SetPassword(ctx, missing, "x"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("SetPassword(missing): %v, want ErrNotFound", err)
	}
	// The hash is not part of Account and does not change the key lookup.
	if got, err := s.AccountByKey(ctx, account.HashKey("k-web")); err != nil || got.ID != web.ID {
		t.Errorf("AccountByKey after SetPassword = %+v, %v", got, err)
	}
}

func testSessions(t *testing.T, s account.Store) {
	ctx := t.Context()
	a := create(t, s, "alice@example.org", "alice")
	b := create(t, s, "bob@example.org", "bob")
	exp := midMarch.Add(time.Hour)
	sa := account.Session{Hash: account.HashSession("tok-a"), AccountID: a.ID, ExpiresAt: exp}
	sb := account.Session{Hash: account.HashSession("tok-b"), AccountID: b.ID, ExpiresAt: exp}
	for _, ss := range []account.Session{sa, sb} {
		if err := s.CreateSession(ctx, ss, midMarch); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		h    account.SessionHash
		now  time.Time
		want account.ID
		err  error
	}{
		{"alice", sa.Hash, midMarch, a.ID, nil},
		{"bob", sb.Hash, midMarch, b.ID, nil},
		{"just before expiry", sa.Hash, exp.Add(-time.Microsecond), a.ID, nil},
		{"at expiry", sa.Hash, exp, 0, account.ErrNotFound},
		{"unknown token", account.HashSession("nope"), midMarch, 0, account.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.SessionAccount(ctx, tt.h, tt.now)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("SessionAccount = %d, %v; want %d, %v", got, err, tt.want, tt.err)
			}
		})
	}
	if err := s.DeleteSession(ctx, sa.Hash); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, sa.Hash); err != nil {
		t.Errorf("deleting a deleted session: %v", err)
	}
	if _, err := s.SessionAccount(ctx, sa.Hash, midMarch); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("deleted session: %v, want ErrNotFound", err)
	}
	if id, err := s.SessionAccount(ctx, sb.Hash, midMarch); err != nil || id != b.ID {
		t.Errorf("deleting alice's session touched bob's: %d, %v", id, err)
	}
	// Creating a session after bob's expired sweeps it; bob's lookup is refused either way.
	later := account.Session{Hash: account.HashSession("tok-a2"), AccountID: a.ID, ExpiresAt: exp.Add(2 * time.Hour)}
	if err := s.CreateSession(ctx, later, exp.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionAccount(ctx, sb.Hash, midMarch); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("expired session not swept: %v", err)
	}
	if err := s.CreateSession(ctx, account.Session{Hash: account.HashSession("x"), AccountID: missing, ExpiresAt: exp}, midMarch); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("CreateSession(missing account): %v, want ErrNotFound", err)
	}
}
