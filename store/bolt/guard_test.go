package bolt

import (
	"errors"
	"path/filepath"
	"testing"

	bbolt "go.etcd.io/bbolt"
)

// TestABugInATransactionIsNotDamage: a panic in grotto's own code inside a
// transaction is an error, and the store goes on writing; only a fault or a
// panic inside bbolt marks the file damaged and refuses writes.
func TestABugInATransactionIsNotDamage(t *testing.T) {
	b := openTest(t, filepath.Join(t.TempDir(), "grotto.db"))
	err := b.db.Update(func(tx *bbolt.Tx) error {
		var m map[string]int
		m["bug"] = 1 // a nil map write: grotto's bug, not the file's
		return nil
	})
	if !errors.Is(err, ErrPanic) || errors.Is(err, ErrDamaged) {
		t.Fatalf("a bug's panic gave %v, want ErrPanic and not ErrDamaged", err)
	}
	if err := b.PutSave("SHA256:a", []byte("still writable")); err != nil {
		t.Errorf("after a bug's panic the store refuses writes: %v", err)
	}
}
