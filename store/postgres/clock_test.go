package postgres

// Test helpers that wait on the database's clock, the one every lease and
// announcement is timed by (see leases.go): a test that gives a lease or
// an announcement a short TTL waits until it has lapsed there, never for a
// fixed time. In package postgres, so both this package's tests and
// postgres_test use them.

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/store"
)

// lapseWithin bounds every wait of this file: a TTL of milliseconds lapses
// long before, even on a loaded machine.
const lapseWithin = 10 * time.Second

// DBNow returns the database's clock, now(), as s reads it.
func DBNow(t testing.TB, s *Store) time.Time {
	t.Helper()
	var now time.Time
	if err := s.pool.QueryRow(context.Background(), `SELECT now()`).Scan(&now); err != nil {
		t.Fatalf("the database's clock: %v", err)
	}
	return now
}

// WaitForDBClock returns once the database's clock reads at least at: a
// lease or announcement that expires at or before at has lapsed for every
// statement after. It fails t after lapseWithin.
func WaitForDBClock(t testing.TB, s *Store, at time.Time) {
	t.Helper()
	var now time.Time
	if !await.Within(lapseWithin, func() bool { now = DBNow(t, s); return !now.Before(at) }) {
		t.Fatalf("the database's clock reads %s after %v, still before %s", now, lapseWithin, at)
	}
}

// ClaimWhenLapsed claims fp for node with ttl as soon as the lease another
// node holds on it (given a short TTL by the test) has lapsed on the
// database's clock: it claims again while the claim says the lease is held
// (store.ErrLeaseHeld), and fails t on any other error, or if the lease is
// still held after lapseWithin. It returns the claim's epoch.
func ClaimWhenLapsed(t testing.TB, s *Store, fp, node string, ttl time.Duration) uint64 {
	t.Helper()
	var (
		epoch uint64
		err   error
	)
	if !await.Within(lapseWithin, func() bool {
		epoch, err = s.Claim(context.Background(), fp, node, ttl)
		if err != nil && !errors.Is(err, store.ErrLeaseHeld) {
			t.Fatal(err)
		}
		return err == nil
	}) {
		t.Fatalf("the lease did not lapse within %v: %v", lapseWithin, err)
	}
	return epoch
}
