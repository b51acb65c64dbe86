package faults

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/store/bolt"
)

func TestDamagedSavesAreSetAsideAndTheirPlayersStartAfresh(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, damagedSaves)
}

func damagedSaves(t *testing.T, b backend) {
	dir := t.TempDir()
	players := newPlayers(t, 5)
	good, _ := game.New(1, content.Default()).Encode()
	truncated := good[:len(good)/2]
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/3] ^= 0x20
	future := append([]byte(nil), good...)
	future[5] = 0x7f
	damage := []struct {
		name    string
		save    []byte
		journal [][]byte
		other   bool // not damaged: a save of another grotto version, kept in place
	}{
		{"random bytes", []byte("\x00\xffnot a save at all"), nil, false},
		{"truncated", truncated, nil, false},
		{"checksum mismatch", flipped, nil, false},
		{"unknown version", future, nil, true},
		{"journal that does not fit", good, [][]byte{[]byte(`{"a":3}`), []byte("{garbage")}, false},
	}
	st := b.open(t, dir)
	for i, d := range damage {
		st.PutSave(keyFP(players[i]), d.save)
		for j, e := range d.journal {
			st.AppendJournal(keyFP(players[i]), uint64(j), e)
		}
		st.ClaimName(keyFP(players[i]), players[i].name, time.Now())
	}
	st.Close() // bbolt: grotto needs the file's lock

	p := b.start(t, anyPort, dir)
	for i, d := range damage {
		pl := players[i]
		c, err := dialAs(pl, p.addr)
		if err != nil {
			t.Fatal(err)
		}
		screen, err := c.WaitForText(10*time.Second, "New game")
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		want := "damaged"
		if d.other {
			want = "newer version of grotto"
		}
		if !strings.Contains(screen, want) || strings.Contains(screen, "Continue") {
			t.Errorf("%s: title:\n%s", d.name, screen)
		}
		c.Send("n")
		if d.other { // starting afresh replaces the kept save: asked first
			if _, err := c.WaitForText(10*time.Second, "will be lost"); err != nil {
				t.Errorf("%s: no confirmation: %v", d.name, err)
			}
			c.Send("y")
		}
		if _, err := c.WaitForText(10*time.Second, "Turn: 0"); err != nil {
			t.Errorf("%s: no new game: %v", d.name, err)
		}
		c.Close()
	}
	p.sigterm()
	if code := p.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.stderr)
	}
	st = b.open(t, dir)
	for i, d := range damage {
		want := 1
		if d.other {
			want = 0
		}
		if reasons, _ := st.Quarantined(keyFP(players[i])); len(reasons) != want {
			t.Errorf("%s: quarantine holds %v", d.name, reasons)
		}
	}
}

// bbolt only: a file in the data dir, and its lock, are bbolt's (on
// PostgreSQL, a database that cannot be reached at start is cmd/grotto's
// TestADatabaseThatCannotBeReachedIsOneLineNamingHostAndReason).
func TestAFileThatIsNotADatabaseOrIsLockedStopsTheStartNamingIt(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "grotto.db"), []byte("these are my holiday photos, not a database"), 0o600)
	p := start(t, anyPort, dir)
	if code := p.exit(t, 10*time.Second); code != 1 || !strings.Contains(p.stderr.String(), "grotto.db") ||
		!strings.Contains(p.stderr.String(), "not a grotto database") {
		t.Errorf("non-bbolt file: exit %d, stderr:\n%s", code, p.stderr)
	}

	dir = t.TempDir()
	st, err := bolt.Open(filepath.Join(dir, "grotto.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p = start(t, anyPort, dir)
	if code := p.exit(t, 15*time.Second); code != 1 || !strings.Contains(p.stderr.String(), "grotto.db") ||
		!strings.Contains(p.stderr.String(), "locked") {
		t.Errorf("locked file: exit %d, stderr:\n%s", code, p.stderr)
	}
}
