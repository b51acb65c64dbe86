package server

import (
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// named dials addr as key with a terminal of w x h and claims name on the
// name screen; it returns on the title.
func named(t *testing.T, addr string, key gossh.Signer, name string, w, h int) *sshtest.Client {
	t.Helper()
	c := dial(t, addr, key, w, h)
	waitText(t, c, "Choose the name")
	c.Send("\x15" + name + "\r") // ctrl+u clears the suggestion
	waitText(t, c, "New game")
	return c
}

// whoRow returns the row of `ssh host who` that lists name, or "".
func whoRow(t *testing.T, addr, name string) string {
	t.Helper()
	out, status := command(t, addr, "who")
	if status != 0 {
		t.Fatalf("who exited %d: %s", status, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return line
		}
	}
	t.Fatalf("who does not list %s:\n%s", name, out)
	return ""
}

// TestASessionWatchingAnotherIsListedAsWatchingThem: ann watches bob's
// game; `who` and a newcomer's title list ann as "watching bob", not as on
// the title with no depth (a community tester), and bob as playing.
func TestASessionWatchingAnotherIsListedAsWatchingThem(t *testing.T) {
	_, addr := startServer(t)
	bob := named(t, addr, newKey(t), "bob", 100, 30)
	bob.Send("n")
	waitText(t, bob, "Turn: 0")
	ann := named(t, addr, newKey(t), "ann", 100, 30)
	ann.Send("w")
	waitText(t, ann, "Playing now")
	ann.Send("\r")
	waitText(t, ann, "Watching bob")

	if row := whoRow(t, addr, "ann"); !strings.Contains(row, "watching bob") {
		t.Errorf("who lists ann, who watches bob, as:\n%s", row)
	}
	if row := whoRow(t, addr, "bob"); !strings.Contains(row, "playing") {
		t.Errorf("who lists bob, who plays, as:\n%s", row)
	}
	carl := named(t, addr, newKey(t), "carl", 100, 32) // 30 rows or more: the title lists who plays
	screen := waitText(t, carl, "Playing now")
	if !strings.Contains(screen, "watching bob") {
		t.Errorf("the title does not list ann as watching bob:\n%s", screen)
	}

	ann.Send("q")
	waitText(t, ann, "New game")
	if row := whoRow(t, addr, "ann"); !strings.Contains(row, "on the title") || strings.Contains(row, "watching") {
		t.Errorf("who lists ann, back on the title, as:\n%s", row)
	}
}

// TestAWinnerOnTheVictoryScreenIsListedAsWonNotAtADepth: an admin's
// (cheated) escape ends the game; while the player reads the victory
// screen, `who` says the game is won, with no depth or turn, not as a game
// in play (a community tester).
func TestAWinnerOnTheVictoryScreenIsListedAsWonNotAtADepth(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	c := named(t, addr, admin, "ada", 100, 30)
	c.Send("n")
	waitText(t, c, "Turn: 0")
	for depth := 2; depth <= 7; depth++ { // down to 6, then out
		c.Send(`\`)
		waitText(t, c, "Teleport to exit")
		c.Send("t")
		if depth <= 6 {
			waitText(t, c, "Depth: "+string(rune('0'+depth)))
		}
	}
	waitText(t, c, "You escaped the grotto!")
	row := whoRow(t, addr, "ada")
	if f := strings.Fields(row); !strings.Contains(row, "won") || len(f) < 3 || f[1] != "-" || f[2] != "-" {
		t.Errorf("who lists a player on the victory screen as:\n%s", row)
	}
}

// TestASecondSessionOfAKeyThatOnlyWatchesIsNotOfferedAGameToTakeOver:
// ann watches bob; ann's key connects again. There is no game of ann's to
// take over, and the choice says so (a community tester); playing here
// closes the watching session, which is told nothing is lost, and the key
// keeps one listed session.
func TestASecondSessionOfAKeyThatOnlyWatchesIsNotOfferedAGameToTakeOver(t *testing.T) {
	_, addr := startServer(t)
	bob := named(t, addr, newKey(t), "bob", 100, 30)
	bob.Send("n")
	waitText(t, bob, "Turn: 0")
	annKey := newKey(t)
	ann := named(t, addr, annKey, "ann", 100, 24)
	ann.Send("w")
	waitText(t, ann, "Playing now")
	ann.Send("\r")
	waitText(t, ann, "Watching bob")

	again := dial(t, addr, annKey, 100, 30)
	screen := waitText(t, again, "already connected")
	flat := strings.Join(strings.Fields(screen), " ")
	if !strings.Contains(flat, "watching bob") || !strings.Contains(flat, "nothing is lost") ||
		strings.Contains(flat, "already playing") || strings.Contains(flat, "take over") || strings.Contains(flat, "game open in") {
		t.Errorf("the choice of a key whose other session only watches:\n%s", screen)
	}
	again.Send("t")
	waitText(t, again, "New game")
	if out := ended(t, ann); !strings.Contains(out, "nothing is lost") {
		t.Errorf("the watching session was told %q; want that nothing is lost", out)
	}
	out, _ := command(t, addr, "who")
	if n := strings.Count(out, "\nann "); n != 1 {
		t.Errorf("who lists ann %d times, want once (one session per key):\n%s", n, out)
	}
	if row := whoRow(t, addr, "ann"); !strings.Contains(row, "on the title") {
		t.Errorf("who lists ann, now on the title, as:\n%s", row)
	}
}
