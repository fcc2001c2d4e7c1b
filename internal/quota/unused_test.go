package quota

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/account"
)

// Stored usage minus Unused is what was served: the dashboard relies on it.
func TestUnused(t *testing.T) {
	store := newFakeStore()
	m := NewMeter(Options{Store: store, Plans: DefaultPlans()})
	a := account.Account{ID: 1, Plan: "free"}
	b := account.Account{ID: 2, Plan: "free"}
	for range 3 {
		if err := m.Charge(t.Context(), a, IPGeolocation); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Charge(t.Context(), b, PhoneEmail); err != nil {
		t.Fatal(err)
	}
	p := account.PeriodOf(m.opt.Now())
	if served := store.get(a.ID, IPGeolocation, p) - m.Unused(a.ID)[IPGeolocation]; served != 3 {
		t.Errorf("stored - unused = %d for a, want 3", served)
	}
	if u := m.Unused(a.ID); len(u) != 1 {
		t.Errorf("Unused(a) = %v, want only %s", u, IPGeolocation)
	}
	if served := store.get(b.ID, PhoneEmail, p) - m.Unused(b.ID)[PhoneEmail]; served != 1 {
		t.Errorf("stored - unused = %d for b, want 1", served)
	}
	m.Close(t.Context())
	if u := m.Unused(a.ID); len(u) != 0 {
		t.Errorf("Unused after Close = %v, want none", u)
	}
}
