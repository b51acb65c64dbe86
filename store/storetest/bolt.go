package storetest

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/grotto-game/grotto/store/bolt"
)

// TempBolt opens a fresh bbolt store, grotto.db in tb's temporary
// directory: the one way tests get a throw-away store. When the test ends
// it runs bbolt's consistency check ([bolt.Store.Verify]), failing tb with
// what it finds, and closes the store; a store the test closed itself is
// not checked again.
func TempBolt(tb testing.TB) *bolt.Store {
	tb.Helper()
	return OpenBolt(tb, filepath.Join(tb.TempDir(), "grotto.db"))
}

// OpenBolt opens the bbolt store at path (a lock timeout of 1 s), failing
// tb if it cannot, and checks and closes it when the test ends, as
// [TempBolt] does.
func OpenBolt(tb testing.TB, path string) *bolt.Store {
	tb.Helper()
	st, err := bolt.Open(path, time.Second)
	if err != nil {
		tb.Fatalf("open the store %s: %v", path, err)
	}
	tb.Cleanup(func() {
		if err := st.Verify(); err != nil && !errors.Is(err, berrors.ErrDatabaseNotOpen) {
			tb.Errorf("the store %s is inconsistent: %v", path, err)
		}
		st.Close()
	})
	return st
}
