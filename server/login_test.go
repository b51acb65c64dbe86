package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
)

// serveOn runs a real grotto server on db (which it closes at cleanup with
// the server), logging into logs, and returns its address (serveDB).
func serveOn(t *testing.T, db Database, logs *lockedBuffer) string {
	t.Helper()
	_, addr := serveDB(t, Config{Logger: log.New(logs)}, db)
	return addr
}

// profileFaults is a bbolt store whose profile role misbehaves as told.
type profileFaults struct {
	*bolt.Store
	putErr  error  // PutProfile fails with it
	readErr error  // Profile fails with it
	fpText  string // Profile returns this as the record's fingerprint text
}

func (db profileFaults) PutProfile(p store.Profile) error {
	if db.putErr != nil {
		return db.putErr
	}
	return db.Store.PutProfile(p)
}

func (db profileFaults) Profile(fp string) (store.Profile, error) {
	if db.readErr != nil {
		return store.Profile{}, db.readErr
	}
	p, err := db.Store.Profile(fp)
	if err == nil && db.fpText != "" {
		p.Fingerprint = db.fpText
	}
	return p, err
}

// returningPlayer stores the profile of a player named ada in db, last
// seen an hour ago, and returns her fingerprint and how to connect with her
// key.
func returningPlayer(t *testing.T, db *bolt.Store) (fp string, connect func(addr string) *sshtest.Client) {
	t.Helper()
	key := newKey(t)
	fp = keys.Fingerprint(key.PublicKey())
	if err := db.ClaimName(fp, "ada", time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	return fp, func(addr string) *sshtest.Client { return dial(t, addr, key, 80, 24) }
}

// firstScreen waits for the title, the name screen, or the session's end,
// and returns the screen.
func firstScreen(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	screen, _ := c.WaitFor(ctx, func(s string) bool {
		return strings.Contains(s, "New game") || strings.Contains(s, "Choose the name")
	})
	select {
	case <-c.Done():
		return c.Screen()
	default:
		return screen
	}
}

func TestAPlayerWhoseVisitCannotBeRecordedStillPlays(t *testing.T) {
	// A full disk: the LastSeen write at login fails. It is not essential,
	// so the player gets in (the game tells them about saving trouble) and
	// the host's log has a warning.
	db := storetest.TempBolt(t)
	fp, connect := returningPlayer(t, db)
	var logs lockedBuffer
	addr := serveOn(t, profileFaults{Store: db, putErr: fmt.Errorf("put profile: %w", store.ErrNoRoom)}, &logs)
	screen := firstScreen(t, connect(addr))
	if !strings.Contains(screen, "New game") || strings.Contains(screen, "cannot read") {
		t.Errorf("a returning player on a full disk sees:\n%s", screen)
	}
	if l := logs.String(); !strings.Contains(l, "WARN") || !strings.Contains(l, fp) {
		t.Errorf("the host's log has no warning naming %s:\n%s", fp, l)
	}
}

func TestADamagedProfileIsExplainedToThePlayerAndLoggedForTheHost(t *testing.T) {
	db := storetest.TempBolt(t)
	fp, connect := returningPlayer(t, db)
	var logs lockedBuffer
	addr := serveOn(t, profileFaults{Store: db, readErr: fmt.Errorf("players %s: %w", fp, store.ErrCorrupt)}, &logs)
	c := connect(addr)
	ended(t, c)
	want := "Your player record on this server is damaged; the host has been told. Please contact them."
	if out := string(c.Output()); !strings.Contains(out, want) {
		t.Errorf("a player with a damaged profile reads %q, want %q", out, want)
	}
	var found bool
	for _, line := range strings.Split(logs.String(), "\n") {
		found = found || (strings.Contains(line, "ERRO") && strings.Contains(line, fp))
	}
	if !found {
		t.Errorf("the host's log has no error naming %s:\n%s", fp, logs.String())
	}
}

func TestLoginRecordsTheVisitUnderTheSessionsKeyNotTheRecordsText(t *testing.T) {
	db := storetest.TempBolt(t)
	fp, connect := returningPlayer(t, db)
	before, err := db.Profile(fp)
	if err != nil {
		t.Fatal(err)
	}
	const damaged = "SHA256:damaged"
	var logs lockedBuffer
	addr := serveOn(t, profileFaults{Store: db, fpText: damaged}, &logs)
	if screen := firstScreen(t, connect(addr)); !strings.Contains(screen, "New game") {
		t.Fatalf("the returning player sees:\n%s", screen)
	}
	if p, err := db.Profile(damaged); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("login wrote a profile under the record's damaged fingerprint text: %+v, %v", p, err)
	}
	after, err := db.Profile(fp)
	if err != nil || !after.LastSeen.After(before.LastSeen) {
		t.Errorf("the visit was not recorded under the key's fingerprint: %v → %+v, %v", before.LastSeen, after, err)
	}
}

func TestSettingsAreSavedUnderTheSessionsKeyNotTheRecordsText(t *testing.T) {
	db := storetest.TempBolt(t)
	fp, _ := returningPlayer(t, db)
	const damaged = "SHA256:damaged"
	s := &Server{log: log.New(&lockedBuffer{}), store: profileFaults{Store: db, fpText: damaged}}
	if err := s.saveSettings(fp, s.log)(tui.Settings{Symbols: "ascii"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Profile(damaged); !errors.Is(err, store.ErrNotFound) {
		t.Error("the settings were written under the record's damaged fingerprint text")
	}
	if p, err := db.Profile(fp); err != nil || p.Settings.Symbols != "ascii" {
		t.Errorf("the settings are not in the key's profile: %+v, %v", p, err)
	}
}

func TestAQuarantinedSaveIsLoggedForTheHost(t *testing.T) {
	db := storetest.TempBolt(t)
	fp, connect := returningPlayer(t, db)
	if err := db.PutSave(fp, []byte("not a grotto save")); err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	addr := serveOn(t, db, &logs)
	c := connect(addr)
	waitText(t, c, "set aside")
	qs, err := db.Quarantined(fp)
	if err != nil || len(qs) != 1 {
		t.Fatalf("quarantine of %s: %+v, %v", fp, qs, err)
	}
	var found bool
	for _, line := range strings.Split(logs.String(), "\n") {
		found = found || (strings.HasPrefix(line, "WARN") && strings.Contains(line, fp) &&
			strings.Contains(line, "key="+qs[0].Key) && strings.Contains(line, "reason="))
	}
	if !found {
		t.Errorf("the host's log has no warning with %s, the reason and the key %s:\n%s", fp, qs[0].Key, logs.String())
	}
}
