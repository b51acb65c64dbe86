package bolt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// TestNoWriteClaimsSuccessOnceTheFileIsGone deletes (then replaces) the
// database file under an open store: every kind of write must fail with
// ErrFileGone naming the file, never report a save that will vanish.
func TestNoWriteClaimsSuccessOnceTheFileIsGone(t *testing.T) {
	for _, how := range []string{"deleted", "replaced"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "data", "grotto.db")
			b := openTest(t, path)
			if err := b.PutSave("fp", []byte("before")); err != nil {
				t.Fatal(err)
			}
			if err := b.CheckFile(); err != nil {
				t.Fatalf("CheckFile on a healthy store: %v", err)
			}
			os.RemoveAll(filepath.Dir(path))
			if how == "replaced" {
				os.MkdirAll(filepath.Dir(path), 0o700)
				os.WriteFile(path, []byte("someone else's file"), 0o600)
			}
			writes := map[string]error{
				"PutSave":       b.PutSave("fp", []byte("after")),
				"AppendJournal": b.AppendJournal("fp", 0, []byte("cmd")),
				"DeleteSave":    b.DeleteSave("fp"),
				"PutProfile":    b.PutProfile(store.Profile{Fingerprint: "fp", Name: "a"}),
				"ClaimName":     b.ClaimName("fp", "b", time.Now()),
			}
			_, writes["FinishGame"] = b.FinishGame("fp", store.Score{Name: "a", Points: 1, Date: time.Now()})
			_, writes["Quarantine"] = b.Quarantine("fp", "test", time.Now())
			for name, err := range writes {
				if !errors.Is(err, store.ErrFileGone) || !strings.Contains(err.Error(), path) {
					t.Errorf("%s after the file was %s: %v, want ErrFileGone naming %s", name, how, err, path)
				}
			}
		})
	}
}

// TestAWriteWithNoRoomSaysSo: ENOSPC and EFBIG from the system are
// ErrNoRoom, so callers can tell the player the disk is full.
func TestAWriteWithNoRoomSaysSo(t *testing.T) {
	for _, e := range []error{syscall.ENOSPC, syscall.EFBIG} {
		if err := noRoom(fmt.Errorf("write grotto.db: %w", e)); !errors.Is(err, store.ErrNoRoom) || !errors.Is(err, e) {
			t.Errorf("%v: got %v, want ErrNoRoom wrapping it", e, err)
		}
	}
	if err := noRoom(errors.New("file resize error: truncate grotto.db: file too large")); !errors.Is(err, store.ErrNoRoom) {
		t.Errorf("bbolt's flattened EFBIG: got %v, want ErrNoRoom", err)
	}
	if err := noRoom(os.ErrPermission); errors.Is(err, store.ErrNoRoom) {
		t.Errorf("a permission error is not a full disk: %v", err)
	}
}
