package faults

// What SIGTERM says of the games a database outage left unsaved:
// the exit status and the last log line tell what is true at exit. A
// game whose session ended while PostgreSQL was down, and that was saved
// once it came back, is no longer unsaved; one still unsaved is counted
// and named by its key's fingerprint.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/pgtest"
)

func TestSIGTERMAfterAGameUnsavedInAnOutageWasSavedAgainExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	pg := pgtest.Own(t) // this test's own: it kills it
	b := backend{name: "postgres", url: newDatabase(t, pg)}
	p := b.start(t, anyPort, t.TempDir())
	players := newPlayers(t, 2)
	saved, lost := players[0], players[1]
	for _, pl := range []*player{saved, lost} {
		pl.connect(t, p.addr)
		pl.step(t, ".")
	}

	if err := pg.Kill(); err != nil {
		t.Fatal(err)
	}
	for _, pl := range []*player{saved, lost} {
		endUnsaved(t, pl)
	}
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}

	// saved comes back and plays a turn: its game is in the store again.
	pl := saved
	pl.connect(t, p.addr)
	want := pl.shown + 1
	pl.c.Send(".")
	if _, err := pl.c.WaitForText(time.Minute, fmt.Sprintf("Turn: %d", want)); err != nil {
		t.Fatalf("%s: the turn after the outage is not shown: %v\n%s", pl.name, err, pl.c.Screen())
	}
	pl.c.Send("\x03") // Ctrl+C: save and leave
	if _, err := waitOutput(pl, "Your game is saved"); err != nil {
		t.Fatalf("%s: leaving after the outage: %v", pl.name, err)
	}

	p.sigterm()
	code := p.exit(t, 30*time.Second)
	log := p.stderr.String()
	if code != 1 || !strings.Contains(log, "could not be saved") {
		t.Fatalf("SIGTERM with one game still unsaved: exit %d, log:\n%s", code, log)
	}
	line := lineWith(log, "could not be saved")
	if !strings.Contains(line, keyFP(lost)) || strings.Contains(line, keyFP(saved)) || !strings.Contains(line, "unsaved=1") {
		t.Errorf("the exit's log line does not name the one game still unsaved (%s) alone:\n%s", keyFP(lost), line)
	}

	// The same again, once the lost player's game is saved too: exit 0.
	p = b.start(t, anyPort, t.TempDir())
	for _, pl := range []*player{saved, lost} {
		pl.connect(t, p.addr)
		pl.step(t, ".")
	}
	if err := pg.Kill(); err != nil {
		t.Fatal(err)
	}
	endUnsaved(t, saved)
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	saved.connect(t, p.addr) // resumed: the store's copy is its game again
	want = saved.shown + 1
	saved.c.Send(".")
	if _, err := saved.c.WaitForText(time.Minute, fmt.Sprintf("Turn: %d", want)); err != nil {
		t.Fatalf("%s: the turn after the outage is not shown: %v\n%s", saved.name, err, saved.c.Screen())
	}
	// lost stays in its game: SIGTERM's flush saves it.
	p.sigterm()
	if code := p.exit(t, 30*time.Second); code != 0 || strings.Contains(p.stderr.String(), "could not be saved") {
		t.Errorf("SIGTERM once every game was saved again: exit %d, log:\n%s", code, p.stderr)
	}
	for _, pl := range []*player{saved, lost} {
		if _, err := waitOutput(pl, "Your game is saved"); err != nil {
			t.Errorf("%s at SIGTERM: %v", pl.name, err)
		}
		pl.c.Close()
	}
}

// newDatabase returns the URL of a new database on pg.
func newDatabase(t *testing.T, pg *pgtest.Server) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := pg.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// endUnsaved has pl, whose database is down, press a key (which waits for
// storage) and leave: the session ends with its game not saved.
func endUnsaved(t *testing.T, pl *player) {
	t.Helper()
	pl.c.Send(".")
	if _, err := pl.c.WaitForText(time.Minute, "Waiting for storage"); err != nil {
		t.Fatalf("%s: the database is down but the key does not wait for it: %v", pl.name, err)
	}
	pl.c.Send("\x03")
	if _, err := waitOutput(pl, "could not be saved"); err != nil {
		t.Fatalf("%s: leaving while the database is down: %v", pl.name, err)
	}
	pl.c.Close()
}

// waitOutput waits (a minute at most) for the session of pl to end, and
// returns its output, or an error when it does not end or does not
// contain text.
func waitOutput(pl *player, text string) (string, error) {
	select {
	case <-pl.c.Done():
	case <-time.After(time.Minute):
		return "", fmt.Errorf("the session did not end; the screen:\n%s", pl.c.Screen())
	}
	out := string(pl.c.Output())
	if !strings.Contains(out, text) {
		return out, fmt.Errorf("the session ended without %q:\n%q", text, out[max(0, len(out)-600):])
	}
	return out, nil
}

// lineWith returns the first line of log that contains s, or "".
func lineWith(log, s string) string {
	for l := range strings.Lines(log) {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
