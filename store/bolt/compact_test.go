package bolt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

func TestCompactShrinksAnAgedFileKeepingEveryRecordAndTheOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	b, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	age(t, b, 1000)
	populate(t, b, 20)
	if err := b.AppendJournal("SHA256:p000003", 0, []byte("turn")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Quarantine("SHA256:p000004", "test", time.Unix(3, 0)); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, b)
	b.Close()

	res, err := Compact(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if res.After <= 0 || res.After > res.Before/5 {
		t.Errorf("compacted from %d to %d bytes", res.Before, res.After)
	}
	if fi, err := os.Stat(res.Backup); err != nil || fi.Size() != res.Before {
		t.Errorf("backup %s: %v", res.Backup, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != res.After {
		t.Errorf("%s after: %v", path, err)
	}
	if _, err := os.Stat(path + ".compact"); err == nil {
		t.Error("the copy is left beside the file")
	}
	b = openTest(t, path)
	if got := snapshot(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("records changed:\n got %+v\nwant %+v", got, want)
	}
	// The scores' sequence carried over: a new score ranks after the equal
	// one recorded before (aged game 5: 5 points at Unix 5). Before it:
	// 994 + 14 scores of more points, 2 of 5 points, earlier or equal.
	rank, err := b.FinishGame("SHA256:later", store.Score{Name: "l", Points: 5, Date: time.Unix(5, 0)})
	if err != nil || rank != 1011 {
		t.Errorf("rank %d, %v; want 1011", rank, err)
	}
}

// records is what a compaction must keep.
type records struct {
	Scores      []store.Score
	Profile     store.Profile
	Save        []byte
	Journal     [][]byte
	Quarantined []store.Quarantined
	Name        string
}

func snapshot(t *testing.T, b *Store) records {
	t.Helper()
	var r records
	var err error
	if r.Scores, err = b.TopScores(5000); err != nil {
		t.Fatal(err)
	}
	if r.Profile, err = b.Profile("SHA256:p000007"); err != nil {
		t.Fatal(err)
	}
	if r.Save, err = b.Save("SHA256:p000003"); err != nil {
		t.Fatal(err)
	}
	if r.Journal, err = b.Journal("SHA256:p000003"); err != nil {
		t.Fatal(err)
	}
	if r.Quarantined, err = b.Quarantined("SHA256:p000004"); err != nil {
		t.Fatal(err)
	}
	if r.Name, err = b.NameHolder("NAME12"); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCompactRefusesAFileAServerHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	b := openTest(t, path)
	populate(t, b, 5)
	before, _ := os.ReadFile(path)
	_, err := Compact(path, 100*time.Millisecond)
	if !errors.Is(err, ErrLocked) {
		t.Errorf("err = %v, want ErrLocked", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("the file changed")
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Error("a backup was made")
	}
}

func TestCompactOfAMissingFileSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	if _, err := Compact(path, time.Second); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("compact created the file")
	}
}

// TestASecondCompactKeepsTheFirstBackup: compacting twice must not replace
// the first backup (the file as it was before any compact) with the
// already-compacted one.
func TestASecondCompactKeepsTheFirstBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	b, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PutSave("SHA256:a", []byte("the original")); err != nil {
		t.Fatal(err)
	}
	b.Close()
	original, _ := os.ReadFile(path)
	first, err := Compact(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Compact(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if first.Backup == second.Backup {
		t.Errorf("both compacts kept their backup as %s", first.Backup)
	}
	if kept, _ := os.ReadFile(first.Backup); !bytes.Equal(kept, original) {
		t.Errorf("%s is no longer the file as it was before the first compact", first.Backup)
	}
}
