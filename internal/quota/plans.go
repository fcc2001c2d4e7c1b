// Package quota enforces monthly query volumes per account and package. Volumes come from
// plans (configuration, not stored data); usage is reserved in the account store in leases,
// so that the hot path is an in-memory decrement while the stored count never falls below
// the number of requests answered, even if the process is killed.
package quota

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/ipatlas/ipatlas/internal/account"
)

// The billing packages of the spec. Every REST endpoint with a key belongs to exactly one.
const (
	IPGeolocation      = "ip-geolocation"
	ReverseGeocoding   = "reverse-geocoding"
	PhoneEmail         = "phone-email"
	NetworkEngineering = "network-engineering"
)

// Packages lists the metered packages (the free-api package needs no key and is not metered).
func Packages() []string {
	return []string{IPGeolocation, ReverseGeocoding, PhoneEmail, NetworkEngineering}
}

// Unlimited as a volume means no monthly limit; usage is still counted.
const Unlimited = -1

// Plan gives each package a monthly volume. A package that is absent or has volume 0 is not
// available on the plan (403); Unlimited (-1) has no limit.
type Plan struct {
	Name    string           `json:"name"`
	Volumes map[string]int64 `json:"volumes"`
}

// Plans are the configured plans by name.
type Plans map[string]Plan

// DefaultPlan is given to accounts created without a plan.
const DefaultPlan = "free"

// DefaultPlans returns the built-in plans. "free" follows the commercial service's free tier
// (10 000 queries a month per package, 50 000 for reverse geocoding); "unlimited" is for
// internal users of a self-hosted install.
func DefaultPlans() Plans {
	return Plans{
		"free": {Name: "free", Volumes: map[string]int64{
			IPGeolocation: 10_000, ReverseGeocoding: 50_000, PhoneEmail: 10_000, NetworkEngineering: 10_000,
		}},
		"unlimited": {Name: "unlimited", Volumes: map[string]int64{
			IPGeolocation: Unlimited, ReverseGeocoding: Unlimited, PhoneEmail: Unlimited, NetworkEngineering: Unlimited,
		}},
	}
}

// plansFile is the JSON layout of a plans file: {"plans": [{"name": ..., "volumes": {...}}]}.
type plansFile struct {
	Plans []Plan `json:"plans"`
}

// LoadPlans reads a plans file. Its plans replace the defaults entirely.
func LoadPlans(path string) (Plans, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("quota: read plans: %w", err)
	}
	return ParsePlans(b)
}

// ParsePlans parses the JSON plans layout and validates it.
func ParsePlans(b []byte) (Plans, error) {
	var f plansFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("quota: parse plans: %w", err)
	}
	out := Plans{}
	for _, p := range f.Plans {
		if p.Name == "" {
			return nil, errors.New("quota: parse plans: a plan has no name")
		}
		if _, dup := out[p.Name]; dup {
			return nil, fmt.Errorf("quota: parse plans: plan %q defined twice", p.Name)
		}
		for pkg, v := range p.Volumes {
			if !slices.Contains(Packages(), pkg) {
				return nil, fmt.Errorf("quota: parse plans: plan %q: unknown package %q (known: %v)", p.Name, pkg, Packages())
			}
			if v < Unlimited {
				return nil, fmt.Errorf("quota: parse plans: plan %q: volume %d for %s (use -1 for unlimited)", p.Name, v, pkg)
			}
		}
		out[p.Name] = p
	}
	if len(out) == 0 {
		return nil, errors.New("quota: parse plans: no plans defined")
	}
	return out, nil
}

// Limit returns the monthly volume of pkg for a, math.MaxInt64 for unlimited. It returns a
// *ForbiddenError when the account may not use pkg at all.
func (p Plans) Limit(a account.Account, pkg string) (int64, error) {
	if a.Disabled {
		return 0, &ForbiddenError{Package: pkg, Reason: "the account is disabled"}
	}
	plan, ok := p[a.Plan]
	if !ok {
		return 0, &ForbiddenError{Package: pkg, Reason: fmt.Sprintf("the account's plan %q is not offered by this server", a.Plan)}
	}
	v := plan.Volumes[pkg]
	switch {
	case v == 0:
		return 0, &ForbiddenError{Package: pkg, Reason: fmt.Sprintf("plan %q does not include the %s package", plan.Name, pkg)}
	case a.MonthlyLimit > 0:
		return a.MonthlyLimit, nil
	case v == Unlimited:
		return math.MaxInt64, nil
	}
	return v, nil
}

// ErrExceeded and ErrForbidden are matched with errors.Is by the API's status table.
var (
	ErrExceeded  = errors.New("quota: monthly volume exceeded")
	ErrForbidden = errors.New("quota: package not permitted")
)

// ExceededError says which volume is used up (402).
type ExceededError struct {
	Package string
	Limit   int64
}

func (e *ExceededError) Error() string {
	return fmt.Sprintf("quota: monthly volume of %d queries for package %s is used up", e.Limit, e.Package)
}

func (e *ExceededError) Is(target error) bool { return target == ErrExceeded }

// ForbiddenError says why a key may not use a package (403).
type ForbiddenError struct {
	Package, Reason string
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("quota: package %s not permitted: %s", e.Package, e.Reason)
}

func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }
